"""The page in real browsers: headless Chromium plays whole games by clicking, several browsers
share one table, a game outlives a server restart, the keyboard plays, and screenshots.

Needs Debian's ``chromium`` and ``chromium-driver`` (``apt-get install -y chromium
chromium-driver``); run with ``python -m pytest -m browser tests/test_browser.py -n 0``
(``.ci/run`` does). Screenshots go to ``$SPLENDOR_SCREENSHOTS`` (default
``target/screenshots``); the test also writes the phone and desktop pictures of the docs to
``docs/images/``. Every response a page receives is recorded in the browser and checked
afterwards: no card hidden from the page's seat ever reached it, and no request carried a
seat's token in its address.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import splendor
import uvicorn
from selenium import webdriver
from selenium.common.exceptions import (
    JavascriptException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait
from splendor import render
from splendor.render.svg import _card_title
from splendor.web import ServerLimits, create_app

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
SHOTS = Path(os.environ.get("SPLENDOR_SCREENSHOTS", "target/screenshots"))
DOC_IMAGES = ROOT / "docs" / "images"
# Recorded in the page by the test (not by the page's own code): every API response's text
# (the event stream's too, once it ends) and every address the page asked for.
RECORD = """
window.__responses = [];
window.__requests = [];
const realFetch = window.fetch;
window.fetch = async (...args) => {
  window.__requests.push(String(args[0]));
  const response = await realFetch(...args);
  response.clone().text().then((t) => window.__responses.push(t), () => {});
  return response;
};
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    app = create_app(ServerLimits(workers=2))
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    thread.join(10)


def new_driver(width: int = 1500, height: int = 1250) -> WebDriver:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--window-size={width},{height}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD})
    return driver


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    driver = new_driver()
    yield driver
    driver.quit()


@pytest.fixture
def second_browser() -> Iterator[WebDriver]:
    driver = new_driver()
    yield driver
    driver.quit()


# ---- the API, as a program (to set up positions and to check) -----------------------------------


def api(base: str, method: str, path: str, token: str | None = None, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base.rstrip("/") + "/api/v1" + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def final_state(base: str, game_id: str, token: str) -> Any:
    """The game's whole state once it is over (the save is anyone's then)."""
    saved = api(base, "GET", f"/games/{game_id}/save", token)
    state = splendor.from_json(json.dumps(saved["start"]))
    for a in saved["actions"]:
        state.apply(a)
    return state


def hidden_titles(state: Any, seat: Any) -> set[str]:
    """Faces of the cards the seat cannot see now (decks, others' blind reserves), minus any
    face that a visible card shares (those would prove nothing)."""
    full = render.board_of(state, None)
    view = render.board_of(state, seat)
    variant = state.variant
    seen = {_card_title(c, variant) for c in view.visible_cards()}
    hidden = {
        _card_title(c, variant) for c in full.visible_cards() if _card_title(c, variant) not in seen
    }
    full_json = json.loads(state.to_json())
    deck_ids = [i for deck in full_json["decks"] for i in deck]
    builder = {
        "base": render.tables.base_card,
        "duel": render.tables.duel_card,
    }.get(variant)
    if builder is not None:
        hidden |= {_card_title(builder(i), variant) for i in deck_ids} - seen
    else:
        data = render.tables.marvel_set(full_json["card_set"])
        hidden |= {_card_title(data.cards[i], variant) for i in deck_ids} - seen
    return hidden


TITLE = re.compile(r"<title>(?:[^<:]*: )?([^<]*)</title>")


def titles(text: str) -> set[str]:
    return {html.unescape(t).strip() for t in TITLE.findall(text)}


def assert_nothing_hidden_reached(
    driver: WebDriver, state: Any, seat: int, token: str, since: int = 0
) -> None:
    """No face hidden from ``seat`` at the end is in a response the page got after response
    ``since`` (what an undo took back was seen before it) or in its DOM; every view is the
    seat's; no request address holds a token."""
    secret = hidden_titles(state, seat)
    assert secret, "some cards are still hidden at the end"
    responses: list[str] = driver.execute_script("return window.__responses")
    for text in responses[:since]:
        secret -= titles(text)
    shown: set[str] = set()
    for text in [*responses[since:], driver.page_source]:
        shown |= titles(text)
        if text.startswith("{"):
            body = json.loads(text)
            view = body.get("view")
            if isinstance(view, dict):
                assert view["decks"] is None and view["viewer"] == seat
    assert shown, "the page showed card faces"
    assert not (secret & shown), f"hidden cards reached the page: {sorted(secret & shown)[:3]}"
    requests: list[str] = driver.execute_script("return window.__requests")
    assert requests and not any(token in r for r in requests), "a token in a request address"
    # The server plays the AI seats by itself: the page never asks it to.
    assert not any(r.split("?")[0].endswith("/ai") for r in requests)


# ---- driving the page ---------------------------------------------------------------------------


def turn_state(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "turn").get_attribute("data-state") or "")


def idle(driver: WebDriver, timeout: float = 90) -> None:
    """Wait until the page waits for its seat (legal moves listed) or the game is over."""

    def ready(d: WebDriver) -> bool:
        state = turn_state(d)
        mine = bool(d.find_elements(By.CSS_SELECTOR, "#legal button"))
        return state == "over" or (state == "you" and mine)

    WebDriverWait(driver, timeout, poll_frequency=0.05).until(ready)


def over(driver: WebDriver) -> bool:
    return driver.find_element(By.ID, "result").is_displayed()


def legal_texts(driver: WebDriver) -> list[str]:
    return [
        str(b.get_attribute("textContent"))
        for b in driver.find_elements(By.CSS_SELECTOR, "#legal button")
    ]


def click_pick(driver: WebDriver, pick: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'#board [data-pick="{pick}"]').click()


def choice_texts(driver: WebDriver) -> list[str]:
    return [str(b.text) for b in driver.find_elements(By.CSS_SELECTOR, "#choices button")]


def click_choice(driver: WebDriver, text: str) -> None:
    for b in driver.find_elements(By.CSS_SELECTOR, "#choices button"):
        if b.text == text:
            b.click()
            return
    raise AssertionError(f"no choice {text!r} among {choice_texts(driver)}")


def step_count(driver: WebDriver) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#log li"))


