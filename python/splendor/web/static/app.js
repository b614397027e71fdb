// The page: a table held by the server, seen from one seat (or as a spectator).
//
// The address says which: /#game=ID&token=T. The token stays in the fragment (browsers never
// send a fragment) and goes to the server only in the Authorization header. Without a game in
// the address, the page is the start screen.
//
// Clicks on the board name places (data-pick); they are matched against the legal actions'
// texts, and anything that matches none is sent as typed so the server explains why not. The
// page follows the game live: it reads the table's server-sent events with fetch (EventSource
// cannot send a header) and fetches its snapshot again on each change; a dropped stream is
// reopened with backoff (0.5 s doubling to 5 s).
"use strict";

const API = "/api/v1";
const PLAYERS = { base: [2, 3, 4], duel: [2], marvel: [2, 3, 4] };
const BUY = { base: "buy", duel: "buy", marvel: "recruit" };
const CELL = /^[a-e][1-5]$/;
const SVGNS = "http://www.w3.org/2000/svg";

let table = null;       // {id, token} from the address
let session = 0;        // bumped when the page opens another table: old loops stop
let game = null;        // the last snapshot
let picked = [];        // bank letters (base, Marvel) or board cells (Duel) clicked so far
let replayStep = null;  // the step shown while replaying, else null
let busy = false;       // a move, an undo or a hint is on its way
let lastSeen = null;    // index of the last decision already announced

const $ = (id) => document.getElementById(id);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = kind;
}

function headers() {
  return table ? { Authorization: `Bearer ${table.token}` } : {};
}

async function call(method, path, body) {
  const init = { method, headers: headers(), cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(API + path, init);
  } catch (_) {
    const error = new Error("The server cannot be reached; the page keeps trying.");
    error.code = "offline";
    throw error;
  }
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const error = new Error(data && data.error ? data.error.message : `${response.status} ${response.statusText}`);
    error.code = data && data.error ? data.error.code : "http_error";
    error.status = response.status;
    throw error;
  }
  return data;
}

// ---- the address --------------------------------------------------------------------------

function parseHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const id = params.get("game");
  const token = params.get("token");
  return id && token ? { id, token } : null;
}

let streamAbort = null; // closes the event stream of the table the page leaves

function route() {
  const next = parseHash();
  if (table && next && next.id === table.id && next.token === table.token) return;
  session += 1;
  if (streamAbort) streamAbort.abort();
  setConn("");
  table = next;
  game = null;
  picked = [];
  replayStep = null;
  lastSeen = null;
  $("start").hidden = table !== null;
  $("table").hidden = table === null;
  $("new-table").hidden = table === null;
  if (!table) {
    $("where").textContent = "";
    document.title = "splendor: a table for humans and AIs";
    return;
  }
  $("where").textContent = "";
  $("board").innerHTML = "";
  $("log").innerHTML = "";
  $("ai-move").textContent = "No AI move yet.";
  $("result").hidden = true;
  $("replay").hidden = true;
  say("Opening the table…");
  drawLinks();
  follow(session);
}

// ---- the start screen ---------------------------------------------------------------------

function fillPlayers() {
  const variant = $("variant").value;
  const select = $("players");
  const old = Number(select.value) || 2;
  select.innerHTML = "";
  for (const n of PLAYERS[variant]) {
    const option = new Option(String(n), String(n));
    option.selected = n === old;
    select.add(option);
  }
  fillSeats();
}

// One box per seat, ticked when the AI plays it, its role in words beside it. Seats that
// exist keep their role; a seat added by raising the player count is the AI's (seat 0 is
// yours), and says so.
function fillSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = new Map([...box.querySelectorAll("input")].map((i) => [Number(i.value), i.checked]));
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let s = 0; s < n; s++) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.value = String(s);
    input.id = `ai-seat-${s}`;
    input.checked = old.has(s) ? old.get(s) : s !== 0;
    const role = document.createElement("span");
    role.className = "role";
    label.append(input, " ", role);
    input.addEventListener("change", () => seatRole(label));
    seatRole(label);
    box.append(label);
  }
}

function seatRole(label) {
  const input = label.querySelector("input");
  label.querySelector(".role").textContent = `seat ${input.value}: ${input.checked ? "AI" : "human"}`;
  label.classList.toggle("ai", input.checked);
}

