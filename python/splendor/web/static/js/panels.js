// Everything around the board: the message line, the turn and connection lines, the seats'
// scores, the last move, the choice buttons, the legal moves, the log, the AI's move and the
// final standings. A snapshot is drawn here. Every text from the server (what a move did, a
// name) goes into the page as text (textContent), never as HTML.
//
// Buttons that play carry what they play (data-action: an action id; data-try: a text the
// server is asked about, to explain why not); main.js plays them on a click.
import { clearRings, drawBoard, drawSelection, findPick, focusedPlace } from "./board.js";
import { onSnapshot } from "./notify.js";
import { drawAgain, drawHost } from "./seats.js";
import { $, counted, mySeat, nameOf, pct, roleOf, state, variantOf, who } from "./state.js";

export function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = kind;
}

export function setConn(text, kind = "") {
  $("conn").textContent = text;
  $("conn").className = kind;
}

// A snapshot is drawn when it is newer than the one shown (answers can cross on the way).
// Newer: a later version (a move, an undo) or, at the same version, a later change of the
// seats (a claim, a name, a new link, the rematch).
export function accept(snapshot) {
  const game = state.game;
  const stamp = (g) => [g.version ?? 0, g.seating ?? 0];
  if (game && snapshot.game_id === game.game_id) {
    const [v, s] = stamp(snapshot);
    const [v0, s0] = stamp(game);
    if (v < v0 || (v === v0 && s <= s0)) return false;
  }
  const first = game === null;
  show(snapshot);
  announce(first);
  return true;
}

function show(snapshot) {
  const focused = focusedPlace();
  const refocus = focused ? focused.dataset.pick : null;
  state.game = snapshot;
  state.picked = [];
  state.replayStep = null;
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
  // After the end every hidden card is known: nothing goes back, nothing is to be hinted.
  const over = snapshot.result ? "The game is over." : "";
  $("undo").title = over;
  $("hint").title = over;
  $("save").hidden = !(snapshot.result || (seat !== null && humans <= 1));
  const watching = snapshot.access === "host" ? "hosting" : "watching";
  const me = nameOf(seat);
  $("where").textContent = `${variantOf(snapshot.variant).title}, ${counted(snapshot.players, "seat")} · ${seat === null ? watching : `you are ${me ? `${me}, ` : ""}seat ${seat}`}`;
  $("where").title = `table ${snapshot.game_id}`;
  $("table").classList.toggle("over", !!snapshot.result);
  onSnapshot(snapshot);
  drawScores();
  drawLast();
  drawTurn();
  drawChoices();
  drawLegal();
  drawLog();
  drawAi();
  drawResult();
  drawSelection();
  drawHost();
  drawAgain();
}

function drawTurn() {
  const game = state.game;
  const turn = $("turn");
  const seat = mySeat();
  let text;
  let kind;
  if (game.result) {
    text = "Game over.";
    kind = "over";
  } else if (game.current === seat && seat !== null) {
    text = "Your turn.";
    kind = "you";
  } else if (game.thinking || roleOf(game.current) === "ai") {
    text = `The AI (seat ${game.current}) is thinking…`;
    kind = "thinking";
  } else {
    const name = nameOf(game.current);
    text = name ? `${name} (seat ${game.current}) to play.` : `Seat ${game.current} (human) to play.`;
    kind = "other";
  }
  if (seat === null) text = `Watching. ${text}`;
  turn.textContent = text;
  turn.dataset.state = kind;
  turn.className = kind;
}

// After a change made by someone else (the AI, another person), say what it was.
function announce(first) {
  const game = state.game;
  const last = game.last || null;
  const index = last ? last.index : (game.log.length ? game.log[game.log.length - 1].index : null);
  if (first) {
    state.lastSeen = index;
    if (!game.result) {
      say(game.legal.length ? "Your turn: click the board (or use the keyboard)."
        : mySeat() === null ? "You are watching: the board shows what every player sees." : "");
    }
    else say(""); // the standings say how it ended, once
    return;
  }
  if (index === state.lastSeen) return;
  state.lastSeen = index;
  if (game.result) {
    say("");
    return;
  }
  const entry = last || game.log[game.log.length - 1];
  if (entry && entry.seat !== mySeat()) say(`${who(entry.seat)} played ${entry.action}.`);
}

// Each seat's score at a glance: its points large, cards, tokens and reserved cards. The
// number is always the real score; below the target it reads `8 / 15`, at or past it
// `16 ✓ 15 to win`, never `16 / 15`; the bar fills up to the target and stops there.
function drawScores() {
  const game = state.game;
  const strip = $("seat-strip");
  strip.innerHTML = "";
  for (const s of game.scores || []) {
    const item = document.createElement("li");
    item.dataset.seat = String(s.seat);
    if (!game.result && game.current === s.seat) item.classList.add("to-play");
    if (s.seat === mySeat()) item.classList.add("mine");
    const name = document.createElement("span");
    name.className = "who";
    name.textContent = who(s.seat);
    const points = document.createElement("span");
    points.className = "points";
    // A span, not <b>: the page makes no <b> of its own, so one would be a name sent as markup.
    const big = document.createElement("span");
    big.className = "score";
    big.textContent = String(s.points);
    const goal = document.createElement("span");
    goal.className = "goal";
    if (s.target === null || s.target === undefined) goal.textContent = " points";
    else if (s.points >= s.target) goal.textContent = ` ✓ ${s.target} to win`;
    else goal.textContent = ` / ${s.target}`;
    points.append(big, goal);
    points.setAttribute("aria-label", s.target ? `${counted(s.points, "point")} of ${s.target}` : counted(s.points, "point"));
    const more = document.createElement("span");
    more.className = "more";
    more.textContent = [counted(s.cards, "card"), counted(s.tokens, "token"), s.reserved ? `${s.reserved} reserved` : ""]
      .filter(Boolean).join(" · ");
    item.append(name, points);
    if (s.target) {
      const bar = document.createElement("meter");
      bar.min = 0;
      bar.max = s.target;
      bar.value = Math.min(s.points, s.target);
      bar.setAttribute("aria-hidden", "true");
      item.append(bar);
    }
    item.append(more);
    strip.append(item);
  }
}

