"""The page in a real browser: headless Chromium plays a whole game of each variant by clicking.

Needs Debian's ``chromium`` and ``chromium-driver`` (``apt-get install -y chromium
chromium-driver``); run with ``python -m pytest -m browser tests/test_browser.py``
(``.ci/run`` does). Screenshots go to ``$SPLENDOR_SCREENSHOTS`` (default
``target/screenshots``). Every response the page receives is recorded in the browser
and checked afterwards: no card hidden from the human's seat ever reached it.
"""

from __future__ import annotations

import html
import json
import os
import random
import re
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait
from splendor import render
from splendor.render.svg import _card_title
from splendor.web import ServerLimits, create_app

pytestmark = pytest.mark.browser

SHOTS = Path(os.environ.get("SPLENDOR_SCREENSHOTS", "target/screenshots"))
# Recorded in the page by the test (not by the page's own code): every API response's text.
RECORD = """
window.__responses = [];
const realFetch = window.fetch;
window.fetch = async (...args) => {
  const response = await realFetch(...args);
  response.clone().text().then((t) => window.__responses.push(t));
  return response;
};
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
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
    yield f"http://127.0.0.1:{port}/", app
    srv.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1500,1250"):
        options.add_argument(arg)
    driver = webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD})
    yield driver
    driver.quit()


def idle(driver: WebDriver) -> None:
    """Wait until the AI has finished and the page waits for the human (or the game is over)."""

    def ready(d: WebDriver) -> bool:
        thinking = "thinking" in (d.find_element(By.ID, "message").get_attribute("class") or "")
        over = d.find_element(By.ID, "result").is_displayed()
        mine = bool(d.find_elements(By.CSS_SELECTOR, "#legal button"))
        return not thinking and (over or mine)

    WebDriverWait(driver, 60, poll_frequency=0.05).until(ready)


def legal_texts(driver: WebDriver) -> list[str]:
    return [
        str(b.get_attribute("textContent"))
        for b in driver.find_elements(By.CSS_SELECTOR, "#legal button")
    ]


def click_pick(driver: WebDriver, pick: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f'#board [data-pick="{pick}"]').click()


def click_choice(driver: WebDriver, text: str) -> None:
    for b in driver.find_elements(By.CSS_SELECTOR, "#choices button"):
        if b.text == text:
            b.click()
            return
    raise AssertionError(f"no choice {text!r} among {legal_texts(driver)}")


def step_count(driver: WebDriver) -> int:
    return len(driver.find_elements(By.CSS_SELECTOR, "#log li"))


def click_legal(driver: WebDriver, text: str) -> None:
    """A move that is no place on the board (Duel: a privilege, a gold): the full list."""
    details = driver.find_elements(By.CSS_SELECTOR, "details")[0]
    if not details.get_attribute("open"):
        details.find_element(By.TAG_NAME, "summary").click()
    for b in driver.find_elements(By.CSS_SELECTOR, "#legal button"):
        if b.text == text:
            b.click()
            return
    raise AssertionError(f"no legal move {text!r}")


def message_is_error(driver: WebDriver) -> bool:
    return "error" in (driver.find_element(By.ID, "message").get_attribute("class") or "")


def human_move(driver: WebDriver, variant: str, rng: random.Random) -> str:
    """One decision made by clicking the board (the choice panel for the rules' small choices)."""
    WebDriverWait(driver, 60, poll_frequency=0.05).until(
        lambda d: legal_texts(d) or d.find_element(By.ID, "result").is_displayed()
    )
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

    # One action names that place: it is played. Several (buy or reserve it): the page asks.
    def settled(d: WebDriver) -> bool:
        asked = [b.text for b in d.find_elements(By.CSS_SELECTOR, "#choices button")]
        return step_count(d) > before or choice in asked or message_is_error(d)

    WebDriverWait(driver, 30, poll_frequency=0.05).until(settled)
    if step_count(driver) == before and not message_is_error(driver):
        click_choice(driver, choice)
    return choice


def hidden_titles(app: Any, game_id: str, seat: int) -> set[str]:
    """Faces of the cards the seat cannot see now (decks, others' blind reserves), minus any
    face that a visible card shares (those would prove nothing)."""
    state = app.state.store.get(game_id).state
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


@pytest.mark.parametrize(
    ("variant", "players", "ai_seats"),
    [("base", 2, [1]), ("duel", 2, [1]), ("marvel", 3, [1, 2])],
)
def test_play_a_whole_game_by_clicking(
    server: tuple[str, Any], browser: WebDriver, variant: str, players: int, ai_seats: list[int]
) -> None:
    url, app = server
    SHOTS.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    browser.get(url)
    idle(browser)
    Select(browser.find_element(By.ID, "variant")).select_by_value(variant)
    Select(browser.find_element(By.ID, "players")).select_by_value(str(players))
    for seat in range(players):
        box = browser.find_element(By.ID, f"ai-seat-{seat}")
        if box.is_selected() != (seat in ai_seats):
            box.click()
    Select(browser.find_element(By.ID, "strength")).select_by_value("mcts:200")
    browser.find_element(By.ID, "seed").send_keys("7")
    browser.find_element(By.ID, "new").click()
    WebDriverWait(browser, 30).until(
        lambda d: (
            "New game" in d.find_element(By.ID, "message").text
            or d.find_elements(By.CSS_SELECTOR, "#log li")
        )
    )
    idle(browser)
    game_id = browser.execute_script("return game.game_id")
    browser.save_screenshot(str(SHOTS / f"{variant}-start.png"))

    # An illegal pick is explained, and changes nothing.
    before = step_count(browser)
    picks = {"base": ["token y"], "marvel": ["token s"], "duel": ["cell a1", "cell e5"]}[variant]
    for pick in picks:
        click_pick(browser, pick)
    tried = "take " + ("a1 e5" if variant == "duel" else picks[0][-1])
    click_choice(browser, tried)
    WebDriverWait(browser, 10).until(message_is_error)
    explained = browser.find_element(By.ID, "message").text
    assert tried in explained and len(explained) > len(tried) + 10
    assert step_count(browser) == before
    browser.save_screenshot(str(SHOTS / f"{variant}-illegal.png"))
    browser.find_element(By.ID, "clear").click()

    # A hint shows the AI's choice with its win estimate and the moves it considered.
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 30).until(lambda d: "Hint:" in d.find_element(By.ID, "message").text)
    assert browser.find_elements(By.CSS_SELECTOR, "#ai table tr")

    rng = random.Random(variant)
    decisions = 0
    undone = False
    revealed_before_undo = 0
    while not browser.find_element(By.ID, "result").is_displayed():
        before = step_count(browser)
        try:
            human_move(browser, variant, rng)
        except StaleElementReferenceException:
            continue

        def moved(d: WebDriver, n: int = before) -> bool:
            return (
                step_count(d) > n
                or message_is_error(d)
                or d.find_element(By.ID, "result").is_displayed()
            )

        WebDriverWait(browser, 60, poll_frequency=0.05).until(moved)
        assert not message_is_error(browser), browser.find_element(By.ID, "message").text
        idle(browser)
        decisions += 1
        if decisions == 3 and not undone:
            # What the taken-back moves revealed was seen: it no longer counts as hidden.
            revealed_before_undo = browser.execute_script("return window.__responses.length")
            browser.find_element(By.ID, "undo").click()
            WebDriverWait(browser, 10).until(
                lambda d: "taken back" in d.find_element(By.ID, "message").text
            )
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
    secret = hidden_titles(app, game_id, human)
    assert secret, "some cards are still hidden at the end"
    responses: list[str] = browser.execute_script("return window.__responses")
    seen_before_undo: set[str] = set()
    for text in responses[:revealed_before_undo]:
        seen_before_undo |= {html.unescape(t).strip() for t in TITLE.findall(text)}
    secret -= seen_before_undo
    shown: set[str] = set()
    for text in [*responses[revealed_before_undo:], browser.page_source]:
        shown |= {html.unescape(t).strip() for t in TITLE.findall(text)}
        if text.startswith("{"):
            body = json.loads(text)
            view = body.get("view")
            if isinstance(view, dict):
                assert view["decks"] is None and view["viewer"] == human
    assert shown, "the page showed card faces"
    assert not (secret & shown), f"hidden cards reached the page: {sorted(secret & shown)[:3]}"
    print(f"{variant}: {decisions} clicks-decisions, {elapsed:.1f} s, result: {result}")