function botSpec() {
  const choice = $("strength").value;
  return choice === "custom" ? $("custom-bot").value.trim() : choice;
}

async function newTable(event) {
  event.preventDefault();
  const aiSeats = [...$("seats").querySelectorAll("input:checked")].map((i) => Number(i.value));
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  const message = $("start-message");
  message.className = "";
  message.textContent = "Dealing…";
  try {
    const created = await call("POST", "/games", {
      variant: $("variant").value,
      players: Number($("players").value),
      seed,
      ai_seats: aiSeats,
      bot: botSpec(),
    });
    message.textContent = "";
    enter(created);
  } catch (error) {
    message.textContent = error.message;
    message.className = "error";
  }
}

// A new (or loaded) table: its links are kept for this tab, and the page goes to the first
// human seat (the spectators' link when the AI plays every seat).
function enter(created) {
  try {
    sessionStorage.setItem(`splendor-table-${created.game_id}`, JSON.stringify(created));
  } catch (_) {
    // no storage (private mode): the links are shown once, on this page only
  }
  pendingLinks = created;
  const first = created.seats.find((s) => s.role === "human" && s.link);
  const link = first ? first.link : created.spectator.link;
  location.hash = link.slice(link.indexOf("#"));
  $("links-box").open = true;
}

let pendingLinks = null;

function linksOf(id) {
  if (pendingLinks && pendingLinks.game_id === id) return pendingLinks;
  try {
    const kept = sessionStorage.getItem(`splendor-table-${id}`);
    return kept ? JSON.parse(kept) : null;
  } catch (_) {
    return null;
  }
}

function drawLinks() {
  const box = $("links");
  box.innerHTML = "";
  const created = linksOf(table.id);
  if (!created) {
    $("links-box").hidden = true;
    return;
  }
  $("links-box").hidden = false;
  const rows = created.seats.map((s) => ({
    label: s.role === "human" ? `seat ${s.seat} (human)` : `seat ${s.seat}: the AI plays it`,
    link: s.link,
    seat: s.seat,
  }));
  rows.push({ label: "spectators", link: created.spectator.link, seat: null });
  for (const row of rows) {
    const line = document.createElement("div");
    line.className = "link";
    const name = document.createElement("span");
    name.textContent = row.label + (row.link && sameLink(row.link) ? " — this page" : "");
    line.append(name);
    if (row.link) {
      const input = document.createElement("input");
      input.readOnly = true;
      input.value = new URL(row.link, location.origin).href;
      input.setAttribute("aria-label", `link of ${row.label}`);
      input.dataset.seat = row.seat === null ? "spectator" : String(row.seat);
      const copy = document.createElement("button");
      copy.type = "button";
      copy.textContent = "Copy";
      copy.addEventListener("click", () => copyLink(input, copy));
      line.append(input, copy);
    }
    box.append(line);
  }
}

function sameLink(link) {
  const params = new URLSearchParams(link.slice(link.indexOf("#") + 1));
  return params.get("game") === table.id && params.get("token") === table.token;
}

async function copyLink(input, button) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch (_) {
    input.select();
    document.execCommand("copy");
  }
  button.textContent = "Copied";
  setTimeout(() => { button.textContent = "Copy"; }, 1500);
}

// ---- following the table live -------------------------------------------------------------

function setConn(text, kind = "") {
  $("conn").textContent = text;
  $("conn").className = kind;
}

// The table's event stream, read with fetch; each event names the game's version, and a new
// version means a new snapshot. A dropped stream (a network hiccup, a server restart) is
// reopened with backoff, and the snapshot fetched again once it is back.
async function follow(mine) {
  let delay = 500;
  let failures = 0;
  while (mine === session) {
    const abort = new AbortController();
    streamAbort = abort;
    let watchdog = null;
    const rearm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => abort.abort(), 45000); // keepalives come every 15 s
    };
    try {
      const response = await fetch(`${API}/games/${encodeURIComponent(table.id)}/events`, {
        headers: headers(),
        cache: "no-store",
        signal: abort.signal,
      });
      if (mine !== session) {
        abort.abort();
        return;
      }
      if (!response.ok) {
        let data = null;
        try { data = await response.json(); } catch (_) { data = null; }
        const text = data && data.error ? data.error.message : `${response.status} ${response.statusText}`;
        if ([401, 403, 404].includes(response.status)) {
          setConn("", "");
          say(`This link does not open a table here: ${text}`, "error");
          $("turn").textContent = "";
          return;
        }
        throw new Error(text);
      }
      delay = 500;
      if (failures) setConn("connected again", "up");
      failures = 0;
      refresh();
      rearm();
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done || mine !== session) break;
        rearm();
        buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          onEvent(block);
        }
      }
    } catch (_) {
      // dropped: reconnect below
    } finally {
      clearTimeout(watchdog);
    }
    if (mine !== session) return;
    failures += 1;
    setConn(`connection lost: reconnecting… (attempt ${failures})`, "down");
    await sleep(delay);
    delay = Math.min(5000, delay * 2);
  }
}