def click_legal(driver: WebDriver, text: str) -> None:
    """A move that is no place on the board (Duel: a privilege, a gold): the full list."""
    details = driver.find_element(By.ID, "legal").find_element(By.XPATH, "..")
    if not details.get_attribute("open"):
        details.find_element(By.TAG_NAME, "summary").click()
    for b in driver.find_elements(By.CSS_SELECTOR, "#legal button"):
        if b.text == text:
            b.click()
            return
    raise AssertionError(f"no legal move {text!r}")


def message(driver: WebDriver) -> str:
    return str(driver.find_element(By.ID, "message").text)


def message_is_error(driver: WebDriver) -> bool:
    return "error" in (driver.find_element(By.ID, "message").get_attribute("class") or "")


def human_move(driver: WebDriver, variant: str, rng: random.Random) -> str:
    """One decision made by clicking the board (the choice panel for the rules' small choices)."""
    idle(driver)
    texts = legal_texts(driver)
    if not texts:
        return "(the game ended)"
    phase_buttons = [
        b.text for b in driver.find_elements(By.CSS_SELECTOR, "#choices button[data-action]")
    ]
    buys = [t for t in texts if t.split()[0] in ("buy", "recruit")]
    takes = [t for t in texts if t.startswith("take ")]
    reserves = [t for t in texts if t.startswith("reserve ")]
    if phase_buttons and not buys and not takes and not reserves:
        choice = rng.choice(phase_buttons)
        click_choice(driver, choice)
        return choice
    if buys and rng.random() < 0.9:
        choice = rng.choice(buys)
    elif takes:
        choice = max(takes, key=lambda t: (len(t), rng.random()))
        parts = choice.split()[1:] if variant == "duel" else list(choice.split()[1])
        for part in parts:
            click_pick(driver, f"cell {part}" if variant == "duel" else f"token {part}")
        click_choice(driver, choice)
        return choice
    elif reserves:
        choice = rng.choice(reserves)
    else:
        choice = rng.choice(texts)
        if choice in phase_buttons:
            click_choice(driver, choice)
        else:
            click_legal(driver, choice)
        return choice
    before = step_count(driver)
    click_pick(driver, choice.split(" ", 1)[1])

    # A card click never plays: it shows the card and asks, with the legal moves as buttons.
    def settled(d: WebDriver) -> bool:
        return choice in choice_texts(d) or step_count(d) > before or message_is_error(d)

    WebDriverWait(driver, 30, poll_frequency=0.05).until(settled)
    if step_count(driver) == before and not message_is_error(driver):
        click_choice(driver, choice)
    return choice


def play_one(driver: WebDriver, variant: str, rng: random.Random) -> str | None:
    """One decision by clicking, then wait until the page shows it (or explains a refusal).
    Returns the move's text (None when the page was redrawn under the click: look again)."""
    before = step_count(driver)
    try:
        choice = human_move(driver, variant, rng)
    except StaleElementReferenceException:
        return None

    def moved(d: WebDriver) -> bool:
        return step_count(d) > before or message_is_error(d) or over(d)

    WebDriverWait(driver, 60, poll_frequency=0.05).until(moved)
    assert not message_is_error(driver), message(driver)
    return choice


def start_table(
    driver: WebDriver,
    base: str,
    variant: str,
    players: int,
    ai_seats: list[int],
    strength: str = "mcts:200",
    seed: int = 7,
) -> dict[str, Any]:
    """Start a table from the start screen; the page goes to the first human seat. Returns
    {game_id, token, links: {seat|"spectator": link}} as the page shows them."""
    driver.get(base)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "new").is_displayed())
    Select(driver.find_element(By.ID, "variant")).select_by_value(variant)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    for seat in range(players):
        box = driver.find_element(By.ID, f"ai-seat-{seat}")
        if box.is_selected() != (seat in ai_seats):
            box.click()
    Select(driver.find_element(By.ID, "strength")).select_by_value(strength)
    driver.find_element(By.ID, "seed").send_keys(str(seed))
    driver.find_element(By.ID, "new").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
    fragment = parse_qs(urlsplit(driver.current_url).fragment)
    links = {
        str(i.get_attribute("data-seat")): str(i.get_attribute("value"))
        for i in driver.find_elements(By.CSS_SELECTOR, "#links input")
    }
    humans = [s for s in range(players) if s not in ai_seats]
    assert set(links) == {*map(str, humans), "spectator", "host"}
    first = links[str(humans[0])] if humans else links["spectator"]
    assert urlsplit(first).fragment == urlsplit(driver.current_url).fragment
    return {"game_id": fragment["game"][0], "token": fragment["token"][0], "links": links}


def seat_words(seat: int, mine: int | None, ai_seats: list[int]) -> str:
    """How the page names a seat: ``seat 0 (you)``, ``seat 1 (AI)``, ``seat 2 (human)``."""
    if seat == mine:
        return f"seat {seat} (you)"
    return f"seat {seat} ({'AI' if seat in ai_seats else 'human'})"


def link_token(link: str) -> str:
    return parse_qs(urlsplit(link).fragment)["token"][0]


