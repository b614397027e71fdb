// The page's state, shared by its modules: one small object, not a dozen globals. Each
// module keeps to itself what only it needs (the event stream, the links of a new table).

export const state = {
  table: null,        // {id, token} from the address
  session: 0,         // bumped when the page opens another table: old loops stop
  game: null,         // the last snapshot
  picked: [],         // the places (tokens, Duel's cells) picked so far, in order
  replayStep: null,   // the step shown while replaying, else null
  busy: false,        // a move, an undo or a hint is on its way
  lastSeen: null,     // index of the last decision already announced
  variants: new Map(), // the server's registry (GET /api/v1): name -> {name, title, players, verbs}
};

export const $ = (id) => document.getElementById(id);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const SVGNS = "http://www.w3.org/2000/svg";

// The facts of a game from the server's registry (its name alone while it is unknown).
export function variantOf(name) {
  return state.variants.get(name) || {
    name, title: name, players: [], verbs: { buy: "buy", reserve: "reserve", take: "take" },
  };
}

export function mySeat(snapshot = state.game) {
  if (!snapshot) return null;
  if (snapshot.seat !== undefined) return snapshot.seat;
  return snapshot.viewer ?? null;
}

export function roleOf(seat) {
  const game = state.game;
  if (game.seats) {
    const s = game.seats.find((x) => x.seat === seat);
    if (s) return s.role;
  }
  return game.ai_seats.includes(seat) ? "ai" : "human";
}

// The display name a person chose for `seat` (null: none; the AI's seats have none). It is
// text: every caller sets it with textContent, never as markup.
export function nameOf(seat) {
  const s = state.game && state.game.seats ? state.game.seats.find((x) => x.seat === seat) : null;
  return s && s.name ? s.name : null;
}

// The same name for every page (no "you"): what the final standings say of `seat`.
export function label(seat) {
  if (roleOf(seat) === "ai") return `seat ${seat} (AI)`;
  const name = nameOf(seat);
  return name ? `${name} (seat ${seat})` : `seat ${seat}`;
}

export function who(seat) {
  const name = nameOf(seat);
  if (seat === mySeat()) return name ? `${name} (you)` : `seat ${seat} (you)`;
  if (roleOf(seat) === "ai") return `seat ${seat} (AI)`;
  return name ? `${name} (seat ${seat})` : `seat ${seat} (human)`;
}

export function pct(x) {
  return `${Math.round(100 * x)}%`;
}

// `1 card`, `2 cards`, `0 cards`: a number and its noun, singular for one.
export function counted(n, word, words = `${word}s`) {
  return `${n} ${n === 1 ? word : words}`;
}
