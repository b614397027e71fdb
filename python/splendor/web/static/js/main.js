// The page: a table held by the server, seen from one seat (or as a spectator).
//
// The address says which: #game=ID&token=T. The token stays in the fragment (browsers never
// send a fragment) and goes to the server only in the Authorization header. Without a game in
// the address, the page is the start screen.
//
// The modules, by concern: state.js (the shared state), api.js (calls and errors), live.js
// (the event stream), setup.js (the start form and the table's links), board.js (the SVG
// board), panels.js (everything around it), picks.js (choosing by clicking places),
// moves.js (playing, hint, undo, save, replay), review.js (the review of a finished game),
// notify.js (the title and the alerts on the seat's turn). This one routes and wires them.
import { call } from "./api.js";
import { moveFocus, PHONE, redraw } from "./board.js";
import { follow, stop } from "./live.js";
import { hint, play, replayTo, save, undo } from "./moves.js";
import { resetAlerts, setupAlerts } from "./notify.js";
import { say, setConn } from "./panels.js";
import { cancel, onPick } from "./picks.js";
import { resetReview, startReview } from "./review.js";
import { join, playAgain, reinvite } from "./seats.js";
import { drawLinks, fillLevels, fillPlayers, fillSeats, fillVariants, load, newTable } from "./setup.js";
import { $, state } from "./state.js";

function parseHash() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const id = params.get("game");
  const token = params.get("token");
  return id && token ? { id, token } : null;
}

function route() {
  const next = parseHash();
  const table = state.table;
  if (table && next && next.id === table.id && next.token === table.token) return;
  state.session += 1;
  stop();
  setConn("");
  state.table = next;
  state.game = null;
  state.picked = [];
  state.replayStep = null;
  state.lastSeen = null;
  resetReview();
  resetAlerts();
  $("start").hidden = next !== null;
  $("join").hidden = true;
  $("table").hidden = next === null;
  $("new-table").hidden = next === null;
  $("host-box").hidden = true;
  $("host-links").innerHTML = "";
  $("again").hidden = true;
  if (!next) {
    try {
      if (!$("my-name").value) $("my-name").value = localStorage.getItem("splendor-name") || "";
    } catch (_) {
      // no storage
    }
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
  $("seat-strip").innerHTML = "";
  $("last-move").hidden = true;
  say("Opening the table…");
  drawLinks();
  follow(state.session);
}

function onKey(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || !state.game || $("table").hidden) return;
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

// A button of the choices or of the legal moves plays what it carries.
function onChoice(event) {
  const button = event.target.closest("button");
  if (!button) return;
  if (button.dataset.action !== undefined) play(Number(button.dataset.action));
  else if (button.dataset.try !== undefined) play(button.dataset.try);
}

// The games the server plays (titles, player counts, verbs), from its registry.
async function loadVariants() {
  try {
    const info = await call("GET", "");
    state.variants = new Map(info.variants.map((v) => [v.name, v]));
    fillLevels(info.levels || []);
  } catch (error) {
    $("start-message").textContent = `The server's games cannot be read: ${error.message}`;
    $("start-message").className = "error";
  }
  fillVariants();
}

$("variant").addEventListener("change", fillPlayers);
$("players").addEventListener("change", fillSeats);
$("strength").addEventListener("change", () => { $("custom-bot").hidden = $("strength").value !== "custom"; });
$("new-game").addEventListener("submit", newTable);
$("hint").addEventListener("click", hint);
$("join-form").addEventListener("submit", join);
$("again").addEventListener("click", playAgain);
$("host-invite").addEventListener("click", reinvite);
$("review-start").addEventListener("click", startReview);
$("undo").addEventListener("click", undo);
$("save").addEventListener("click", save);
$("result-save").addEventListener("click", save);
setupAlerts();
$("load").addEventListener("change", (e) => load(e, "table"));
$("load-start").addEventListener("change", (e) => load(e, "start"));
$("clear").addEventListener("click", cancel);
$("choices").addEventListener("click", onChoice);
$("legal").addEventListener("click", onChoice);
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
PHONE.addEventListener("change", redraw);
$("replay-first").addEventListener("click", () => replayTo(0));
$("replay-prev").addEventListener("click", () => replayTo((state.replayStep ?? state.game.step) - 1));
$("replay-next").addEventListener("click", () => replayTo((state.replayStep ?? state.game.step) + 1));
$("replay-last").addEventListener("click", () => replayTo(state.game.step));
$("replay-step").addEventListener("input", (e) => replayTo(Number(e.target.value)));
window.addEventListener("hashchange", route);
// One read-only handle for the console and the browser tests: the snapshot shown.
window.splendor = Object.freeze({ get game() { return state.game; } });
await loadVariants();
route();