function onEvent(block) {
  let data = "";
  let kind = "message";
  for (const line of block.split("\n")) {
    if (line.startsWith(":")) continue; // a keepalive
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") kind = value;
    else if (field === "data") data += (data ? "\n" : "") + value;
  }
  if (!data || (kind !== "game" && kind !== "message")) return;
  let info = null;
  try { info = JSON.parse(data); } catch (_) { info = null; }
  if (!game || !info || info.version !== game.version) refresh();
}

let fetching = false;
let again = false;

// One snapshot request at a time; events that come meanwhile ask for one more afterwards
// (for the table shown then, should the page have moved to another one meanwhile).
async function refresh() {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    do {
      again = false;
      if (!table) break;
      const mine = session;
      const snapshot = await call("GET", `/games/${encodeURIComponent(table.id)}`);
      if (mine === session) accept(snapshot);
    } while (again);
  } catch (error) {
    if (error.code !== "offline") say(error.message, "error");
  } finally {
    fetching = false;
  }
}

// A snapshot is drawn when it is newer than the one shown (answers can cross on the way).
function accept(snapshot) {
  if (game && snapshot.game_id === game.game_id && (snapshot.version ?? 0) <= (game.version ?? 0)) return false;
  const first = game === null;
  show(snapshot);
  announce(first);
  return true;
}

// ---- drawing ------------------------------------------------------------------------------

function mySeat(snapshot = game) {
  if (!snapshot) return null;
  if (snapshot.seat !== undefined) return snapshot.seat;
  return snapshot.viewer ?? null;
}

function roleOf(seat) {
  if (game.seats) {
    const s = game.seats.find((x) => x.seat === seat);
    if (s) return s.role;
  }
  return game.ai_seats.includes(seat) ? "ai" : "human";
}

function who(seat) {
  if (seat === mySeat()) return `seat ${seat} (you)`;
  return roleOf(seat) === "ai" ? `seat ${seat} (AI)` : `seat ${seat} (human)`;
}

function show(snapshot) {
  const focused = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("#board [data-pick]") : null;
  const refocus = focused ? focused.dataset.pick : null;
  game = snapshot;
  picked = [];
  replayStep = null;
  drawBoard(snapshot.svg);
  if (refocus) {
    const back = findPick(refocus);
    if (back) back.focus();
  }
  $("text").textContent = snapshot.text;
  const seat = mySeat();
  const humans = (snapshot.seats || []).filter((s) => s.role === "human").length;
  $("undo").hidden = seat === null;
  $("hint").hidden = seat === null;
  $("undo").disabled = !snapshot.can_undo;
  $("hint").disabled = snapshot.legal.length === 0;
  $("save").hidden = !(snapshot.result || (seat !== null && humans <= 1));
  const variantName = { base: "Splendor", duel: "Splendor Duel", marvel: "Splendor: Marvel" }[snapshot.variant] || snapshot.variant;
  $("where").textContent = `${variantName}, ${snapshot.players} seats · ${seat === null ? "watching" : `you are seat ${seat}`}`;
  $("where").title = `table ${snapshot.game_id}`;
  const yours = !snapshot.result && seat !== null && snapshot.current === seat;
  document.title = `${yours ? "● your turn · " : ""}splendor: ${seat === null ? "watching" : `seat ${seat}`}`;
  drawTurn();
  drawChoices();
  drawLegal();
  drawLog();
  drawAi();
  drawResult();
  drawSelection();
}