# ---- whole games by clicking --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "players", "ai_seats"),
    [("base", 2, [1]), ("duel", 2, [1]), ("marvel", 3, [1, 2])],
)
def test_play_a_whole_game_by_clicking(
    server: str, browser: WebDriver, variant: str, players: int, ai_seats: list[int]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    table = start_table(browser, server, variant, players, ai_seats)
    idle(browser)
    browser.save_screenshot(str(SHOTS / f"{variant}-start.png"))

    # A token no take picks is not picked: a tap says how it comes (never the grammar).
    before = step_count(browser)
    wild = {"base": "token y", "marvel": "token s"}.get(variant)
    if wild is not None:
        click_pick(browser, wild)
        notes = browser.execute_script("return splendor.game.place_notes")
        WebDriverWait(browser, 5).until(lambda d: message(d) == notes[wild])
        assert "reserve" in message(browser) and not message_is_error(browser)
        assert not browser.find_element(By.ID, "selection-box").is_displayed()

    # An illegal pick is explained, and changes nothing.
    picks = {"base": ["token w"], "marvel": ["token p"], "duel": ["cell a1", "cell e5"]}[variant]
    for pick in picks:
        click_pick(browser, pick)
    tried = "take " + ("a1 e5" if variant == "duel" else picks[0][-1])
    click_choice(browser, tried)
    WebDriverWait(browser, 10).until(message_is_error)
    explained = message(browser)
    assert tried in explained and len(explained) > len(tried) + 10
    assert step_count(browser) == before
    browser.save_screenshot(str(SHOTS / f"{variant}-illegal.png"))
    browser.find_element(By.ID, "clear").click()

    # A hint shows the AI's choice with its win estimate and the moves it considered.
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 30).until(lambda d: "Hint:" in message(d))
    assert browser.find_elements(By.CSS_SELECTOR, "#ai table tr")
    # And why: the AI's top three moves, their chances, visits, words and expected lines.
    top = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#ai .hint-top li")]
    assert len(top) == 3, top
    assert all(re.search(r"\(win \d+%, \d+ visits\): \S", t) for t in top), top
    assert any("Expected: seat " in t for t in top), top

    rng = random.Random(variant)
    decisions = 0
    undone = False
    revealed_before_undo = 0
    while not over(browser):
        play_one(browser, variant, rng)
        idle(browser)
        decisions += 1
        if decisions == 3 and not undone:
            # What the taken-back moves revealed was seen: it no longer counts as hidden.
            revealed_before_undo = browser.execute_script("return window.__responses.length")
            browser.find_element(By.ID, "undo").click()
            WebDriverWait(browser, 10).until(lambda d: "taken back" in message(d))
            undone = True
            idle(browser)
        if decisions == 12:
            browser.save_screenshot(str(SHOTS / f"{variant}-midgame.png"))
        assert decisions < 600, "the game should end"
    browser.save_screenshot(str(SHOTS / f"{variant}-over.png"))
    result = browser.find_element(By.ID, "result").text
    assert result.startswith("Game over")
    # The AI's moves were shown as they happened, with their win estimates.
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    assert any("(AI)" in line and "win " in line for line in log)

    # Replay: back to the start, then one move forward.
    browser.find_element(By.ID, "replay-first").click()
    WebDriverWait(browser, 10).until(
        lambda d: d.find_element(By.ID, "replay-label").text.startswith("move 0 of")
    )
    browser.find_element(By.ID, "replay-next").click()
    WebDriverWait(browser, 10).until(
        lambda d: d.find_element(By.ID, "replay-label").text.startswith("move 1 of")
    )
    browser.save_screenshot(str(SHOTS / f"{variant}-replay.png"))
    elapsed = time.perf_counter() - start

    # Nothing hidden from the human's seat reached the page, in any response or in the DOM.
    human = next(s for s in range(players) if s not in ai_seats)
    state = final_state(server, table["game_id"], table["token"])
    assert_nothing_hidden_reached(browser, state, human, table["token"], revealed_before_undo)
    print(f"{variant}: {decisions} decisions by clicking, {elapsed:.1f} s, result: {result}")


def test_a_click_on_a_card_shows_it_and_asks(server: str, browser: WebDriver) -> None:
    """A card click plays nothing: the card is shown with its legal moves as buttons. New
    seats are the AI's and say so; the board names the AI's seats."""
    browser.get(server)
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "new").is_displayed())
    Select(browser.find_element(By.ID, "variant")).select_by_value("base")
    Select(browser.find_element(By.ID, "players")).select_by_value("2")
    Select(browser.find_element(By.ID, "players")).select_by_value("3")
    roles = [r.text for r in browser.find_elements(By.CSS_SELECTOR, "#seats .role")]
    assert roles == ["seat 0: human", "seat 1: AI", "seat 2: AI"]
    assert browser.find_element(By.ID, "ai-seat-2").is_selected()
    browser.find_element(By.ID, "ai-seat-2").click()
    assert browser.find_elements(By.CSS_SELECTOR, "#seats .role")[2].text == "seat 2: human"
    start_table(browser, server, "base", 2, [1], strength="greedy")
    idle(browser)
    board = str(browser.find_element(By.ID, "board").get_attribute("textContent"))
    assert "seat 1 (AI)" in board and "seat 0 (you)" in board
    assert browser.find_element(By.ID, "turn").text == "Your turn."
    # No one can afford a level 3 card on the first turn: a click shows it, plays nothing.
    before = step_count(browser)
    click_pick(browser, "3.1")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "inspect").is_displayed())
    assert step_count(browser) == before
    inspect = browser.find_element(By.ID, "inspect")
    assert inspect.find_elements(By.TAG_NAME, "svg")
    assert inspect.find_element(By.TAG_NAME, "p").text.startswith("3.1: level 3")
    assert choice_texts(browser) == ["reserve 3.1"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "base-inspect.png"))
    click_choice(browser, "reserve 3.1")
    WebDriverWait(browser, 30).until(lambda d: step_count(d) > before)
    assert not message_is_error(browser)
    assert browser.execute_script("return splendor.game.log[0].action") == "reserve 3.1"


def test_save_and_load(server: str, browser: WebDriver, tmp_path: Path) -> None:
    """Save fetches the game with the seat's token (the table's only person may); Load makes
    a new table of it and goes to its first human seat."""
    table = start_table(browser, server, "base", 2, [1], strength="greedy", seed=9)
    rng = random.Random(9)
    for _ in range(2):
        play_one(browser, "base", rng)
        idle(browser)
    played = step_count(browser)
    browser.find_element(By.ID, "save").click()
    WebDriverWait(browser, 10).until(lambda d: message(d) == "Saved.")
    saved = api(server, "GET", f"/games/{table['game_id']}/save", table["token"])
    path = tmp_path / "saved.json"
    path.write_text(json.dumps(saved))
    browser.find_element(By.ID, "load").send_keys(str(path))
    WebDriverWait(browser, 30).until(
        lambda d: (
            parse_qs(urlsplit(d.current_url).fragment).get("game", [""])[0]
            not in ("", table["game_id"])
        )
    )
    idle(browser)
    assert step_count(browser) == played
    first = browser.find_element(By.CSS_SELECTOR, "#links .link span")
    assert first.text == "seat 0 (human) — this page"


# ---- a table of two people and the AI -----------------------------------------------------------


