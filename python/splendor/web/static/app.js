// The page: one game held by the server, drawn from the viewing seat's information only.
// Clicks on the board name places (data-pick); they are matched against the legal actions'
// texts, and anything that matches none is sent as typed so the server explains why not.
"use strict";

const API = "/api/v1";
const PLAYERS = { base: [2, 3, 4], duel: [2], marvel: [2, 3, 4] };
const BUY = { base: "buy", duel: "buy", marvel: "recruit" };
const CELL = /^[a-e][1-5]$/;

let game = null;        // the last snapshot
let picked = [];        // bank letters (base, Marvel) or board cells (Duel) clicked so far
let replayStep = null;  // the step shown while replaying, else null
let busy = false;

const $ = (id) => document.getElementById(id);

function say(text, kind = "") {
  $("message").textContent = text;
  $("message").className = kind;
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(API + path, init);
  const data = await response.json();
  if (!response.ok) {
    const error = new Error(data.error ? data.error.message : response.statusText);
    error.code = data.error ? data.error.code : "http_error";
    throw error;
  }
  return data;
}

// ---- setup form -------------------------------------------------------------------------

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

async function newGame(event) {
  if (event) event.preventDefault();
  const aiSeats = [...$("seats").querySelectorAll("input:checked")].map((i) => Number(i.value));
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  const humans = [...Array(Number($("players").value)).keys()].filter((s) => !aiSeats.includes(s));
  try {
    const snapshot = await call("POST", `/games?viewer=${humans.length ? humans[0] : 0}`, {
      variant: $("variant").value,
      players: Number($("players").value),
      seed,
      ai_seats: aiSeats,
      bot: botSpec(),
    });
    $("ai-move").textContent = "No AI move yet.";
    show(snapshot);
    say("New game. " + (humans.length ? "Click the board to play." : "The AI plays every seat."));
    await runAi();
  } catch (error) {
    say(error.message, "error");
  }
}

// ---- drawing ----------------------------------------------------------------------------

function humanSeats() {
  return [...Array(game.players).keys()].filter((s) => !game.ai_seats.includes(s));
}

// Whose eyes the page uses: the human to decide, else the first human seat.
function viewerFor(snapshot) {
  const humans = [...Array(snapshot.players).keys()].filter((s) => !snapshot.ai_seats.includes(s));
  if (snapshot.current !== null && humans.includes(snapshot.current)) return snapshot.current;
  return humans.length ? humans[0] : 0;
}