// The board as the server drew it, its places made keyboard-reachable, and the last move
// marked (the render gives its places class="last"; the page rings and animates them).
function drawBoard(svg) {
  boardSvg = svg;
  const board = $("board");
  board.innerHTML = svg;
  const main = board.querySelector("svg");
  if (main && PHONE.matches) splitForPhone(main);
  for (const g of board.querySelectorAll("[data-pick]")) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    const title = g.querySelector("title");
    g.setAttribute("aria-label", title ? title.textContent : g.dataset.pick);
    g.addEventListener("focus", () => ring(g, "focus-ring", true));
    g.addEventListener("blur", () => clearRings("focus-ring"));
  }
  for (const g of board.querySelectorAll(".last")) ring(g, "last-ring");
}

// On a phone the board is drawn in two parts, one above the other: the table (bank, nobles,
// cards) and the seats' panels, each as wide as the screen (the one wide picture would be
// drawn at a third of its size). The places move, nothing is copied: one of each stays.
const PHONE = window.matchMedia("(max-width: 700px)");
let boardSvg = "";

function unionBox(elements) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const el of elements) {
    let b;
    try {
      b = el.getBBox();
    } catch (_) {
      continue;
    }
    if (!b.width && !b.height) continue;
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width);
    y1 = Math.max(y1, b.y + b.height);
  }
  return x1 > x0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

function splitForPhone(main) {
  const seats = [...main.children].filter((c) => c.classList.contains("seat"));
  const places = [...main.children].filter((c) => !c.classList.contains("seat")
    && (c.hasAttribute("data-pick") || c.hasAttribute("data-key")));
  const seatBox = unionBox(seats);
  const placeBox = unionBox(places);
  if (!seatBox || !placeBox) return;
  const side = document.createElementNS(SVGNS, "svg");
  side.setAttribute("class", "seats");
  side.setAttribute("role", "img");
  side.setAttribute("aria-label", "the seats");
  side.setAttribute("font-family", main.getAttribute("font-family") || "sans-serif");
  const defs = main.querySelector("defs");
  if (defs) side.append(defs.cloneNode(true));
  for (const g of seats) side.append(g);
  const pad = 8;
  side.setAttribute("viewBox", `${seatBox.x - pad} ${seatBox.y - pad} ${seatBox.width + 2 * pad} ${seatBox.height + 2 * pad}`);
  main.setAttribute("viewBox", `0 0 ${placeBox.x + placeBox.width + pad} ${placeBox.y + placeBox.height + pad}`);
  main.removeAttribute("width");
  main.removeAttribute("height");
  main.classList.add("main");
  main.after(side);
}

PHONE.addEventListener("change", () => {
  if (!boardSvg) return;
  drawBoard(boardSvg);
  if (game && replayStep === null) drawSelection();
});

// A rectangle drawn over a place of the board (whatever shapes it is made of).
function ring(target, kind, only = false) {
  const svg = target.ownerSVGElement || target.closest("svg");
  if (!svg || typeof target.getBBox !== "function") return;
  if (only) clearRings(kind);
  let box;
  try {
    box = target.getBBox();
  } catch (_) {
    return;
  }
  if (!box.width && !box.height) return;
  const toRoot = svg.getScreenCTM() && target.getScreenCTM()
    ? svg.getScreenCTM().inverse().multiply(target.getScreenCTM()) : null;
  const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height], [box.x + box.width, box.y + box.height]]
    .map(([x, y]) => (toRoot ? new DOMPoint(x, y).matrixTransform(toRoot) : { x, y }));
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  const pad = 4;
  const rect = document.createElementNS(SVGNS, "rect");
  rect.setAttribute("class", `ring ${kind}`);
  rect.setAttribute("x", String(Math.min(...xs) - pad));
  rect.setAttribute("y", String(Math.min(...ys) - pad));
  rect.setAttribute("width", String(Math.max(...xs) - Math.min(...xs) + 2 * pad));
  rect.setAttribute("height", String(Math.max(...ys) - Math.min(...ys) + 2 * pad));
  rect.setAttribute("rx", "8");
  rect.setAttribute("aria-hidden", "true");
  svg.append(rect);
}

function clearRings(kind) {
  document.querySelectorAll(`#board .ring.${kind}`).forEach((r) => r.remove());
}