def test_two_browsers_and_the_ai_play_a_whole_three_player_game(
    server: str, browser: WebDriver, second_browser: WebDriver
) -> None:
    """Seats 0 and 1 are people, each in their own browser on their own link; seat 2 is the
    AI, played by the server. Each page sees the other's moves as they happen."""
    start = time.perf_counter()
    table = start_table(browser, server, "base", 3, [2], strength="greedy", seed=11)
    link1 = table["links"]["1"]
    copy = browser.find_element(By.CSS_SELECTOR, "#links button")
    copy.click()
    WebDriverWait(browser, 5).until(lambda d: copy.text == "Copied")
    second_browser.get(link1)
    pages = {0: browser, 1: second_browser}
    tokens = {0: table["token"], 1: link_token(link1)}
    WebDriverWait(second_browser, 30).until(lambda d: turn_state(d) != "")
    assert second_browser.find_element(By.ID, "turn").text == "Seat 0 (human) to play."
    assert not legal_texts(second_browser)

    # A spectator sees the public board, and plays nothing.
    browser.switch_to.new_window("tab")
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD})
    browser.get(table["links"]["spectator"])
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
    assert browser.find_element(By.ID, "turn").text.startswith("Watching.")
    assert not legal_texts(browser)
    snap = browser.execute_script("return splendor.game")
    assert snap["seat"] is None and snap["legal"] == [] and snap["view"]["decks"] is None
    assert snap["view"]["viewer"] is None
    spectator: list[str] = [
        *browser.execute_script("return window.__responses"),
        browser.page_source,
    ]
    browser.close()
    browser.switch_to.window(browser.window_handles[0])

    rng = random.Random(3)
    decisions = 0
    seen_live = 0
    while not over(browser):
        WebDriverWait(browser, 90, poll_frequency=0.05).until(
            lambda d: over(d) or turn_state(d) == "you" or turn_state(second_browser) == "you"
        )
        if over(browser):
            break
        seat = 0 if turn_state(browser) == "you" else 1
        page, other = pages[seat], pages[1 - seat]
        idle(page)
        theirs = [li.text for li in other.find_elements(By.CSS_SELECTOR, "#log li .move")]
        choice = play_one(page, "base", rng)
        if choice is None:
            continue
        decisions += 1
        line = f"seat {seat} (human): {choice}"
        seen = theirs.count(line)

        # The other person's page shows the move without being reloaded.
        def shown(d: WebDriver, line: str = line, seen: int = seen) -> bool:
            lines = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#log li .move")]
            return lines.count(line) > seen

        try:
            WebDriverWait(other, 30, poll_frequency=0.05).until(shown)
            seen_live += 1
        except StaleElementReferenceException:
            pass
        assert decisions < 600, "the game should end"
    WebDriverWait(second_browser, 30).until(over)
    # Both pages show the same standings (each names its own seat "you").
    results = [p.execute_script("return splendor.game.result") for p in (browser, second_browser)]
    assert results[0] == results[1] and len(results[0]["standings"]) == 3
    for page in (browser, second_browser):
        rows = page.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
        mine = page.execute_script("return splendor.game.seat")
        assert [r.find_elements(By.TAG_NAME, "td")[1].text for r in rows] == [
            seat_words(x["seat"], mine, [2]) for x in results[0]["standings"]
        ]
    assert seen_live >= decisions // 2, (seen_live, decisions)
    log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
    assert any(line.startswith("seat 2 (AI): ") for line in log)
    assert any(line.startswith("seat 1 (human): ") for line in log)
    state = final_state(server, table["game_id"], tokens[0])
    for seat, page in pages.items():
        assert_nothing_hidden_reached(page, state, seat, tokens[seat])
    # Nor did anything hidden from everyone reach the spectators' page.
    watched: set[str] = set().union(*map(titles, spectator))
    assert watched and not (hidden_titles(state, render.PUBLIC) & watched)
    elapsed = time.perf_counter() - start
    print(f"3 players, 2 browsers: {decisions} human decisions, {elapsed:.1f} s")


# ---- a server restart in the middle of a game ---------------------------------------------------


class ServerProcess:
    """``splendor serve`` as a child process on a SQLite file."""

    def __init__(self, port: int, db: Path, log: Path) -> None:
        self.port, self.db, self.log = port, db, log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        exe = Path(sys.executable).with_name("splendor")
        command = [str(exe), "serve", "--port", str(self.port), "--db", str(self.db)]
        command += ["--workers", "1"]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while True:
            assert self.process.poll() is None, self.log.read_text()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/v1", timeout=2).read()
                return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                assert time.time() < deadline, "the server did not start"
                time.sleep(0.1)

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def test_a_game_started_before_a_restart_is_finished_after_it(
    browser: WebDriver, tmp_path: Path
) -> None:
    port = free_port()
    proc = ServerProcess(port, tmp_path / "games.sqlite3", tmp_path / "server.log")
    proc.start()
    try:
        base = f"http://127.0.0.1:{port}/"
        table = start_table(browser, base, "base", 2, [1], strength="greedy", seed=5)
        rng = random.Random(5)
        for _ in range(3):
            play_one(browser, "base", rng)
            idle(browser)
        played = step_count(browser)
        assert played >= 3

        proc.kill()
        WebDriverWait(browser, 30, poll_frequency=0.1).until(
            lambda d: "reconnecting" in d.find_element(By.ID, "conn").text
        )
        browser.save_screenshot(str(SHOTS / "restart-reconnecting.png"))
        proc.start()
        # The page finds the server again by itself, with the game as it was.
        WebDriverWait(browser, 30, poll_frequency=0.1).until(
            lambda d: "connected again" in d.find_element(By.ID, "conn").text
        )
        idle(browser)
        assert step_count(browser) == played
        decisions = 0
        while not over(browser):
            play_one(browser, "base", rng)
            idle(browser)
            decisions += 1
            assert decisions < 600, "the game should end"
        assert browser.find_element(By.ID, "result").text.startswith("Game over")
        state = final_state(base, table["game_id"], table["token"])
        assert state.is_terminal()
    finally:
        proc.stop()


# ---- the keyboard -------------------------------------------------------------------------------


def focused_pick(driver: WebDriver) -> str | None:
    pick = driver.execute_script(
        "const p = document.activeElement && document.activeElement.closest"
        " ? document.activeElement.closest('#board [data-pick]') : null;"
        " return p ? p.dataset.pick : null;"
    )
    return str(pick) if pick else None


def centre(driver: WebDriver, pick: str) -> tuple[float, float]:
    box = driver.execute_script(
        "const g = [...document.querySelectorAll('#board [data-pick]')]"
        ".find((e) => e.dataset.pick === arguments[0]);"
        " const r = g.getBoundingClientRect();"
        " return [r.left + r.width / 2, r.top + r.height / 2];",
        pick,
    )
    return float(box[0]), float(box[1])


def press(driver: WebDriver, key: str) -> None:
    webdriver.ActionChains(driver).send_keys(key).perform()


