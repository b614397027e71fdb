// Who sits where: the invitation's screen (a name, then the first open seat), the host's
// panel (every seat's state, a seat's link given anew, a new invitation), the seats' names,
// and Play again (the rematch: each page moves to its own new seat by itself).
//
// Names are always set as text (textContent, input values), never as markup: a name is
// whatever its person typed, `<b>Ann</b>` included.
import { call, gamePath, pageLink } from "./api.js";
import { say } from "./panels.js";
import { $, mySeat, state, variantOf } from "./state.js";

let following = null; // the rematch this page is moving to (asked for once)

// The page's address for a link of the server's: the same page, another fragment (the
// browser stays on the address it uses; the link as given is what is copied).
function go(link) {
  location.hash = link.slice(link.indexOf("#"));
}

// ---- the invitation ---------------------------------------------------------------------

// The invitation's link was opened: show the table and ask for a name.
export async function showJoin() {
  $("table").hidden = true;
  $("start").hidden = true;
  $("join").hidden = false;
  $("join-message").textContent = "";
  $("join-message").className = "";
  const list = $("join-seats");
  list.innerHTML = "";
  try {
    const table = await call("GET", gamePath("/invite"));
    $("join-title").textContent = `${variantOf(table.variant).title}, ${table.players} seats${table.over ? " (the game is over)" : ""}`;
    for (const s of table.seats) {
      const item = document.createElement("li");
      const what = s.role === "ai" ? "the AI" : s.open ? "open" : s.name || "taken";
      item.textContent = `seat ${s.seat}: ${what}`;
      list.append(item);
    }
    const left = table.open_seats;
    $("join-go").disabled = left === 0;
    if (!left) {
      $("join-message").textContent = "Every seat is taken: ask the host for a seat's link.";
      $("join-message").className = "error";
    }
    let kept = "";
    try { kept = localStorage.getItem("splendor-name") || ""; } catch (_) { kept = ""; }
    if (!$("join-name").value) $("join-name").value = kept;
    $("join-name").focus();
  } catch (error) {
    $("join-message").textContent = `This invitation does not open a table here: ${error.message}`;
    $("join-message").className = "error";
    $("join-go").disabled = true;
  }
}

export async function join(event) {
  event.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) {
    $("join-message").textContent = "Type the name the others will see.";
    $("join-message").className = "error";
    return;
  }
  $("join-go").disabled = true;
  try {
    const seat = await call("POST", gamePath("/claim"), { name });
    try { localStorage.setItem("splendor-name", name); } catch (_) { /* private mode */ }
    $("join").hidden = true;
    go(seat.link);
  } catch (error) {
    $("join-message").textContent = error.code === "no_open_seat"
      ? "Someone took the last seat just now: ask the host for a seat's link."
      : error.message;
    $("join-message").className = "error";
    $("join-go").disabled = error.code === "no_open_seat";
  }
}

// ---- the host's panel --------------------------------------------------------------------

const STATES = {
  open: "open (the invitation takes it)",
  taken: "taken",
  connected: "taken, connected now",
  ai: "the AI",
};

// Drawn for the host's token on each change of the seats (names, claims, who is connected).
export async function drawHost() {
  const box = $("host-box");
  const game = state.game;
  if (!game || game.access !== "host") {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const mine = state.session;
  let view;
  try {
    view = await call("GET", gamePath("/host"));
  } catch (error) {
    $("host-message").textContent = error.message;
    return;
  }
  if (mine !== state.session) return;
  const rows = $("host-seats");
  rows.innerHTML = "";
  for (const s of view.seats) {
    const row = document.createElement("li");
    row.dataset.seat = String(s.seat);
    row.dataset.state = s.state;
    const label = document.createElement("span");
    label.textContent = `seat ${s.seat}${s.name ? ` (${s.name})` : ""}: ${STATES[s.state]}`;
    row.append(label);
    if (s.role === "human") {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = s.state === "open" ? "Give a link" : "New link";
      button.title = "Tokens are kept hashed: a lost link is given anew, and the old one stops working at once";
      button.addEventListener("click", () => relink(s.seat, s.name));
      row.append(button);
    }
    rows.append(row);
  }
  $("host-invite").textContent = view.invite ? "New invitation link" : "Make an invitation link";
}

async function relink(seat, name) {
  const who = `seat ${seat}${name ? ` (${name})` : ""}`;
  try {
    const given = await call("POST", gamePath(`/seats/${seat}/link`));
    showLink(`New link of ${who} (its old link no longer works)`, given.link, String(seat));
  } catch (error) {
    $("host-message").textContent = error.message;
  }
}

export async function reinvite() {
  try {
    const invite = await call("POST", gamePath("/invite"));
    showLink("Invitation link (the old one no longer works)", invite.link, "invite");
  } catch (error) {
    $("host-message").textContent = error.message;
  }
}

function showLink(label, link, key) {
  const out = $("host-links");
  out.querySelectorAll(`[data-for="${key}"]`).forEach((old) => old.remove());
  const line = document.createElement("div");
  line.className = "link";
  line.dataset.for = key;
  const text = document.createElement("span");
  text.textContent = label;
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = pageLink(link);
  input.setAttribute("aria-label", label);
  input.dataset.seat = key;
  line.append(text, input);
  out.prepend(line);
  $("host-message").textContent = "";
}

// ---- play again ----------------------------------------------------------------------------

// The result's Play again: a seat or the host deals the rematch, and goes to its own place.
export async function playAgain() {
  $("again").disabled = true;
  try {
    const place = await call("POST", gamePath("/rematch"));
    following = place.game_id;
    go(place.link);
  } catch (error) {
    say(error.message, "error");
    $("again").disabled = false;
  }
}

// The event stream says a rematch was dealt: go to this page's own place there.
export async function followRematch(nextId) {
  if (!nextId || following === nextId || !state.table) return;
  following = nextId;
  try {
    const place = await call("POST", gamePath("/next"));
    say("Play again: to your new seat…");
    go(place.link);
  } catch (error) {
    following = null;
    say(`The rematch cannot be joined from this page: ${error.message}`, "error");
  }
}

export function drawAgain() {
  const game = state.game;
  const can = Boolean(game && game.result) && (mySeat() !== null || game.access === "host");
  $("again").hidden = !can;
  $("again").disabled = Boolean(game && game.next);
}