function drawTurn() {
  const turn = $("turn");
  const seat = mySeat();
  let text;
  let state;
  if (game.result) {
    text = "Game over.";
    state = "over";
  } else if (game.current === seat && seat !== null) {
    text = "Your turn.";
    state = "you";
  } else if (game.thinking || roleOf(game.current) === "ai") {
    text = `The AI (seat ${game.current}) is thinking…`;
    state = "thinking";
  } else {
    text = `Seat ${game.current} (human) to play.`;
    state = "other";
  }
  if (seat === null) text = `Watching. ${text}`;
  turn.textContent = text;
  turn.dataset.state = state;
  turn.className = state;
}

// After a change made by someone else (the AI, another person), say what it was.
function announce(first) {
  const last = game.last || null;
  const index = last ? last.index : (game.log.length ? game.log[game.log.length - 1].index : null);
  if (first) {
    lastSeen = index;
    if (!game.result) {
      say(game.legal.length ? "Your turn: click the board (or use the keyboard)."
        : mySeat() === null ? "You are watching: the board shows what every player sees." : "");
    }
    else say($("result").textContent);
    return;
  }
  if (index === lastSeen) return;
  lastSeen = index;
  if (game.result) {
    say($("result").textContent);
    return;
  }
  const entry = last || game.log[game.log.length - 1];
  if (entry && entry.seat !== mySeat()) say(`${who(entry.seat)} played ${entry.action}.`);
}

function drawLegal() {
  const box = $("legal");
  box.innerHTML = "";
  for (const a of game.legal) box.append(actionButton(a));
}

function actionButton(a, label) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label || a.text;
  button.dataset.action = String(a.id);
  button.addEventListener("click", () => play(a.id));
  return button;
}

// The small choices the rules ask for (payment, returns, nobles ...) are listed as buttons;
// in the main phase the board is the way to choose. The buttons are numbered for the keys.
function drawChoices(candidates) {
  const box = $("choices");
  box.innerHTML = "";
  $("inspect").hidden = true;
  document.querySelectorAll("#board .inspected").forEach((g) => g.classList.remove("inspected"));
  clearRings("inspect-ring");
  const phase = game.view && game.view.phase ? game.view.phase : "main";
  let list = candidates;
  if (!list) list = phase === "main" ? [] : game.legal;
  $("choices-title").textContent = candidates
    ? "Which one?"
    : game.result ? "Game over" : !game.legal.length ? "Waiting" : phase === "main" ? "Your choices" : `Choose (${phase})`;
  for (const a of list) box.append(actionButton(a));
  if (!candidates && !list.length && game.legal.length) {
    const p = document.createElement("p");
    p.textContent = "Click a card or a deck to see what you can do with it, or tokens to take them.";
    box.append(p);
  }
  // Main-phase extras that are not places on the board (Duel: replenish, pass).
  if (!candidates && phase === "main") {
    for (const a of game.legal) if (a.text === "replenish" || a.text === "pass") box.append(actionButton(a));
  }
  numberChoices();
}

function numberChoices() {
  [...$("choices").querySelectorAll("button")].forEach((b, i) => {
    if (i < 9) b.dataset.key = String(i + 1);
    else delete b.dataset.key;
  });
}