def test_a_click_on_a_card_shows_it_and_asks(server: tuple[str, Any], browser: WebDriver) -> None:
    """A card click plays nothing: the card is shown with its legal moves as buttons. New
    seats are the AI's and say so; the board names the AI's seats."""
    url, _ = server
    browser.get(url)
    idle(browser)
    Select(browser.find_element(By.ID, "variant")).select_by_value("base")
    Select(browser.find_element(By.ID, "players")).select_by_value("2")
    Select(browser.find_element(By.ID, "players")).select_by_value("3")
    roles = [label.text for label in browser.find_elements(By.CSS_SELECTOR, "#seats label")]
    assert roles == ["seat 0: human", "seat 1: AI", "seat 2: AI"]
    assert browser.find_element(By.ID, "ai-seat-2").is_selected()
    browser.find_element(By.ID, "ai-seat-2").click()
    assert browser.find_elements(By.CSS_SELECTOR, "#seats label")[2].text == "seat 2: human"
    Select(browser.find_element(By.ID, "players")).select_by_value("2")
    Select(browser.find_element(By.ID, "strength")).select_by_value("greedy")
    browser.find_element(By.ID, "seed").send_keys("7")
    browser.find_element(By.ID, "new").click()
    WebDriverWait(browser, 30).until(lambda d: "New game" in d.find_element(By.ID, "message").text)
    idle(browser)
    board = str(browser.find_element(By.ID, "board").get_attribute("textContent"))
    assert "seat 1 (AI)" in board and "seat 0 (you)" in board
    # No one can afford a level 3 card on the first turn: a click shows it, plays nothing.
    before = step_count(browser)
    click_pick(browser, "3.1")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "inspect").is_displayed())
    assert step_count(browser) == before
    inspect = browser.find_element(By.ID, "inspect")
    assert inspect.find_elements(By.TAG_NAME, "svg")
    assert inspect.find_element(By.TAG_NAME, "p").text.startswith("3.1: level 3")
    asked = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#choices button")]
    assert asked == ["reserve 3.1"]
    SHOTS.mkdir(parents=True, exist_ok=True)
    browser.save_screenshot(str(SHOTS / "base-inspect.png"))
    click_choice(browser, "reserve 3.1")
    WebDriverWait(browser, 30).until(lambda d: step_count(d) > before)
    assert not message_is_error(browser)
    assert browser.execute_script("return game.log[0].action") == "reserve 3.1"
