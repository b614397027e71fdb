// What a seat does besides picking places: play an action, ask for a hint, undo, save,
// and step through a finished game.
import { call, gamePath } from "./api.js";
import { drawBoard } from "./board.js";
import { refresh } from "./live.js";
import { accept, moveTable, say } from "./panels.js";
import { $, state } from "./state.js";

export function myTurn() {
  const game = state.game;
  return game && !game.result && state.replayStep === null && game.legal.length > 0;
}

// Play an action (its id, or a text: one that nothing legal names is sent as typed, so the
// server explains why not).
export async function play(action) {
  if (state.busy || !myTurn()) return;
  state.busy = true;
  try {
    const body = { action };
    if (state.game.version !== undefined) body.version = state.game.version;
    const snapshot = await call("POST", gamePath("/actions"), body);
    const mine = snapshot.log.length ? snapshot.log[snapshot.log.length - 1] : null;
    // An answer older than what the event stream brought meanwhile is not drawn again.
    if (accept(snapshot)) state.lastSeen = snapshot.last ? snapshot.last.index : mine && mine.index;
    if (mine) say(state.game.result ? "" : `You played ${mine.action}.`); // the standings say the end
  } catch (error) {
    if (error.code === "game_changed") {
      say("The game changed before your move arrived: nothing was played; here it is now.", "error");
      refresh();
    } else {
      say(error.message, "error");
    }
  } finally {
    state.busy = false;
  }
}

export async function hint() {
  const game = state.game;
  if (!game || !game.legal.length || state.busy) return;
  say("Asking the AI…", "thinking");
  try {
    const move = await call("POST", gamePath("/hint"), { seed: game.step });
    moveTable(move, "The AI would play");
    say(`Hint: ${move.action}.`);
  } catch (error) {
    say(error.message, "error");
  }
}

export async function undo() {
  if (!state.game || state.busy) return;
  state.busy = true;
  try {
    // The version seen: a doubled click or a retried request takes back one decision, not two.
    const snapshot = await call("POST", gamePath("/undo"), { version: state.game.version });
    if (accept(snapshot)) state.lastSeen = snapshot.last ? snapshot.last.index : null;
    say("Your last move was taken back.");
  } catch (error) {
    say(error.code === "undo_refused" ? `Not taken back: ${error.message}` : error.message, "error");
  } finally {
    state.busy = false;
  }
}

// Save: the saved game comes with the seat's token in the header, then is handed to the
// browser as a download (a plain link could not carry the header).
export async function save() {
  const game = state.game;
  if (!game) return;
  try {
    const saved = await call("GET", gamePath("/save"));
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

export async function replayTo(step) {
  const game = state.game;
  if (!game || !game.result) return;
  step = Math.max(0, Math.min(game.step, step));
  try {
    const frame = await call("GET", gamePath(`/replay?step=${step}`));
    state.replayStep = step;
    drawBoard(frame.svg);
    $("replay-step").value = String(step);
    $("replay-label").textContent = `move ${step} of ${frame.steps}` + (frame.action ? `: ${frame.action}` : "");
  } catch (error) {
    say(error.message, "error");
  }
}
