// Setting a table up: the start form (its variants and player counts from the server's
// registry), dealing or loading a table, and the table's links, kept for this tab.
import { call, pageLink } from "./api.js";
import { say } from "./panels.js";
import { $, state } from "./state.js";

let pendingLinks = null; // the links of the table this tab just made or loaded

// The variants the server plays, as the registry names them.
export function fillVariants() {
  const select = $("variant");
  const old = select.value;
  select.innerHTML = "";
  for (const v of state.variants.values()) {
    const option = new Option(v.title, v.name);
    option.selected = v.name === old;
    select.add(option);
  }
  fillPlayers();
}

// The AI levels by name (Beginner ... Strongest), as the server lists them, first in the
// strength menu; the strongest is the default AI. The searches by budget stay below them.
export function fillLevels(levels) {
  const select = $("strength");
  const group = document.createElement("optgroup");
  group.label = "levels";
  for (const level of levels) {
    const number = level.spec.split(":")[1];
    const option = new Option(`${level.name} (level ${number})`, level.spec);
    group.append(option);
  }
  if (!levels.length) return;
  select.prepend(group);
  // The default AI is level 10: one entry for it, under its level's name, selected.
  const strongest = group.lastElementChild;
  const fallback = select.querySelector('option[value="default"]');
  if (fallback) fallback.remove();
  strongest.value = "default";
  strongest.selected = true;
}

export function fillPlayers() {
  const variant = state.variants.get($("variant").value);
  const select = $("players");
  const old = Number(select.value) || 2;
  select.innerHTML = "";
  for (const n of variant ? variant.players : []) {
    const option = new Option(String(n), String(n));
    option.selected = n === old;
    select.add(option);
  }
  fillSeats();
}

// One box per seat, ticked when the AI plays it, its role in words beside it, and for a
// person's seat a second box: left open, for the invitation's link. Seats that exist keep
// their role; a seat added by raising the player count is the AI's (seat 0 is yours), and
// says so.
export function fillSeats() {
  const n = Number($("players").value);
  const box = $("seats");
  const old = new Map([...box.querySelectorAll("input.ai")].map((i) => [Number(i.value), i.checked]));
  const open = new Map([...box.querySelectorAll("input.open")].map((i) => [Number(i.value), i.checked]));
  box.querySelectorAll(".seat-line").forEach((l) => l.remove());
  for (let s = 0; s < n; s++) {
    const line = document.createElement("div");
    line.className = "seat-line";
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.type = "checkbox";
    input.className = "ai";
    input.value = String(s);
    input.id = `ai-seat-${s}`;
    input.checked = old.has(s) ? old.get(s) : s !== 0;
    const role = document.createElement("span");
    role.className = "role";
    label.append(input, " ", role);
    const openLabel = document.createElement("label");
    openLabel.className = "open-seat";
    const openBox = document.createElement("input");
    openBox.type = "checkbox";
    openBox.className = "open";
    openBox.value = String(s);
    openBox.id = `open-seat-${s}`;
    openBox.checked = open.get(s) || false;
    openLabel.append(openBox, " left open (the invitation)");
    line.append(label, openLabel);
    input.addEventListener("change", () => seatRole(line));
    openBox.addEventListener("change", () => seatRole(line));
    seatRole(line);
    box.append(line);
  }
}

function seatRole(line) {
  const ai = line.querySelector("input.ai");
  const open = line.querySelector("input.open");
  open.disabled = ai.checked;
  if (ai.checked) open.checked = false;
  const what = ai.checked ? "AI" : open.checked ? "open" : "human";
  line.querySelector(".role").textContent = `seat ${ai.value}: ${what}`;
  line.classList.toggle("ai", ai.checked);
}

function botSpec() {
  const choice = $("strength").value;
  return choice === "custom" ? $("custom-bot").value.trim() : choice;
}

export async function newTable(event) {
  event.preventDefault();
  const aiSeats = [...$("seats").querySelectorAll("input.ai:checked")].map((i) => Number(i.value));
  const openSeats = [...$("seats").querySelectorAll("input.open:checked")].map((i) => Number(i.value));
  const n = Number($("players").value);
  // Your name goes to the first seat that is neither the AI's nor open: yours.
  const mine = [...Array(n).keys()].find((s) => !aiSeats.includes(s) && !openSeats.includes(s));
  const name = $("my-name").value.trim();
  const names = [];
  if (name && mine !== undefined) {
    for (let s = 0; s < mine; s++) names.push(null);
    names.push(name);
    try { localStorage.setItem("splendor-name", name); } catch (_) { /* private mode */ }
  }
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
      open_seats: openSeats,
      names,
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
// human seat with a link (the host's when every person's seat is open, the spectators' when
// the AI plays every seat).
function enter(created) {
  try {
    sessionStorage.setItem(`splendor-table-${created.game_id}`, JSON.stringify(created));
  } catch (_) {
    // no storage (private mode): the links are shown once, on this page only
  }
  pendingLinks = created;
  const first = created.seats.find((s) => s.role === "human" && s.link);
  const anyone = created.seats.some((s) => s.role === "human");
  const link = first ? first.link : anyone ? created.host.link : created.spectator.link;
  location.hash = link.slice(link.indexOf("#"));
  $("links-box").open = true;
}

function linksOf(id) {
  if (pendingLinks && pendingLinks.game_id === id) return pendingLinks;
  try {
    const kept = sessionStorage.getItem(`splendor-table-${id}`);
    return kept ? JSON.parse(kept) : null;
  } catch (_) {
    return null;
  }
}

export function drawLinks() {
  const box = $("links");
  box.innerHTML = "";
  const created = linksOf(state.table.id);
  if (!created) {
    $("links-box").hidden = true;
    return;
  }
  $("links-box").hidden = false;
  const rows = created.seats.map((s) => ({
    label: s.role === "ai" ? `seat ${s.seat}: the AI plays it`
      : s.open ? `seat ${s.seat}: open (the invitation takes it)`
        : `seat ${s.seat} (${s.name || "human"})`,
    link: s.link,
    seat: String(s.seat),
  }));
  rows.push({ label: "spectators", link: created.spectator.link, seat: "spectator" });
  if (created.invite) {
    rows.push({ label: "invitation: send it to the group; each opener takes an open seat", link: created.invite.link, seat: "invite" });
  }
  if (created.host) {
    rows.push({ label: "host: keep it; every seat's state, and a lost link given anew", link: created.host.link, seat: "host" });
  }
  for (const row of rows) {
    const line = document.createElement("div");
    line.className = "link";
    const name = document.createElement("span");
    name.textContent = row.label + (row.link && sameLink(row.link) ? " — this page" : "");
    line.append(name);
    if (row.link) {
      const input = document.createElement("input");
      input.readOnly = true;
      input.value = pageLink(row.link);
      input.setAttribute("aria-label", `link of ${row.label}`);
      input.dataset.seat = row.seat;
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
  return params.get("game") === state.table.id && params.get("token") === state.table.token;
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

// A saved game, loaded as a new table (from the start screen or from a table's page).
export async function load(event, where) {
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
