// Small helpers shared by every page: DOM building (never innerHTML with data) and the API.
import { formatNumber, lang, N_, t, tn } from "/static/i18n.js";

export { formatDecimal, formatList, formatNumber, isolate, lang, N_, t, tf, tn, tnf } from "/static/i18n.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

export class ApiError extends Error {
  constructor(message, code, status) { super(message); this.code = code; this.status = status; }
}

export async function api(path, body, method) {
  const init = { method: method || (body === undefined ? "GET" : "POST"), credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  if (!response.ok) {
    throw new ApiError((data && data.error) || t("request failed ({status})", { status: response.status }), data && data.code,
      response.status);
  }
  return data;
}

export function replaceChildren(node, ...children) {
  node.replaceChildren();
  for (const child of children.flat(Infinity)) if (child !== null && child !== undefined && child !== false) node.append(child);
}

export function savedName() { try { return localStorage.getItem("ludus-name") || ""; } catch (_) { return ""; } }
export function saveName(name) { try { localStorage.setItem("ludus-name", name); } catch (_) { /* private mode */ } }

// Load a game's page module, or the generic one when the game has none yet.
export async function gameModule(name) {
  const pages = await api("/api/pages");
  const info = pages[name] || { page: false, data: {} };
  const base = `/games/${encodeURIComponent(name)}`;
  if (info.style && !document.querySelector(`link[data-game-style="${name}"]`)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = `${base}/page.css`;
    link.dataset.gameStyle = name;
    const loaded = new Promise((resolve) => { link.onload = resolve; link.onerror = resolve; });
    document.head.append(link);
    await loaded;  // draw the board only once its styles apply
  }
  const mod = info.page ? await import(`${base}/page.js`) : await import("/static/games/generic.js");
  return { mod, data: info.data || {} };
}

// A seat's name as the engine gives it ("Seat 2", "You"), in the reader's language; a name of the
// game's own (a colour, a fighter) is left as it is.
export function seatWord(name) {
  const m = /^Seat (\d+)$/.exec(String(name));
  if (m) return t("Seat {number}", { number: Number(m[1]) });
  return name === "You" ? t("You") : name;
}

// The built-in bots' kinds in words ("random" stays "random" in English, as the server names it).
const BOT_KINDS = { random: N_("random"), heuristic: N_("heuristic"), trained: N_("trained") };
export function botName(kind) { return BOT_KINDS[kind] ? t(BOT_KINDS[kind]) : kind; }

// A name the server gives a seat ("Random bot 2", "Seat 3 (open)") in the reader's language; a
// person's own name is left as it is.
export function playerWord(name) {
  const text = String(name);
  if (lang === "en") return text;  // the server's own words are English
  let m = /^(\w+) bot (\d+)$/.exec(text);
  if (m && BOT_KINDS[m[1].toLowerCase()]) return t("{kind} bot {number}", { kind: botName(m[1].toLowerCase()), number: Number(m[2]) });
  m = /^(\w+) bot$/.exec(text);  // a bot's public name on the leaderboards
  if (m && BOT_KINDS[m[1].toLowerCase()]) return t("{kind} bot", { kind: botName(m[1].toLowerCase()) });
  m = /^Seat (\d+) \(open\)$/.exec(text);
  if (m) return t("Seat {number} (open)", { number: Number(m[1]) });
  return seatWord(text);
}

// A rating pool's label as the games write it ("2 players", "3 to 8 players"), in the reader's language.
export function poolWords(label) {
  const text = String(label || "");
  let m = /^(\d+) players?$/.exec(text);
  if (m) return tn("{count} player", "{count} players", Number(m[1]), { count: Number(m[1]) });
  m = /^(\d+) to (\d+) players$/.exec(text);
  if (m) return t("{min} to {max} players", { min: Number(m[1]), max: Number(m[2]) });
  return text;
}

// Rules' labels may name seats by number ("deal Blue 9 to seat 1"); players know each other by name.
export function withSeatNames(text, names) {
  return String(text).replace(/\b[Ss]eat (\d+)\b/g, (whole, n) => (names || [])[Number(n) - 1] || whole);
}

// ---------------------------------------------------------------- ratings
// A rating is shown as "1562 ± 210": the rating (60·mu) and its uncertainty (two standard
// deviations, 2·60·sigma). A provisional one (fewer than PROVISIONAL_GAMES rated games in its
// pool) gets a "?" after the number and a "provisional" tag that says why, in words.
export const PROVISIONAL_GAMES = 10;
export const PROVISIONAL_WHY = t("fewer than {count} rated games, so the rating may still change a lot", { count: PROVISIONAL_GAMES });
export const PROVISIONAL_TEXT = t("provisional: {why}", { why: PROVISIONAL_WHY });

export function ratingText(r) { return `${formatNumber(r.rating)}${r.provisional ? "?" : ""} ± ${formatNumber(r.deviation)}`; }

export function ratingNodes(r) {
  return [h("span", { class: "rating-number" }, ratingText(r)),
    r.provisional ? h("span", { class: "badge provisional", title: PROVISIONAL_TEXT }, t("provisional")) : null];
}

export function gamesText(n) { return tn("{count} rated game", "{count} rated games", n, { count: n }); }

// Every page's header links to the leaderboards, just before the account link (the two kept
// together at the end of the bar); pages whose HTML already has the link keep theirs.
function ratingsLink() {
  const account = document.getElementById("account-link");
  if (!account || document.getElementById("ratings-link")) return;
  const link = h("a", { class: "ratings-link", id: "ratings-link", href: "/ratings" }, t("Ratings"));
  if (location.pathname === "/ratings") link.setAttribute("aria-current", "page");
  const pair = h("span", { class: "header-links" });
  account.replaceWith(pair);
  pair.append(link, account);
}
if (typeof document !== "undefined") ratingsLink();

// The header's "Your games" link names the logged-in account; resolves to the account (or null).
export async function accountLink() {
  try {
    const me = await api("/api/me?games=false");
    const link = document.getElementById("account-link");
    if (link && me.account) link.textContent = me.account.name;
    return me.account;
  } catch (_) {
    return null;
  }
}

// A logged-in player sits under the account's name: fill the name box with it, read-only.
export function useAccountName(input, account) {
  if (!account || !input) return;
  input.value = account.name;
  input.readOnly = true;
  input.title = t("your account's name");
}