// The last decision in words (what it did, from this page's information).
function drawLast() {
  const last = state.game.last;
  $("last-move").hidden = !last;
  if (!last) return;
  $("last-says").textContent = `${who(last.seat)}: ${last.says || last.action}`;
}

function drawLegal() {
  const box = $("legal");
  box.innerHTML = "";
  for (const a of state.game.legal) box.append(actionButton(a));
}

function actionButton(a) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = a.text;
  button.dataset.action = String(a.id);
  return button;
}

// A button that sends `text` as typed: the server plays it, or says why not.
export function tryButton(label, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = label;
  button.dataset.try = text;
  $("choices").append(button);
  numberChoices();
}

// The small choices the rules ask for (payment, returns, nobles ...) are listed as buttons;
// in the main phase the board is the way to choose. The buttons are numbered for the keys.
export function drawChoices(candidates) {
  const game = state.game;
  const box = $("choices");
  box.innerHTML = "";
  $("inspect").hidden = true;
  document.querySelectorAll("#board .inspected").forEach((g) => g.classList.remove("inspected"));
  clearRings("inspect-ring");
  // Once the game is over there is nothing to choose: the box shows only a card clicked.
  $("choices-box").hidden = !!game.result && !candidates;
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
  // Main-phase moves that are no place of the board (Duel: replenish, pass).
  if (!candidates && phase === "main") {
    for (const a of game.legal) if (!a.picks.length) box.append(actionButton(a));
  }
  numberChoices();
}

export function numberChoices() {
  [...$("choices").querySelectorAll("button")].forEach((b, i) => {
    if (i < 9) b.dataset.key = String(i + 1);
    else delete b.dataset.key;
  });
}

function drawLog() {
  const game = state.game;
  const list = $("log");
  list.innerHTML = "";
  for (const e of game.log) {
    const item = document.createElement("li");
    const estimate = e.win_estimate === null || e.win_estimate === undefined ? "" : ` (win ${pct(e.win_estimate)})`;
    const move = document.createElement("span");
    move.className = "move";
    move.textContent = `${who(e.seat)}: ${e.action}${estimate}`;
    item.append(move);
    if (e.says && e.says !== e.action) {
      const says = document.createElement("span");
      says.className = "says";
      says.textContent = e.says;
      item.append(says);
    }
    if (game.last && e.index === game.last.index) item.className = "last";
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function drawResult() {
  const game = state.game;
  const box = $("result");
  $("review-start").hidden = !game.result;
  if (!game.result) {
    box.hidden = true;
    $("replay").hidden = true;
    return;
  }
  const r = game.result;
  const names = r.winners.map(who);
  const alone = r.winners.length === 1;
  $("result-title").textContent = !r.winners.length ? "Game over: no winner."
    : alone && r.winners[0] === mySeat() ? "Game over: you win."
      : `Game over: ${names.join(" and ")} ${alone ? "wins" : "share the win"}.`;
  $("decided-by").textContent = `Decided by: ${r.decided_by || r.reason}.`;
  const rows = $("standings").tBodies[0];
  rows.innerHTML = "";
  for (const s of r.standings || []) {
    const row = rows.insertRow();
    if (s.seat === mySeat()) row.className = "mine";
    row.insertCell().textContent = String(s.rank);
    row.insertCell().textContent = who(s.seat);
    row.insertCell().textContent = String(s.points);
    row.insertCell().textContent = String(s.cards);
  }
  $("result-save").hidden = $("save").hidden;
  $("save").hidden = true; // one Save: the standings' own
  box.hidden = false;
  const slider = $("replay-step");
  slider.max = String(game.step);
  slider.value = String(game.step);
  $("replay-label").textContent = `move ${game.step} of ${game.step}`;
  $("replay").hidden = false;
}

export function moveTable(move, title) {
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
  // A hint's why: the AI's top moves, in words, each with the line it expects.
  if (move.top && move.top.length) {
    const list = document.createElement("ol");
    list.className = "hint-top";
    for (const t of move.top) {
      const item = document.createElement("li");
      const line = t.line.slice(1).map((s) => `${who(s.seat)} ${s.action}`).join(", then ");
      item.textContent = `${t.text} (win ${pct(t.value)}, ${t.visits} visits): ${t.says}` +
        (line ? `. Expected: ${line}.` : ".");
      list.append(item);
    }
    box.append(list);
  }
}

// The AI's latest move, from the log (the server plays the AI seats by itself).
function drawAi() {
  const entry = [...state.game.log].reverse().find((e) => e.by_ai);
  if (!entry) {
    $("ai-move").textContent = "No AI move yet.";
    return;
  }
  moveTable(entry, `The AI (seat ${entry.seat}) played`);
}