def arrow_to(driver: WebDriver, pick: str) -> None:
    """Move the focus to ``pick`` with the arrow keys only."""
    for _ in range(40):
        here = focused_pick(driver)
        assert here is not None, "the focus left the board"
        if here == pick:
            return
        (x0, y0), (x1, y1) = centre(driver, here), centre(driver, pick)
        if abs(x1 - x0) >= abs(y1 - y0):
            press(driver, Keys.ARROW_RIGHT if x1 > x0 else Keys.ARROW_LEFT)
        else:
            press(driver, Keys.ARROW_DOWN if y1 > y0 else Keys.ARROW_UP)
    raise AssertionError(f"the arrows did not reach {pick} (at {focused_pick(driver)})")


def test_keyboard_play(server: str, browser: WebDriver) -> None:
    """Tab reaches the board's places (with a visible ring), arrows move between them, Enter
    picks, Escape cancels, and a number key presses the listed choice: a move is made."""
    start_table(browser, server, "base", 2, [1], strength="greedy", seed=3)
    idle(browser)
    assert "Enter" in str(browser.find_element(By.ID, "keys").get_attribute("textContent"))
    browser.find_element(By.ID, "message").click()
    for _ in range(80):
        press(browser, Keys.TAB)
        if focused_pick(browser):
            break
    assert focused_pick(browser), "Tab never reached the board"
    assert browser.find_elements(By.CSS_SELECTOR, "#board .ring.focus-ring")

    # Escape cancels a pick.
    take = max((t for t in legal_texts(browser) if t.startswith("take ")), key=len)
    arrow_to(browser, f"token {take[5]}")
    press(browser, Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: d.find_element(By.ID, "selection-box").is_displayed())
    press(browser, Keys.ESCAPE)
    WebDriverWait(browser, 5).until(
        lambda d: not d.find_element(By.ID, "selection-box").is_displayed()
    )

    for letter in take.split()[1]:
        arrow_to(browser, f"token {letter}")
        press(browser, Keys.ENTER)
    WebDriverWait(browser, 5).until(lambda d: take in choice_texts(d))
    number = browser.execute_script(
        "return [...document.querySelectorAll('#choices button')]"
        ".find((b) => b.textContent === arguments[0]).dataset.key",
        take,
    )
    before = step_count(browser)
    press(browser, str(number))
    WebDriverWait(browser, 30).until(lambda d: step_count(d) > before)
    assert not message_is_error(browser), message(browser)
    assert browser.execute_script("return splendor.game.log[0].action") == take


# ---- screenshots --------------------------------------------------------------------------------

SIZES = {"phone": (390, 844), "desktop": (1400, 1000)}


def mid_game(base: str, variant: str, rng: random.Random) -> str:
    """A table where the human (seat 0) has played a few moves against the AI and is to play
    after the AI's move (the last move the picture highlights): its link."""
    created = api(
        base,
        "POST",
        "/games",
        body={"variant": variant, "players": 2, "seed": 21, "ai_seats": [1], "bot": "greedy"},
    )
    seat = created["seats"][0]
    moves = 0
    deadline = time.time() + 120
    while True:
        assert time.time() < deadline and moves < 60, "no position after the AI's move"
        snap = api(base, "GET", f"/games/{created['game_id']}", seat["token"])
        if not snap["legal"]:
            time.sleep(0.1)
            continue
        if moves >= 8 and snap["last"] and snap["last"]["by_ai"]:
            return str(seat["link"])
        buys = [a for a in snap["legal"] if a["text"].split()[0] in ("buy", "recruit")]
        takes = [a for a in snap["legal"] if a["text"].startswith("take ")]
        if buys:
            action = rng.choice(buys)["id"]
        elif takes:
            action = max(takes, key=lambda a: len(a["text"]))["id"]
        else:
            action = rng.choice(snap["legal"])["id"]
        api(
            base,
            "POST",
            f"/games/{created['game_id']}/actions",
            seat["token"],
            {"action": action, "version": snap["version"]},
        )
        moves += 1


def keep_small(shot: Path, doc: Path) -> None:
    """The docs picture: ``shot`` quantized to 256 colours (small), written to ``doc`` unless
    the picture there already looks the same, up to the quantization's noise (so a rerun
    leaves the checkout as it was)."""
    from PIL import Image, ImageChops

    with Image.open(shot) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    if doc.exists():
        with Image.open(doc) as old:
            if old.size == small.size:
                diff = ImageChops.difference(old.convert("RGB"), small.convert("RGB"))
                if not diff.convert("L").point(lambda v: 255 if v > 64 else 0).getbbox():
                    return
    small.save(doc, optimize=True)


@pytest.mark.parametrize("variant", ["base", "duel", "marvel"])
def test_screenshots(server: str, variant: str) -> None:
    """The page at a phone's size and a desktop's, mid-game, with the last move highlighted."""
    link = mid_game(server, variant, random.Random(variant))
    SHOTS.mkdir(parents=True, exist_ok=True)
    DOC_IMAGES.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        driver = new_driver(width, height)
        try:
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": width,
                    "height": height,
                    "deviceScaleFactor": 1,
                    "mobile": size == "phone",
                },
            )
            # The pictures are still: no animation caught halfway.
            driver.execute_cdp_cmd(
                "Emulation.setEmulatedMedia",
                {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]},
            )
            # The start screen fits the window too.
            driver.get(server)
            WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "new").is_displayed())
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0, f"the start screen is wider than the {width} px window"
            driver.get(link)  # absolute: the server names its own address
            idle(driver)
            assert driver.find_elements(By.CSS_SELECTOR, "#board .last"), "no last move marked"
            assert driver.find_elements(By.CSS_SELECTOR, "#board .ring.last-ring")
            animation = driver.execute_script(
                "return getComputedStyle(document.querySelector('#board .ring.last-ring'))"
                ".animationName"
            )
            assert animation == "none", "prefers-reduced-motion stops the animation"
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0, f"the page is wider than the {width} px window"
            name = f"web-{variant}-{size}.png"
            driver.save_screenshot(str(SHOTS / name))
            keep_small(SHOTS / name, DOC_IMAGES / name)
            assert (DOC_IMAGES / name).stat().st_size < 300_000
            if name == "web-duel-desktop.png":  # the picture of docs/api.md
                keep_small(SHOTS / name, DOC_IMAGES / "web-duel.png")
        finally:
            driver.quit()


def test_the_last_move_is_animated(server: str, browser: WebDriver) -> None:
    """Without reduced motion, the last move's rings pulse."""
    link = mid_game(server, "base", random.Random(1))
    browser.get(link)
    idle(browser)
    names: Callable[[WebDriver], Any] = lambda d: d.execute_script(  # noqa: E731
        "const r = document.querySelector('#board .ring.last-ring');"
        " return r ? getComputedStyle(r).animationName : null"
    )
    try:
        WebDriverWait(browser, 10).until(lambda d: names(d) not in (None, "none"))
    except (TimeoutException, JavascriptException) as exc:
        raise AssertionError(f"no animation on the last move: {names(browser)}") from exc