function show(snapshot) {
  game = snapshot;
  picked = [];
  replayStep = null;
  $("board").innerHTML = snapshot.svg;
  $("text").textContent = snapshot.text;
  $("save").href = `${API}/games/${snapshot.game_id}/save`;
  $("undo").disabled = !snapshot.can_undo;
  $("hint").disabled = snapshot.legal.length === 0;
  drawChoices();
  drawLegal();
  drawLog();
  drawResult();
  drawSelection();
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
// in the main phase the board is the way to choose.
function drawChoices(candidates) {
  const box = $("choices");
  box.innerHTML = "";
  $("inspect").hidden = true;
  const phase = game.view.phase;
  let list = candidates;
  if (!list) list = phase === "main" ? [] : game.legal;
  $("choices-title").textContent = candidates
    ? "Which one?"
    : phase === "over" ? "Game over" : phase === "main" ? "Your choices" : `Choose (${phase})`;
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
}

function drawLog() {
  const list = $("log");
  list.innerHTML = "";
  for (const e of game.log) {
    const item = document.createElement("li");
    const who = game.ai_seats.includes(e.seat) ? `seat ${e.seat} (AI)` : `seat ${e.seat}`;
    const estimate = e.win_estimate === null || e.win_estimate === undefined ? "" : ` (win ${pct(e.win_estimate)})`;
    item.textContent = `${who}: ${e.action}${estimate}`;
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
  const names = r.winners.map((s) => (game.ai_seats.includes(s) ? `seat ${s} (AI)` : `seat ${s} (you)`));
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
  for (const p of picked) {
    const pick = game.variant === "duel" ? `cell ${p}` : `token ${p}`;
    const g = document.querySelector(`#board [data-pick="${pick}"]`);
    if (g) g.classList.add("picked");
  }
}

function pct(x) {
  return `${Math.round(100 * x)}%`;
}

function drawAi(move, title) {
  const box = $("ai-move");
  box.innerHTML = "";
  const head = document.createElement("p");
  const estimate = move.win_estimate === null ? "" : `, win estimate ${pct(move.win_estimate)}`;
  head.textContent = `${title}: ${move.action}${estimate} (${move.bot}, ${move.elapsed.toFixed(2)} s` +
    (move.iterations ? `, ${move.iterations} iterations)` : ")");
  box.append(head);
  if (move.considered.length) {
    const table = document.createElement("table");
    table.innerHTML = "<tr><th>move considered</th><th>visits</th><th>win</th></tr>";
    for (const c of move.considered) {
      const row = table.insertRow();
      row.insertCell().textContent = c.text;
      row.insertCell().textContent = String(c.visits);
      row.insertCell().textContent = pct(c.value);
    }
    box.append(table);
  }
}

// ---- playing ----------------------------------------------------------------------------

async function play(action) {
  if (busy || !game || game.current === null) return;
  try {
    const snapshot = await call("POST", `/games/${game.game_id}/actions`, { seat: game.current, action });
    show(snapshot);
    say(`You played ${snapshot.log[snapshot.log.length - 1].action}.`);
    await runAi();
  } catch (error) {
    say(error.message, "error");
  }
}

async function runAi() {
  while (game && game.current !== null && game.ai_seats.includes(game.current)) {
    busy = true;
    say(`The AI (seat ${game.current}) is thinking…`, "thinking");
    try {
      const move = await call("POST", `/games/${game.game_id}/ai`, { seed: game.step });
      drawAi(move, `AI seat ${move.player} played`);
      const snapshot = await call("GET", `/games/${game.game_id}?viewer=${viewerFor({ ...game, current: null })}`);
      const next = await call("GET", `/games/${game.game_id}?viewer=${viewerFor(snapshot)}`);
      show(next);
      say(`The AI (seat ${move.player}) played ${move.action}.`);
    } catch (error) {
      say(error.message, "error");
      break;
    } finally {
      busy = false;
    }
  }
  if (game && game.result) say($("result").textContent);
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

function onPick(pick, target) {
  if (busy || replayStep !== null || !game || game.current === null) return;
  if (!game.legal.length) {
    say(`It is seat ${game.current}'s turn, not yours.`, "error");
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
  const card = /^[1-3]\.[1-5]$/.test(pick) || pick.startsWith("reserved ") || pick.startsWith("deck ");
  if (card) {
    inspect(pick, target, candidates);
  } else if (candidates.length === 1) {
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
  document.querySelectorAll("#board .inspected").forEach((g) => g.classList.remove("inspected"));
  if (target) {
    target.classList.add("inspected");
    const bbox = target.getBBox();
    const pad = 4;
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", `${bbox.x - pad} ${bbox.y - pad} ${bbox.width + 2 * pad} ${bbox.height + 2 * pad}`);
    svg.setAttribute("role", "img");
    const copy = target.cloneNode(true);
    copy.classList.remove("inspected", "legal");
    copy.removeAttribute("data-pick");
    svg.append(copy);
    box.append(svg);
  }
  const about = document.createElement("p");
  const title = target && target.querySelector("title");
  about.textContent = title ? title.textContent : pick;
  box.append(about);
  box.hidden = false;
  $("choices-title").textContent = `Card ${pick}`;
  if (candidates.length) {
    say(`${pick}: ${candidates.map((a) => a.text).join(" or ")}?`);
    return;
  }
  const text = pick.startsWith("deck ") ? `reserve ${pick}` : `${BUY[game.variant]} ${pick}`;
  const why = document.createElement("button");
  why.type = "button";
  why.textContent = `${text}: why not?`;
  why.addEventListener("click", () => play(text));
  $("choices").append(why);
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
    say(`No legal move takes exactly ${picked.join(" ")}; pick more, or try it to see why.`);
  } else if (exact.length) {
    say(`Confirm: ${exact.map((a) => a.text).join(" or ")}.`);
  }
}

async function hint() {
  if (!game || !game.legal.length) return;
  say("Asking the AI…", "thinking");
  try {
    const move = await call("POST", `/games/${game.game_id}/hint`, { seat: game.current, seed: game.step });
    drawAi(move, "The AI would play");
    say(`Hint: ${move.action}.`);
  } catch (error) {
    say(error.message, "error");
  }
}

async function undo() {
  try {
    const seat = viewerFor(game);
    show(await call("POST", `/games/${game.game_id}/undo`, { seat }));
    say("Your last move was taken back.");
  } catch (error) {
    say(error.message, "error");
  }
}

async function load(event) {
  const file = event.target.files[0];
  if (!file) return;
  try {
    const saved = JSON.parse(await file.text());
    const humans = [...Array(saved.start.num_players || 2).keys()].filter((s) => !(saved.ai_seats || []).includes(s));
    show(await call("POST", `/games/load?viewer=${humans.length ? humans[0] : 0}`, saved));
    say("Game loaded.");
    await runAi();
  } catch (error) {
    say(`Cannot load ${file.name}: ${error.message}`, "error");
  }
  event.target.value = "";
}

async function replayTo(step) {
  if (!game || !game.result) return;
  step = Math.max(0, Math.min(game.step, step));
  try {
    const frame = await call("GET", `/games/${game.game_id}/replay?step=${step}&viewer=${viewerFor(game)}`);
    replayStep = step;
    $("board").innerHTML = frame.svg;
    $("replay-step").value = String(step);
    $("replay-label").textContent = `move ${step} of ${frame.steps}` + (frame.action ? `: ${frame.action}` : "");
  } catch (error) {
    say(error.message, "error");
  }
}

// ---- wiring -----------------------------------------------------------------------------

$("variant").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
$("strength").addEventListener("change", () => { $("custom-bot").hidden = $("strength").value !== "custom"; });
$("new-game").addEventListener("submit", newGame);
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
$("load").addEventListener("change", load);
$("clear").addEventListener("click", () => { picked = []; drawSelection(); drawChoices(); say(""); });
$("board").addEventListener("click", (event) => {
  const target = event.target.closest("[data-pick]");
  if (target) onPick(target.dataset.pick, target);
});
$("replay-first").addEventListener("click", () => replayTo(0));
$("replay-prev").addEventListener("click", () => replayTo((replayStep ?? game.step) - 1));
$("replay-next").addEventListener("click", () => replayTo((replayStep ?? game.step) + 1));
$("replay-last").addEventListener("click", () => replayTo(game.step));
$("replay-step").addEventListener("input", (e) => replayTo(Number(e.target.value)));
fillPlayers();
newGame();
