// The review of a finished game: Review asks the server for it (computed once, in the
// background, stored with the game), its progress comes over the event stream
// (`event: review`, read by live.js), then the chart shows each seat's win probability.
// A click on a point jumps the replay to that decision, where the board marks the move
// played (orange) and the AI's preferred one (dashed green), both said in words.
import { call, gamePath } from "./api.js";
import { drawBoard } from "./board.js";
import { replayTo } from "./moves.js";
import { say } from "./panels.js";
import { $, pct, state, who } from "./state.js";

let review = null;   // the review shown (GET .../review's `review`)
let asked = null;    // the session whose review was asked for
let polling = false; // a fallback poll runs (a review the stream does not tell of)

// Forget the review of the table left.
export function resetReview() {
  review = null;
  asked = null;
  $("review").hidden = true;
  $("review-chart").innerHTML = "";
  $("review-seats").innerHTML = "";
  $("review-detail").innerHTML = "";
}

// Review the game shown: start it (or read it back), then follow its progress.
export async function startReview() {
  if (!state.game || !state.game.result) return;
  const mine = state.session;
  asked = mine;
  $("review").hidden = false;
  $("review-start").disabled = true;
  showProgress({ state: "pending", done: 0, total: state.game.step });
  try {
    onStatus(await call("POST", gamePath("/review")), mine);
  } catch (error) {
    $("review-start").disabled = false;
    $("review-status").textContent = `No review: ${error.message}`;
    say(error.message, "error");
  }
}

// An `event: review` of the stream: {state, done, total}.
export function onReviewEvent(info) {
  if (asked !== state.session || review) return;
  onStatus(info, state.session);
}

function onStatus(status, mine) {
  if (mine !== state.session) return;
  if (status.state === "done") {
    if (status.review) show(status.review);
    else fetchReview(mine);
  } else if (status.state === "failed" || status.state === "none") {
    $("review-start").disabled = false;
    $("review-status").textContent = status.message || "The review stopped: ask again.";
  } else {
    showProgress(status);
    poll(mine);
  }
}

// The event stream tells a review run by this server process; a GET every 3 s covers
// one the stream does not tell of (another process's).
async function poll(mine) {
  if (polling) return;
  polling = true;
  try {
    while (mine === state.session && !review) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      if (mine !== state.session || review) break;
      const status = await call("GET", gamePath("/review"));
      if (status.state !== "pending" && status.state !== "running") {
        onStatus(status, mine);
        break;
      }
      showProgress(status);
    }
  } catch (error) {
    $("review-status").textContent = error.message;
  } finally {
    polling = false;
  }
}

async function fetchReview(mine) {
  try {
    const status = await call("GET", gamePath("/review"));
    if (mine === state.session && status.review) show(status.review);
  } catch (error) {
    $("review-status").textContent = error.message;
  }
}

function showProgress(status) {
  const bar = $("review-progress");
  bar.hidden = false;
  bar.max = Math.max(1, status.total);
  bar.value = status.done;
  $("review-status").textContent = status.state === "pending"
    ? "The review waits for the server…"
    : `Reviewing: ${status.done} of ${status.total} decisions…`;
}

function show(result) {
  review = result;
  $("review-progress").hidden = true;
  $("review-status").textContent =
    `Reviewed by ${result.bot}. Click a point of the chart to see that decision on the board.`;
  const chart = $("review-chart");
  chart.innerHTML = result.chart;
  for (const point of chart.querySelectorAll("[data-decision]")) {
    point.setAttribute("tabindex", "0");
    point.setAttribute("role", "button");
    point.addEventListener("click", () => jumpTo(Number(point.dataset.decision)));
    point.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        jumpTo(Number(point.dataset.decision));
      }
    });
  }
  const table = $("review-seats");
  table.innerHTML = "<tr><th>seat</th><th>accuracy</th><th>average loss</th><th>inaccuracies</th><th>mistakes</th><th>blunders</th></tr>";
  for (const s of result.seats) {
    const row = table.insertRow();
    for (const text of [who(s.seat), s.accuracy.toFixed(0), s.average_loss.toFixed(3),
      s.grades.inaccuracy, s.grades.mistake, s.grades.blunder]) {
      row.insertCell().textContent = String(text);
    }
  }
  say("The review is ready.");
}

// The replay at decision `index` (the board before it), the move played and the AI's
// preferred one marked on it and said in words.
export async function jumpTo(index) {
  if (!review) return;
  const d = review.decisions[index];
  if (!d) return;
  for (const p of $("review-chart").querySelectorAll(".chosen")) p.classList.remove("chosen");
  const point = $("review-chart").querySelector(`[data-decision="${index}"]`);
  if (point) point.classList.add("chosen");
  await replayTo(index);
  try {
    const frame = await call("GET", gamePath(`/review/board?decision=${index}`));
    if (state.replayStep === index) drawBoard(frame.svg);
  } catch (error) {
    say(error.message, "error");
  }
  detail(d);
}

function detail(d) {
  const box = $("review-detail");
  box.innerHTML = "";
  box.dataset.decision = String(d.index);
  const head = document.createElement("p");
  head.innerHTML = "<strong></strong> ";
  head.firstChild.textContent = `Decision ${d.index} (turn ${d.turn}), ${who(d.seat)}: `;
  const grade = document.createElement("span");
  grade.className = `grade grade-${d.grade}`;
  grade.textContent = d.grade === "best" ? "the AI's move" : `${d.grade} (loses ${pct(d.loss)})`;
  head.append(grade);
  box.append(head);
  const played = document.createElement("p");
  played.className = "played";
  played.textContent = `Played ${d.played} (${pct(d.played_value)}${d.focused ? "*" : ""}): ${d.played_says}`;
  box.append(played);
  if (d.preferred !== d.played) {
    const preferred = document.createElement("p");
    preferred.className = "preferred";
    preferred.textContent = `The AI prefers ${d.preferred} (${pct(d.win)}): ${d.preferred_says}`;
    box.append(preferred);
  }
  if (d.line.length > 1) {
    const line = document.createElement("p");
    line.textContent = "The AI expects: " + d.line.slice(0, 4).map((s) => `${who(s.seat)} ${s.action}`).join(", then ");
    box.append(line);
  }
}