# ---- the review of a finished game --------------------------------------------------------------

# Recorded in the page by the test: every text the review's status line shows (its progress).
RECORD_REVIEW_STATUS = """
window.__reviewStatus = [];
const status = document.getElementById("review-status");
new MutationObserver(() => {
  const seen = window.__reviewStatus;
  if (seen[seen.length - 1] !== status.textContent) seen.push(status.textContent);
}).observe(status, {childList: true, characterData: true, subtree: true});
"""


def test_review_a_finished_game_and_jump_to_a_mistake(browser: WebDriver) -> None:
    """The last move finishes the game; Review shows its progress, then the chart (a line
    per seat); a click on a mistake jumps the replay there, the move played and the AI's
    preferred one marked on the board and said in words."""
    app = create_app(ServerLimits(workers=1, review_iterations=40))
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.time() + 20
    while not srv.started:
        assert time.time() < deadline, "the server did not start"
        time.sleep(0.05)
    base = f"http://127.0.0.1:{port}/"
    try:
        # A greedy player against a random one: the random seat makes mistakes.
        state = splendor.new_game("base", players=2, seed=5)
        start = json.loads(state.to_json())
        bots: list[Any] = [splendor.GreedyBot(seed=5), splendor.RandomBot(seed=6)]
        actions = []
        while not state.is_terminal():
            action = bots[state.current_player].act(state)
            actions.append(int(action))
            state.apply(action)
        last_seat = splendor.new_game("base", players=2, seed=5)
        for a in actions[:-1]:
            last_seat.apply(a)
        mover = last_seat.current_player
        last = next(str(a) for a in last_seat.legal_actions() if int(a) == actions[-1])
        made = api(
            base,
            "POST",
            "/games/load",
            body={"start": start, "actions": actions[:-1], "ai_seats": [], "bot": "greedy"},
        )
        link = next(s["link"] for s in made["seats"] if s["seat"] == mover)
        browser.get(base + link[link.index("#") :])
        idle(browser)
        assert not browser.find_element(By.ID, "review-start").is_displayed()
        click_legal(browser, last)
        WebDriverWait(browser, 30).until(over)
        button = browser.find_element(By.ID, "review-start")
        assert button.is_displayed() and button.text == "Review"
        browser.execute_script(RECORD_REVIEW_STATUS)
        button.click()
        chart = WebDriverWait(browser, 180).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, "#review-chart svg")
        )[0]
        seen = browser.execute_script("return window.__reviewStatus")
        progress = [t for t in seen if t.startswith("Reviewing: ")]
        assert progress, seen
        assert any(not t.startswith("Reviewing: 0 of") for t in progress), seen
        assert len(chart.find_elements(By.CSS_SELECTOR, "polyline")) == 2
        review = api(base, "GET", f"/games/{made['game_id']}/review", link_token(link))["review"]
        # The seat's worst decision (a random player's: a marked point, not the AI's move).
        d = review["decisions"][review["seats"][1]["worst"][0]]
        assert d["grade"] != "best" and d["loss"] > 0 and d["seat"] == 1
        point = chart.find_element(By.CSS_SELECTOR, f'[data-decision="{d["index"]}"]')
        browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click'))", point)
        WebDriverWait(browser, 30).until(
            lambda b: (
                b.find_element(By.ID, "review-detail").get_attribute("data-decision")
                == str(d["index"])
            )
        )
        label = browser.find_element(By.ID, "replay-label").text
        assert label.startswith(f"move {d['index']} of {len(actions)}"), label
        assert browser.find_element(By.ID, "replay-step").get_attribute("value") == str(d["index"])
        board = browser.find_element(By.ID, "board")
        WebDriverWait(browser, 10).until(
            lambda _: board.find_elements(By.CSS_SELECTOR, ".preferred")
        )
        assert board.find_elements(By.CSS_SELECTOR, ".last")
        detail = browser.find_element(By.ID, "review-detail").text
        assert f"Played {d['played']}" in detail and d["played_says"] in detail
        assert f"The AI prefers {d['preferred']}" in detail and d["preferred_says"] in detail
        # The docs' picture: the board at that decision, the chart and the words under it.
        shot = SHOTS / "review-base-desktop.png"
        shot.parent.mkdir(parents=True, exist_ok=True)
        browser.set_window_size(1500, 1900)
        try:
            time.sleep(0.5)  # the layout follows the window
            browser.save_screenshot(str(shot))
        finally:
            browser.set_window_size(1500, 1250)
        keep_small(shot, DOC_IMAGES / "review-web.png")
    finally:
        srv.should_exit = True
        thread.join(10)


# ---- what each move did, the scores, the end (issue 37, items 4 and 5; issue 39's small ones) ---

# No `1 cards`, `1 points`, `1 tokens`, `1 crowns` anywhere in the page (the board included).
PLURAL_SLIP = re.compile(r"(?<![\d.])1 (cards|points|tokens|crowns|seats)\b")


def page_words(driver: WebDriver) -> str:
    """Every word of the page: its text and the board's titles."""
    return str(
        driver.execute_script(
            "return document.body.innerText + '\\n' + document.getElementById('board').textContent"
        )
    )


