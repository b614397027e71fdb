// Telling a seat that its turn has come, even in another tab: the tab's title always says so;
// a short sound (made with the Web Audio API: no audio file) and a browser notification are
// both off until the player turns them on under "Alerts" (remembered in localStorage).
//
// They fire only when the turn passes to this page's seat (after the AI's or another
// person's move), never for a turn of the AI or of others, never on opening the page or
// after an undo, and never twice for one turn.
import { $, mySeat, state } from "./state.js";

const KEYS = { sound: "splendor-alert-sound", notify: "splendor-alert-notify" };
let seenIndex = null; // the index of the last decision drawn (null: nothing drawn yet)
let audio = null;   // the AudioContext, made at the first click that turns the sound on

function stored(key) {
  try {
    return localStorage.getItem(key) === "on";
  } catch (_) {
    return false; // no storage (private mode): every alert stays off
  }
}

function store(key, on) {
  try {
    if (on) localStorage.setItem(key, "on");
    else localStorage.removeItem(key);
  } catch (_) {
    // not remembered: it still holds for this page
  }
}

function tell(text) {
  $("alerts-note").textContent = text;
}

const notifications = () => "Notification" in window;

// Whether `game` asks this page's seat to decide now.
export function isMyTurn(game) {
  const seat = mySeat(game);
  return !!game && !game.result && seat !== null && game.current === seat && game.legal.length > 0;
}

// The tab's title: "● Your turn — splendor" on the seat's turn, else what the page shows.
function title(game) {
  const seat = mySeat(game);
  if (isMyTurn(game)) return "● Your turn — splendor";
  if (game.result) return "Game over — splendor";
  return seat === null ? "Watching — splendor" : `splendor — seat ${seat}`;
}

function beep() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  try {
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    const t0 = audio.currentTime + 0.01;
    // Two soft notes, a fifth apart, each 0.14 s.
    [[0, 660], [0.16, 990]].forEach(([at, hz]) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.2, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + 0.14);
      osc.connect(gain).connect(audio.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + 0.15);
    });
  } catch (_) {
    // no sound here: the title still says it
  }
}

function notify(game) {
  if (!notifications() || Notification.permission !== "granted") return;
  // The page in sight already shows it: a notification is for a tab in the background.
  if (!document.hidden && document.hasFocus()) return;
  const last = game.last;
  const note = new Notification("Your turn — splendor", {
    body: last && last.says ? last.says : "",
    tag: `splendor-${game.game_id}`,
    icon: "static/favicon.svg",
  });
  note.onclick = () => {
    window.focus();
    note.close();
  };
}

// A snapshot was drawn: the title, and the alerts turned on when the turn has just come back
// to this seat: another seat decided last, after the last decision this page saw. (Which
// snapshots arrive is a race: the AI's reply may come before the answer to one's own move.)
export function onSnapshot(game) {
  document.title = title(game);
  const index = game.last ? game.last.index : -1;
  const fresh = seenIndex !== null && index > seenIndex;
  if (fresh && isMyTurn(game) && game.last.seat !== mySeat(game) && state.replayStep === null) {
    if ($("alert-sound").checked) beep();
    if ($("alert-notify").checked) notify(game);
  }
  seenIndex = index;
}

// Another table is opened: its first snapshot alerts nothing.
export function resetAlerts() {
  seenIndex = null;
}

async function onNotifyChange() {
  const box = $("alert-notify");
  tell("");
  if (!box.checked) {
    store(KEYS.notify, false);
    return;
  }
  if (!notifications()) {
    box.checked = false;
    tell("This browser has no notifications.");
    return;
  }
  let permission = Notification.permission;
  if (permission !== "granted") {
    try {
      permission = await Notification.requestPermission();
    } catch (_) {
      permission = "denied";
    }
  }
  if (permission !== "granted") {
    box.checked = false;
    store(KEYS.notify, false);
    tell("Notifications are blocked for this page: allow them in the browser's site settings.");
    return;
  }
  store(KEYS.notify, true);
}

function onSoundChange() {
  const on = $("alert-sound").checked;
  store(KEYS.sound, on);
  if (on) beep(); // the click lets the page play sound, and lets you hear it
}

// The toggles, as the player left them (off the first time).
export function setupAlerts() {
  $("alert-sound").checked = stored(KEYS.sound);
  $("alert-notify").checked = stored(KEYS.notify) && notifications() && Notification.permission === "granted";
  $("alert-sound").addEventListener("change", onSoundChange);
  $("alert-notify").addEventListener("change", onNotifyChange);
}
