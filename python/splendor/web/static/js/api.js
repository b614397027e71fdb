// Calls to the JSON API, with the seat's token in the Authorization header, and its errors
// as Error objects carrying the server's stable code.
//
// Every address is relative to the page's own (document.baseURI), so the page works the
// same under a path prefix (behind a reverse proxy, at /splendor/) as at the root.
import { state } from "./state.js";

export function apiUrl(path) {
  return new URL(`api/v1${path}`, document.baseURI).href;
}

// A link of a seat, the spectators, the host or the invitation, as the server made it: an
// absolute address friends can open (the server's --public-url, the address behind its
// proxy, its network address rather than 127.0.0.1), resolved against the page's own
// address should it be relative.
export function pageLink(link) {
  return new URL(link, document.baseURI).href;
}

export function headers() {
  return state.table ? { Authorization: `Bearer ${state.table.token}` } : {};
}

// The message of an error answer (the server's own words where it sent any).
export async function errorText(response) {
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  return data && data.error ? data.error.message : `${response.status} ${response.statusText}`;
}

export async function call(method, path, body) {
  const init = { method, headers: headers(), cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(apiUrl(path), init);
  } catch (_) {
    const error = new Error("The server cannot be reached; the page keeps trying.");
    error.code = "offline";
    throw error;
  }
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const error = new Error(data && data.error ? data.error.message : `${response.status} ${response.statusText}`);
    error.code = data && data.error ? data.error.code : "http_error";
    error.status = response.status;
    throw error;
  }
  return data;
}

// The path of one table's endpoint.
export function gamePath(suffix = "") {
  return `/games/${encodeURIComponent(state.table.id)}${suffix}`;
}