def test_each_move_is_said_and_each_seat_scored(server: str, browser: WebDriver) -> None:
    """Every log line and the last move say what the decision did (as text); the seat strip
    shows each seat's points large, its cards and tokens, as the snapshot says; a tap on the
    gold token says how gold comes; a card one may reserve but not buy says what it lacks;
    one card is `1 card`."""
    start_table(browser, server, "base", 2, [1], strength="greedy", seed=4)
    idle(browser)
    # Gold is never taken: a tap says how it comes (not the grammar of every move), and
    # nothing is picked.
    click_pick(browser, "token y")
    WebDriverWait(browser, 5).until(lambda d: "reserve" in message(d))
    assert message(browser).startswith("Gold is never taken from the bank")
    assert "expected one of" not in message(browser)
    assert not browser.find_element(By.ID, "selection-box").is_displayed()
    # No one can buy a level-3 card on the first turn: reserving it is offered, and what
    # the seat lacks to buy it is said, in colours.
    click_pick(browser, "3.1")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "inspect").is_displayed())
    lack = browser.find_element(By.CSS_SELECTOR, "#inspect p.lack").text
    assert re.search(r"you lack (\d+ (white|blue|green|red|black) ?)+ and hold 0 gold", lack), lack
    assert "you lack" in message(browser) and choice_texts(browser) == ["reserve 3.1"]
    press(browser, Keys.ESCAPE)

    rng = random.Random(4)
    for _ in range(40):
        play_one(browser, "base", rng)
        idle(browser)
        scores = browser.execute_script("return splendor.game.scores")
        if step_count(browser) >= 6 and any(s["cards"] == 1 for s in scores):
            break
    game = browser.execute_script("return splendor.game")
    # The log: one line a decision, its words from the server, as text (no markup).
    items = browser.find_elements(By.CSS_SELECTOR, "#log li")
    assert len(items) == len(game["log"]) >= 6
    for item, entry in zip(items, game["log"], strict=True):
        says = item.find_elements(By.CSS_SELECTOR, ".says")
        assert entry["says"] and entry["says"] != entry["action"]
        assert says and says[0].text == entry["says"]
        assert not says[0].find_elements(By.CSS_SELECTOR, "*")
    assert browser.find_element(By.ID, "last-says").text.endswith(game["last"]["says"])
    # The seat strip: the points large (`8 / 15`), cards, tokens.
    cells = browser.find_elements(By.CSS_SELECTOR, "#seat-strip li")
    assert len(cells) == 2
    for cell, score in zip(cells, game["scores"], strict=True):
        big = cell.find_element(By.CSS_SELECTOR, ".points .score")
        assert big.text == str(score["points"])
        assert float(big.value_of_css_property("font-size").removesuffix("px")) >= 24
        assert cell.find_element(By.CSS_SELECTOR, ".goal").text == f"/ {score['target']}"
        card_words = f"{score['cards']} card" + ("" if score["cards"] == 1 else "s")
        assert card_words in cell.find_element(By.CSS_SELECTOR, ".more").text
    assert any(s["cards"] == 1 for s in game["scores"]), "no seat with one card to check"
    words = page_words(browser)
    assert "1 card" in words and not PLURAL_SLIP.search(words), PLURAL_SLIP.search(words)
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "base-says.png"))


def finished_table(base: str, variant: str = "base", seed: int = 12) -> dict[str, Any]:
    """A table whose human seat 0 played (the greedy AI's hint each time) against the greedy
    AI until the end: its answer to POST /games."""
    created: dict[str, Any] = api(
        base,
        "POST",
        "/games",
        body={"variant": variant, "players": 2, "seed": seed, "ai_seats": [1], "bot": "greedy"},
    )
    game, token = created["game_id"], created["seats"][0]["token"]
    deadline = time.time() + 180
    while True:
        assert time.time() < deadline, "the game did not end"
        snap = api(base, "GET", f"/games/{game}", token)
        if snap["result"]:
            return created
        if not snap["legal"]:
            time.sleep(0.05)
            continue
        hint = api(base, "POST", f"/games/{game}/hint", token, {"bot": "greedy"})
        api(
            base,
            "POST",
            f"/games/{game}/actions",
            token,
            {"action": hint["action_id"], "version": snap["version"]},
        )


def test_the_end_shows_the_standings_once(server: str) -> None:
    """A finished game shows its standings once (rank, seat, points, cards, how it was
    decided), on a desktop and on a phone, with Review and Save; undo and hint are disabled;
    the board's own line of the result is left out; nothing says `16/15`."""
    created = finished_table(server)
    link = str(created["seats"][0]["link"])  # absolute, as the server makes it
    SHOTS.mkdir(parents=True, exist_ok=True)
    DOC_IMAGES.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        driver = new_driver(width, height)
        try:
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": width,
                    "height": height,
                    "deviceScaleFactor": 1,
                    "mobile": size == "phone",
                },
            )
            driver.get(link)
            WebDriverWait(driver, 30).until(over)
            game = driver.execute_script("return splendor.game")
            result = game["result"]
            rows = driver.find_elements(By.CSS_SELECTOR, "#standings tbody tr")
            cells = [[td.text for td in r.find_elements(By.TAG_NAME, "td")] for r in rows]
            assert cells == [
                [str(s["rank"]), seat_words(s["seat"], 0, [1]), str(s["points"]), str(s["cards"])]
                for s in result["standings"]
            ]
            title = driver.find_element(By.ID, "result-title").text
            winners = result["winners"]
            assert title == (
                "Game over: you win."
                if winners == [0]
                else f"Game over: {' and '.join(seat_words(w, 0, [1]) for w in winners)} "
                + ("wins." if len(winners) == 1 else "share the win.")
            )
            decided = driver.find_element(By.ID, "decided-by").text
            assert decided == f"Decided by: {result['decided_by']}."
            # Once: not in the message, not in the board's header; the status line says only
            # that the game is over.
            text = str(driver.execute_script("return document.body.innerText"))
            winner = title.removeprefix("Game over: ")
            assert text.count(winner) == 1, text
            assert not driver.find_element(By.ID, "message").is_displayed()
            assert not driver.find_element(By.ID, "choices-box").is_displayed()
            status = driver.find_element(By.CSS_SELECTOR, '#board text[data-role="status"]')
            assert not status.is_displayed()
            assert driver.find_element(By.ID, "turn").text == "Game over."
            # Undo and hint are off, and say why; Review, Play again and Save are under the
            # standings (the review itself: test_review_a_finished_game_and_jump_to_a_mistake).
            for name in ("undo", "hint"):
                button = driver.find_element(By.ID, name)
                assert (
                    not button.is_enabled() and button.get_attribute("title") == "The game is over."
                )
            tools = driver.find_element(By.CSS_SELECTOR, "#result .tools")
            shown_tools = [
                b.text for b in tools.find_elements(By.TAG_NAME, "button") if b.is_displayed()
            ]
            assert shown_tools == ["Review", "Play again", "Save"]
            assert driver.find_element(By.ID, "result-save").is_displayed()
            assert not driver.find_element(By.ID, "save").is_displayed()
            # A score past the target is the real score, with the target beside it.
            words = page_words(driver)
            assert not re.search(r"\b(1[6-9]|2\d)/15\b", words) and not PLURAL_SLIP.search(words)
            best = max(s["points"] for s in game["scores"])
            if best > 15:
                assert f"points {best} (target 15)" in words
            if best >= 15:
                assert "✓ 15 to win" in words
            driver.execute_script("document.getElementById('result').scrollIntoView()")
            name = f"web-standings-{size}.png"
            driver.save_screenshot(str(SHOTS / name))
            keep_small(SHOTS / name, DOC_IMAGES / name)
        finally:
            driver.quit()


