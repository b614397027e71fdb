// Following the table live: its server-sent events, read with fetch (EventSource cannot
// send a header). Each event names the game's version, and a new version means a new
// snapshot. A dropped stream (a network hiccup, a server restart) is reopened with backoff
// (0.5 s doubling to 5 s), and the snapshot fetched again once it is back.
import { apiUrl, call, gamePath, headers } from "./api.js";
import { accept, say, setConn } from "./panels.js";
import { onReviewEvent } from "./review.js";
import { drawHost, followRematch, showJoin } from "./seats.js";
import { $, sleep, state } from "./state.js";

let streamAbort = null; // closes the event stream of the table the page leaves
let fetching = false;   // a snapshot request is on its way
let again = false;      // an event came meanwhile: fetch once more afterwards

// Stop following the table shown (the page opens another one).
export function stop() {
  if (streamAbort) streamAbort.abort();
}

export async function follow(mine) {
  let delay = 500;
  let failures = 0;
  while (mine === state.session) {
    const abort = new AbortController();
    streamAbort = abort;
    let watchdog = null;
    const rearm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => abort.abort(), 45000); // keepalives come every 15 s
    };
    try {
      const response = await fetch(apiUrl(gamePath("/events")), {
        headers: headers(),
        cache: "no-store",
        signal: abort.signal,
      });
      if (mine !== state.session) {
        abort.abort();
        return;
      }
      if (!response.ok) {
        let body = null;
        try { body = await response.json(); } catch (_) { body = null; }
        const text = body && body.error ? body.error.message : `${response.status} ${response.statusText}`;
        if (body && body.error && body.error.code === "invitation") {
          setConn("", "");
          showJoin(); // the invitation's link: a name, then a seat
          return;
        }
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
        if (done || mine !== state.session) break;
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
    if (mine !== state.session) return;
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
  if (!data || (kind !== "game" && kind !== "message" && kind !== "review")) return;
  let info = null;
  try { info = JSON.parse(data); } catch (_) { info = null; }
  if (kind === "review") {
    if (info) onReviewEvent(info); // a review's progress: {state, done, total}
    return;
  }
  const game = state.game;
  if (!game || !info || info.version !== game.version || (info.seating ?? 0) !== (game.seating ?? 0)) {
    refresh();
  } else if (game.access === "host") {
    drawHost(); // someone came or went: the host's panel says who is connected
  }
  if (info && info.next) followRematch(info.next);
}

// One snapshot request at a time; events that come meanwhile ask for one more afterwards
// (for the table shown then, should the page have moved to another one meanwhile).
export async function refresh() {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    do {
      again = false;
      if (!state.table) break;
      const mine = state.session;
      const snapshot = await call("GET", gamePath());
      if (mine === state.session) accept(snapshot);
    } while (again);
  } catch (error) {
    if (error.code !== "offline") say(error.message, "error");
  } finally {
    fetching = false;
  }
}
