// Choosing actions by clicking places of the board. Every legal action lists the places it
// picks (its `picks`, from the server), so the page matches places, never action texts:
// a card or a deck is shown with the moves made with it; tokens (Duel: cells) are picked
// one by one and confirmed; a noble, royal or location is chosen by its tile. A pick that
// no legal action names is sent as typed, so the server explains why not.
import { drawSelection, placePart, ring } from "./board.js";
import { myTurn, play } from "./moves.js";
import { drawChoices, numberChoices, say, tryButton } from "./panels.js";
import { $, mySeat, state, SVGNS, variantOf, who } from "./state.js";

const isCell = (pick) => pick.startsWith("cell ");
const isSelectable = (pick) => pick.startsWith("token ") || isCell(pick);

function isCard(pick) {
  return /^[1-3]\.[1-5]$/.test(pick) || pick.startsWith("reserved ") || pick.startsWith("deck ");
}

// The actions chosen by a click on `pick` alone.
function namedBy(pick) {
  return state.game.legal.filter((a) => a.picks.length === 1 && a.picks[0] === pick);
}

function samePlaces(a, b) {
  return a.length === b.length && [...a].sort().join() === [...b].sort().join();
}

// Whether some legal action picks `pick` (alone or with other places).
function picksSome(pick) {
  return state.game.legal.some((a) => a.picks.includes(pick));
}

export function onPick(pick, target) {
  const game = state.game;
  if (state.busy || state.replayStep !== null || !game) return;
  if (isCard(pick)) {
    inspect(pick, target, namedBy(pick));
    return;
  }
  // A token no take picks (gold, Marvel's grey and green; a Duel cell holding gold): say how
  // it does come, rather than have the engine list the grammar of every move.
  const note = (game.place_notes || {})[pick];
  if (note && !picksSome(pick)) {
    say(note);
    return;
  }
  if (!myTurn()) {
    if (game.result) say("The game is over.", "error");
    else if (mySeat() === null) say("Spectators watch: only the seats' links play.", "error");
    else say(`It is ${who(game.current)}'s turn, not yours.`, "error");
    return;
  }
  if (isSelectable(pick)) {
    // A cell is taken once (a second click lets it go); a bank's token may be taken twice.
    if (isCell(pick)) {
      state.picked = state.picked.includes(pick) ? state.picked.filter((p) => p !== pick) : [...state.picked, pick];
    } else {
      state.picked.push(pick);
      if (state.picked.length > 3) state.picked = [pick];
    }
    drawSelection();
    offerTakes();
    return;
  }
  const candidates = namedBy(pick);
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
  $("choices-box").hidden = false;
  $("choices-title").textContent = `Card ${pick}`;
  if (!myTurn()) {
    say(state.game.result ? `${pick}.` : `${pick}: you can play when it is your turn.`);
    return;
  }
  if (candidates.length) {
    numberChoices();
    // A card that may be reserved but not bought says what it lacks (the server's note).
    const lack = candidates.map((a) => a.note).find(Boolean);
    const why = lack ? ` You cannot ${variantOf(state.game.variant).verbs.buy} it now: ${lack}.` : "";
    say(`${pick}: ${candidates.map((a) => a.text).join(" or ")}?${why}`);
    if (lack) {
      const p = document.createElement("p");
      p.className = "lack";
      p.textContent = `Not now: ${lack}.`;
      box.append(p);
    }
    return;
  }
  const verbs = variantOf(state.game.variant).verbs;
  const text = pick.startsWith("deck ") ? `${verbs.reserve} ${pick}` : `${verbs.buy} ${pick}`;
  tryButton(`${text}: why not?`, text);
  say(`You can neither buy nor reserve ${pick} now.`);
}

// The legal moves that pick exactly the tokens (cells) picked so far, to confirm; with none,
// a button sends the take as typed, for the server to say why not.
function offerTakes() {
  const picked = state.picked;
  const exact = state.game.legal.filter((a) => a.picks.length && a.picks.every(isSelectable)
    && samePlaces(a.picks, picked));
  drawChoices(exact);
  const parts = picked.map(placePart);
  if (!exact.length && picked.length) {
    // Cells are named one by one (`take a1 b2`), a bank's tokens by their letters (`take wu`).
    const text = `${variantOf(state.game.variant).verbs.take} ${parts.join(picked.every(isCell) ? " " : "")}`;
    tryButton(text, text);
    say(`No legal move takes exactly ${parts.join(" ")}; pick more, or try it to see why.`);
  } else if (exact.length) {
    const notes = picked.map((p) => (state.game.place_notes || {})[p]).filter(Boolean);
    say(`Confirm: ${exact.map((a) => a.text).join(" or ")}.${notes.length ? ` ${notes[0]}` : ""}`);
  }
}

export function cancel() {
  if (!state.game) return;
  state.picked = [];
  drawSelection();
  drawChoices();
  say("");
}