function drawLog() {
  const list = $("log");
  list.innerHTML = "";
  for (const e of game.log) {
    const item = document.createElement("li");
    const estimate = e.win_estimate === null || e.win_estimate === undefined ? "" : ` (win ${pct(e.win_estimate)})`;
    item.textContent = `${who(e.seat)}: ${e.action}${estimate}`;
    if (game.last && e.index === game.last.index) item.className = "last";
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function drawResult() {
  const box = $("result");
  if (!game.result) {
    box.hidden = true;
    $("replay").hidden = true;
    return;
  }
  const r = game.result;
  const names = r.winners.map(who);
  box.textContent = r.winners.length
    ? `Game over (${r.reason}): ${names.join(" and ")} ${r.winners.length > 1 ? "share the win" : "wins"}.`
    : `Game over (${r.reason}): no winner.`;
  box.hidden = false;
  const slider = $("replay-step");
  slider.max = String(game.step);
  slider.value = String(game.step);
  $("replay-label").textContent = `move ${game.step} of ${game.step}`;
  $("replay").hidden = false;
}

function drawSelection() {
  $("selection-box").hidden = picked.length === 0;
  $("selection").textContent = picked.join(" ");
  document.querySelectorAll("#board .picked").forEach((g) => g.classList.remove("picked"));
  clearRings("picked-ring");
  for (const p of picked) {
    const pick = game.variant === "duel" ? `cell ${p}` : `token ${p}`;
    const g = findPick(pick);
    if (g) {
      g.classList.add("picked");
      ring(g, "picked-ring");
    }
  }
}

function findPick(pick) {
  return [...$("board").querySelectorAll("[data-pick]")].find((g) => g.dataset.pick === pick) || null;
}

function pct(x) {
  return `${Math.round(100 * x)}%`;
}

function moveTable(move, title) {
  const box = $("ai-move");
  box.innerHTML = "";
  const head = document.createElement("p");
  const estimate = move.win_estimate === null || move.win_estimate === undefined ? "" : `, win estimate ${pct(move.win_estimate)}`;
  const detail = move.bot ? ` (${move.bot}, ${move.elapsed.toFixed(2)} s` + (move.iterations ? `, ${move.iterations} iterations)` : ")") : "";
  head.textContent = `${title}: ${move.action}${estimate}${detail}`;
  box.append(head);
  if (move.considered && move.considered.length) {
    const tableEl = document.createElement("table");
    tableEl.innerHTML = "<tr><th>move considered</th><th>visits</th><th>win</th></tr>";
    for (const c of move.considered) {
      const row = tableEl.insertRow();
      row.insertCell().textContent = c.text;
      row.insertCell().textContent = String(c.visits);
      row.insertCell().textContent = pct(c.value);
    }
    box.append(tableEl);
  }
}

// The AI's latest move, from the log (the server plays the AI seats by itself).
function drawAi() {
  const entry = [...game.log].reverse().find((e) => e.by_ai);
  if (!entry) {
    $("ai-move").textContent = "No AI move yet.";
    return;
  }
  moveTable(entry, `The AI (seat ${entry.seat}) played`);
}

// ---- playing ------------------------------------------------------------------------------

function myTurn() {
  return game && !game.result && replayStep === null && game.legal.length > 0;
}

async function play(action) {
  if (busy || !myTurn()) return;
  busy = true;
  try {
    const body = { action };
    if (game.version !== undefined) body.version = game.version;
    const snapshot = await call("POST", `/games/${encodeURIComponent(table.id)}/actions`, body);
    const mine = snapshot.log.length ? snapshot.log[snapshot.log.length - 1] : null;
    // An answer older than what the event stream brought meanwhile is not drawn again.
    if (accept(snapshot)) lastSeen = snapshot.last ? snapshot.last.index : mine && mine.index;
    if (mine) say(game.result ? $("result").textContent : `You played ${mine.action}.`);
  } catch (error) {
    if (error.code === "game_changed") {
      say("The game changed before your move arrived: nothing was played; here it is now.", "error");
      refresh();
    } else {
      say(error.message, "error");
    }
  } finally {
    busy = false;
  }
}

function matches(a, pick) {
  const words = a.text.split(" ");
  return a.text === pick || words.slice(1).join(" ") === pick;
}

function takeParts(a) {
  const words = a.text.split(" ");
  if (game.variant === "duel") {
    const cells = words.slice(1);
    return cells.length && cells.every((c) => CELL.test(c)) ? cells : null;
  }
  return words[0] === "take" && words.length === 2 ? words[1].split("") : null;
}

function sameParts(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

function isCard(pick) {
  return /^[1-3]\.[1-5]$/.test(pick) || pick.startsWith("reserved ") || pick.startsWith("deck ");
}

function onPick(pick, target) {
  if (busy || replayStep !== null || !game) return;
  if (isCard(pick)) {
    inspect(pick, target, game.legal.filter((a) => matches(a, pick)));
    return;
  }
  if (!myTurn()) {
    if (game.result) say("The game is over.", "error");
    else if (mySeat() === null) say("Spectators watch: only the seats' links play.", "error");
    else say(`It is ${who(game.current)}'s turn, not yours.`, "error");
    return;
  }
  if (pick.startsWith("token ") || pick.startsWith("cell ")) {
    const part = pick.split(" ")[1];
    if (game.variant === "duel") {
      picked = picked.includes(part) ? picked.filter((p) => p !== part) : [...picked, part];
    } else {
      picked.push(part);
      if (picked.length > 3) picked = [part];
    }
    drawSelection();
    offerTakes();
    return;
  }
  const candidates = game.legal.filter((a) => matches(a, pick));
  if (candidates.length === 1) {
    play(candidates[0].id); // a noble, royal or location when the rules ask which
  } else if (candidates.length > 1) {
    drawChoices(candidates);
    say(`What to do with ${pick}?`);
  } else {
    play(pick); // nothing legal names it: the server explains why not
  }
}

// A click on a card (or a deck) never plays: it shows the card, larger, with what it is, and
// the moves that are legal with it as buttons. With none, one button asks the server why not.
function inspect(pick, target, candidates) {
  drawChoices(candidates);
  const box = $("inspect");
  box.innerHTML = "";
  if (target) {
    target.classList.add("inspected");
    ring(target, "inspect-ring");
    const bbox = target.getBBox();
    const pad = 4;
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", `${bbox.x - pad} ${bbox.y - pad} ${bbox.width + 2 * pad} ${bbox.height + 2 * pad}`);
    svg.setAttribute("role", "img");
    // The board's definitions (patterns, gradients, gem shapes) travel with the copy.
    const defs = target.ownerSVGElement && target.ownerSVGElement.querySelector("defs");
    if (defs) svg.append(defs.cloneNode(true));
    const copy = target.cloneNode(true);
    copy.classList.remove("inspected", "legal", "last");
    copy.removeAttribute("data-pick");
    copy.removeAttribute("tabindex");
    copy.removeAttribute("role");
    copy.removeAttribute("aria-label");
    svg.append(copy);
    box.append(svg);
  }
  const about = document.createElement("p");
  const title = target && target.querySelector("title");
  about.textContent = title ? title.textContent : pick;
  box.append(about);
  box.hidden = false;
  $("choices-title").textContent = `Card ${pick}`;
  if (!myTurn()) {
    say(game.result ? `${pick}.` : `${pick}: you can play when it is your turn.`);
    return;
  }
  if (candidates.length) {
    numberChoices();
    say(`${pick}: ${candidates.map((a) => a.text).join(" or ")}?`);
    return;
  }
  const text = pick.startsWith("deck ") ? `reserve ${pick}` : `${BUY[game.variant]} ${pick}`;
  const why = document.createElement("button");
  why.type = "button";
  why.textContent = `${text}: why not?`;
  why.addEventListener("click", () => play(text));
  $("choices").append(why);
  numberChoices();
  say(`You can neither buy nor reserve ${pick} now.`);
}

function offerTakes() {
  const exact = game.legal.filter((a) => {
    const parts = takeParts(a);
    return parts && sameParts(parts, picked);
  });
  const box = $("choices");
  drawChoices(exact);
  if (!exact.length && picked.length) {
    const text = game.variant === "duel" ? `take ${picked.join(" ")}` : `take ${picked.join("")}`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = text;
    button.addEventListener("click", () => play(text));
    box.append(button);
    numberChoices();
    say(`No legal move takes exactly ${picked.join(" ")}; pick more, or try it to see why.`);
  } else if (exact.length) {
    say(`Confirm: ${exact.map((a) => a.text).join(" or ")}.`);
  }
}

function cancel() {
  if (!game) return;
  picked = [];
  drawSelection();
  drawChoices();
  say("");
}

async function hint() {
  if (!game || !game.legal.length || busy) return;
  say("Asking the AI…", "thinking");
  try {
    const move = await call("POST", `/games/${encodeURIComponent(table.id)}/hint`, { seed: game.step });
    moveTable(move, "The AI would play");
    say(`Hint: ${move.action}.`);
  } catch (error) {
    say(error.message, "error");
  }
}

async function undo() {
  if (!game || busy) return;
  busy = true;
  try {
    // The version seen: a doubled click or a retried request takes back one decision, not two.
    const snapshot = await call("POST", `/games/${encodeURIComponent(table.id)}/undo`, {
      version: game.version,
    });
    if (accept(snapshot)) lastSeen = snapshot.last ? snapshot.last.index : null;
    say("Your last move was taken back.");
  } catch (error) {
    say(error.code === "undo_refused" ? `Not taken back: ${error.message}` : error.message, "error");
  } finally {
    busy = false;
  }
}

// Save: the saved game comes with the seat's token in the header, then is handed to the
// browser as a download (a plain link could not carry the header).
async function save() {
  if (!game) return;
  try {
    const saved = await call("GET", `/games/${encodeURIComponent(table.id)}/save`);
    const url = URL.createObjectURL(new Blob([JSON.stringify(saved)], { type: "application/json" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `splendor-${game.variant}-${game.game_id}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    say("Saved.");
  } catch (error) {
    say(error.message, "error");
  }
}

async function load(event, where) {
  const file = event.target.files[0];
  if (!file) return;
  const tell = (text, kind) => {
    if (where === "start") {
      $("start-message").textContent = text;
      $("start-message").className = kind || "";
    } else {
      say(text, kind);
    }
  };
  try {
    const saved = JSON.parse(await file.text());
    const created = await call("POST", "/games/load", saved);
    tell("Game loaded.");
    enter(created);
  } catch (error) {
    tell(`Cannot load ${file.name}: ${error.message}`, "error");
  }
  event.target.value = "";
}

async function replayTo(step) {
  if (!game || !game.result) return;
  step = Math.max(0, Math.min(game.step, step));
  try {
    const frame = await call("GET", `/games/${encodeURIComponent(table.id)}/replay?step=${step}`);
    replayStep = step;
    drawBoard(frame.svg);
    $("replay-step").value = String(step);
    $("replay-label").textContent = `move ${step} of ${frame.steps}` + (frame.action ? `: ${frame.action}` : "");
  } catch (error) {
    say(error.message, "error");
  }
}

// ---- the keyboard -------------------------------------------------------------------------

// Arrows move the focus to the nearest place of the board in that direction.
function moveFocus(key) {
  const places = [...$("board").querySelectorAll("[data-pick]")];
  if (!places.length) return;
  const current = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("#board [data-pick]") : null;
  if (!current) {
    places[0].focus();
    return;
  }
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  };
  const from = centre(current);
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = null;
  let bestScore = Infinity;
  for (const el of places) {
    if (el === current) continue;
    const to = centre(el);
    const along = (to.x - from.x) * dx + (to.y - from.y) * dy;
    if (along <= 1) continue;
    const across = Math.abs((to.x - from.x) * dy + (to.y - from.y) * dx);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  }
  if (best) {
    best.focus();
    best.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !game || $("table").hidden) return;
  const target = event.target;
  const typing = target && (target.tagName === "INPUT" || target.tagName === "SELECT" || target.tagName === "TEXTAREA");
  const place = target && target.closest ? target.closest("#board [data-pick]") : null;
  if (place && (event.key === "Enter" || event.key === " ")) {
    event.preventDefault();
    onPick(place.dataset.pick, place);
    return;
  }
  if (typing) return;
  if (event.key === "Escape") {
    event.preventDefault();
    cancel();
  } else if (/^[1-9]$/.test(event.key)) {
    const button = $("choices").querySelector(`button[data-key="${event.key}"]`);
    if (button) {
      event.preventDefault();
      button.click();
    }
  } else if (event.key.startsWith("Arrow") && place) {
    event.preventDefault();
    moveFocus(event.key);
  }
}

// ---- wiring -------------------------------------------------------------------------------

$("variant").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
$("strength").addEventListener("change", () => { $("custom-bot").hidden = $("strength").value !== "custom"; });
$("new-game").addEventListener("submit", newTable);
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("save").addEventListener("click", save);
$("load").addEventListener("change", (e) => load(e, "table"));
$("load-start").addEventListener("change", (e) => load(e, "start"));
$("clear").addEventListener("click", cancel);
$("zoom").addEventListener("click", () => {
  const on = $("board").classList.toggle("zoomed");
  $("zoom").setAttribute("aria-pressed", String(on));
  $("zoom").textContent = on ? "Fit the board" : "Zoom the board";
});
$("board").addEventListener("click", (event) => {
  const target = event.target.closest("[data-pick]");
  if (target) onPick(target.dataset.pick, target);
});
document.addEventListener("keydown", onKey);
$("replay-first").addEventListener("click", () => replayTo(0));
$("replay-prev").addEventListener("click", () => replayTo((replayStep ?? game.step) - 1));
$("replay-next").addEventListener("click", () => replayTo((replayStep ?? game.step) + 1));
$("replay-last").addEventListener("click", () => replayTo(game.step));
$("replay-step").addEventListener("input", (e) => replayTo(Number(e.target.value)));
window.addEventListener("hashchange", route);
fillPlayers();
route();