def test_a_mid_game_log_in_pictures(server: str) -> None:
    """The log of a game in play, each line with what it did, at a desktop's size and a
    phone's (the pictures of docs/web.md); on a phone, Esc leaves no empty box."""
    link = mid_game(server, "base", random.Random(7))
    for size, (width, height) in SIZES.items():
        driver = new_driver(width, height)
        try:
            driver.execute_cdp_cmd(
                "Emulation.setDeviceMetricsOverride",
                {
                    "width": width,
                    "height": height,
                    "deviceScaleFactor": 1,
                    "mobile": size == "phone",
                },
            )
            driver.execute_cdp_cmd(
                "Emulation.setEmulatedMedia",
                {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]},
            )
            driver.get(link)
            idle(driver)
            if size == "phone":
                # Esc clears the picks and the message: no empty box is left in the prompt.
                click_pick(driver, "token w")
                WebDriverWait(driver, 5).until(
                    lambda d: d.find_element(By.ID, "selection-box").is_displayed()
                )
                press(driver, Keys.ESCAPE)
                WebDriverWait(driver, 5).until(
                    lambda d: not d.find_element(By.ID, "selection-box").is_displayed()
                )
                for box in ("message", "inspect", "selection-box"):
                    assert not driver.find_element(By.ID, box).is_displayed(), box
            assert len(driver.find_elements(By.CSS_SELECTOR, "#log li .says")) >= 8
            overflow = driver.execute_script(
                "return document.documentElement.scrollWidth - window.innerWidth"
            )
            assert overflow <= 0, f"the page is wider than the {width} px window"
            driver.execute_script(
                "const log = document.getElementById('log');"
                " log.closest('section').scrollIntoView({block: 'center'});"
                " log.scrollTop = log.scrollHeight;"
            )
            name = f"web-log-{size}.png"
            driver.save_screenshot(str(SHOTS / name))
            keep_small(SHOTS / name, DOC_IMAGES / name)
        finally:
            driver.quit()


# Recorded by the test: each sound the page makes and each notification it shows, with
# whether it was the page's seat's turn then; a browser whose notifications are allowed and
# whose page is not in focus (another tab's).
ALERTS = """
window.__beeps = [];
window.__notes = [];
window.__asked = 0;
window.__titles = [];
const mineNow = () => !!(window.splendor && window.splendor.game
  && window.splendor.game.current === window.splendor.game.seat && !window.splendor.game.result);
const realOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__beeps.push(mineNow());
  return realOscillator.call(this);
};
class FakeNotification {
  // Kept for the tab, as a browser keeps a site's permission.
  static get permission() { return sessionStorage.getItem("fake-permission") || "default"; }
  static async requestPermission() {
    window.__asked += 1;
    sessionStorage.setItem("fake-permission", "granted");
    return "granted";
  }
  constructor(title, options) { window.__notes.push([title, mineNow()]); }
  close() {}
}
window.Notification = FakeNotification;
document.hasFocus = () => false;
const realTitle = Object.getOwnPropertyDescriptor(Document.prototype, "title");
Object.defineProperty(document, "title", {
  get() { return realTitle.get.call(this); },
  set(v) { window.__titles.push([v, mineNow()]); realTitle.set.call(this, v); },
});
"""


def test_your_turn_in_the_title_and_alerts_off_until_turned_on(server: str) -> None:
    """The tab's title says when it is the seat's turn; the sound and the notification are
    off by default (nothing plays, nothing is asked), then, once turned on, come each time
    the turn comes back, never on the AI's turn, and stay on after a reload."""
    driver = new_driver()
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ALERTS})
    try:
        start_table(driver, server, "base", 2, [1], strength="greedy", seed=8)
        idle(driver)
        assert driver.title == "● Your turn — splendor"
        assert not driver.find_element(By.ID, "alert-sound").is_selected()
        assert not driver.find_element(By.ID, "alert-notify").is_selected()
        rng = random.Random(8)
        for _ in range(2):
            play_one(driver, "base", rng)
            idle(driver)
            assert driver.title == "● Your turn — splendor"
        # The title said "your turn" exactly while it was: never on the AI's turn.
        titles = driver.execute_script("return window.__titles")
        assert any(not mine for _, mine in titles) and any(mine for _, mine in titles)
        assert all((title == "● Your turn — splendor") == mine for title, mine in titles), titles
        assert driver.execute_script("return [window.__beeps, window.__notes, window.__asked]") == [
            [],
            [],
            0,
        ]
        assert driver.execute_script("return localStorage.length") == 0
        # Turned on: the sound plays once to be heard, the browser is asked once.
        driver.find_element(By.CSS_SELECTOR, "#alerts summary").click()
        driver.find_element(By.ID, "alert-sound").click()
        driver.find_element(By.ID, "alert-notify").click()
        WebDriverWait(driver, 5).until(lambda d: d.execute_script("return window.__asked") == 1)
        assert driver.find_element(By.ID, "alert-notify").is_selected()
        preview = len(driver.execute_script("return window.__beeps"))
        assert preview > 0
        since = step_count(driver)

        def turns_back(d: WebDriver) -> int:
            """The times the turn came back to seat 0 from the AI since the toggles."""
            log = d.execute_script("return splendor.game.log")
            seats = [e["seat"] for e in log] + [0]  # seat 0 is to play now (idle)
            return sum(1 for i in range(since, len(log)) if seats[i] == 1 and seats[i + 1] == 0)

        for _ in range(15):
            play_one(driver, "base", rng)
            idle(driver)
            if over(driver) or turns_back(driver) >= 3:
                break
        back = turns_back(driver)
        assert back >= 2
        beeps = driver.execute_script("return window.__beeps")
        notes = driver.execute_script("return window.__notes")
        # Once a turn that came back (a return of tokens, the seat's own, alerts nothing).
        assert all(beeps) and len(beeps) == preview * (back + 1), beeps
        assert len(notes) == back and all(mine for _, mine in notes), notes
        assert {title for title, _ in notes} == {"Your turn — splendor"}
        # Remembered: after a reload both are still on, and nothing fired on opening.
        driver.refresh()
        idle(driver)
        assert driver.find_element(By.ID, "alert-sound").is_selected()
        assert driver.find_element(By.ID, "alert-notify").is_selected()
        assert driver.execute_script("return [window.__beeps, window.__notes]") == [[], []]
    finally:
        driver.quit()
