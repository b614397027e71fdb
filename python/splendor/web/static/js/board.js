// The board as the server drew it (SVG): its places (data-pick) made keyboard-reachable,
// rings drawn over places (the last move, the focus, the picks, the card shown), the
// phone's two-part layout and the arrow keys' moves between places.
import { $, state, SVGNS } from "./state.js";

// On a phone the board is drawn in two parts, one above the other: the table (bank, nobles,
// cards) and the seats' panels, each as wide as the screen (the one wide picture would be
// drawn at a third of its size). The places move, nothing is copied: one of each stays.
export const PHONE = window.matchMedia("(max-width: 700px)");
let boardSvg = ""; // the board last drawn, drawn again when the screen turns phone-sized

// The render gives the last move's places class="last"; the page rings and animates them.
export function drawBoard(svg) {
  boardSvg = svg;
  const board = $("board");
  board.innerHTML = svg;
  const main = board.querySelector("svg");
  if (main && PHONE.matches) splitForPhone(main);
  for (const g of board.querySelectorAll("[data-pick]")) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    const title = g.querySelector("title");
    g.setAttribute("aria-label", title ? title.textContent : g.dataset.pick);
    g.addEventListener("focus", () => ring(g, "focus-ring", true));
    g.addEventListener("blur", () => clearRings("focus-ring"));
  }
  for (const g of board.querySelectorAll(".last")) ring(g, "last-ring");
}

// The screen crossed the phone's width: the same board, laid out again.
export function redraw() {
  if (!boardSvg) return;
  drawBoard(boardSvg);
  if (state.game && state.replayStep === null) drawSelection();
}

function unionBox(elements) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const el of elements) {
    let b;
    try {
      b = el.getBBox();
    } catch (_) {
      continue;
    }
    if (!b.width && !b.height) continue;
    x0 = Math.min(x0, b.x);
    y0 = Math.min(y0, b.y);
    x1 = Math.max(x1, b.x + b.width);
    y1 = Math.max(y1, b.y + b.height);
  }
  return x1 > x0 ? { x: x0, y: y0, width: x1 - x0, height: y1 - y0 } : null;
}

function splitForPhone(main) {
  const seats = [...main.children].filter((c) => c.classList.contains("seat"));
  const places = [...main.children].filter((c) => !c.classList.contains("seat")
    && (c.hasAttribute("data-pick") || c.hasAttribute("data-key")));
  const seatBox = unionBox(seats);
  const placeBox = unionBox(places);
  if (!seatBox || !placeBox) return;
  const side = document.createElementNS(SVGNS, "svg");
  side.setAttribute("class", "seats");
  side.setAttribute("role", "img");
  side.setAttribute("aria-label", "the seats");
  side.setAttribute("font-family", main.getAttribute("font-family") || "sans-serif");
  const defs = main.querySelector("defs");
  if (defs) side.append(defs.cloneNode(true));
  for (const g of seats) side.append(g);
  const pad = 8;
  side.setAttribute("viewBox", `${seatBox.x - pad} ${seatBox.y - pad} ${seatBox.width + 2 * pad} ${seatBox.height + 2 * pad}`);
  main.setAttribute("viewBox", `0 0 ${placeBox.x + placeBox.width + pad} ${placeBox.y + placeBox.height + pad}`);
  main.removeAttribute("width");
  main.removeAttribute("height");
  main.classList.add("main");
  main.after(side);
}

// A rectangle drawn over a place of the board (whatever shapes it is made of).
export function ring(target, kind, only = false) {
  const svg = target.ownerSVGElement || target.closest("svg");
  if (!svg || typeof target.getBBox !== "function") return;
  if (only) clearRings(kind);
  let box;
  try {
    box = target.getBBox();
  } catch (_) {
    return;
  }
  if (!box.width && !box.height) return;
  const toRoot = svg.getScreenCTM() && target.getScreenCTM()
    ? svg.getScreenCTM().inverse().multiply(target.getScreenCTM()) : null;
  const corners = [[box.x, box.y], [box.x + box.width, box.y], [box.x, box.y + box.height], [box.x + box.width, box.y + box.height]]
    .map(([x, y]) => (toRoot ? new DOMPoint(x, y).matrixTransform(toRoot) : { x, y }));
  const xs = corners.map((p) => p.x);
  const ys = corners.map((p) => p.y);
  const pad = 4;
  const rect = document.createElementNS(SVGNS, "rect");
  rect.setAttribute("class", `ring ${kind}`);
  rect.setAttribute("x", String(Math.min(...xs) - pad));
  rect.setAttribute("y", String(Math.min(...ys) - pad));
  rect.setAttribute("width", String(Math.max(...xs) - Math.min(...xs) + 2 * pad));
  rect.setAttribute("height", String(Math.max(...ys) - Math.min(...ys) + 2 * pad));
  rect.setAttribute("rx", "8");
  rect.setAttribute("aria-hidden", "true");
  svg.append(rect);
}

export function clearRings(kind) {
  document.querySelectorAll(`#board .ring.${kind}`).forEach((r) => r.remove());
}

export function findPick(pick) {
  return [...$("board").querySelectorAll("[data-pick]")].find((g) => g.dataset.pick === pick) || null;
}

// The place of the board in focus, if any.
export function focusedPlace() {
  const el = document.activeElement;
  return el && el.closest ? el.closest("#board [data-pick]") : null;
}

// What a place names after its kind: `token w` -> `w`, `cell a1` -> `a1`.
export function placePart(pick) {
  return pick.slice(pick.indexOf(" ") + 1);
}

// The tokens (or Duel's cells) picked so far, listed and ringed on the board.
export function drawSelection() {
  const picked = state.picked;
  $("selection-box").hidden = picked.length === 0;
  $("selection").textContent = picked.map(placePart).join(" ");
  document.querySelectorAll("#board .picked").forEach((g) => g.classList.remove("picked"));
  clearRings("picked-ring");
  for (const pick of picked) {
    const g = findPick(pick);
    if (g) {
      g.classList.add("picked");
      ring(g, "picked-ring");
    }
  }
}

// Arrows move the focus to the nearest place of the board in that direction.
export function moveFocus(key) {
  const places = [...$("board").querySelectorAll("[data-pick]")];
  if (!places.length) return;
  const current = focusedPlace();
  if (!current) {
    places[0].focus();
    return;
  }
  const centre = (el) => {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  };
  const from = centre(current);
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  let best = null;
  let bestScore = Infinity;
  for (const el of places) {
    if (el === current) continue;
    const to = centre(el);
    const along = (to.x - from.x) * dx + (to.y - from.y) * dy;
    if (along <= 1) continue;
    const across = Math.abs((to.x - from.x) * dy + (to.y - from.y) * dx);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = el;
    }
  }
  if (best) {
    best.focus();
    best.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}
