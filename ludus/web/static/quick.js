// "Play now" (quick play) in the lobby: choose a game and a player count, and the server seats
// you at the next table that fills up (ludus/server/quickplay.py; docs/server.md "Quick play").
//
// While waiting the page asks GET /api/quick every two seconds (the server drops a player whose
// page stops asking for 30 s) and goes to the table once it is matched. The request is kept in
// sessionStorage, so a reload finds its place again, and a pool emptied by a server restart is
// joined again by itself.
import { ApiError, api, formatNumber, h, poolWords, replaceChildren, saveName, savedName, t, tf, tn, useAccountName } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const STORE = "ludus-quick";        // sessionStorage: the request this tab is waiting with
const LEFT = "ludus-quick-left";    // localStorage: set when a tab leaves, so its sister tabs stop too
const POLL_MS = 2000;
const IDLE_S = 30;                  // the server forgets a page that has not asked for this long
const MIN_WAIT = 5;
const MAX_WAIT = 600;

let games = [];
let gamesLoaded = false;
let account = null;
const defaultSeats = {};            // game -> its standard seat count (games without a "players" option)
let waiting = null;                 // the last "waiting" answer, while this page waits
let answeredAt = 0;                 // performance.now() when it came
let pollTimer = null;
let tickTimer = null;
let busy = false;                   // a join or leave in flight
let lostContact = false;

// ---------------------------------------------------------------- the remembered request
function remembered() {
  try { return JSON.parse(sessionStorage.getItem(STORE) || "null"); } catch (_) { return null; }
}
function remember(request) {
  const { game, players, rated, bots_after, name } = request;
  try {
    sessionStorage.setItem(STORE, JSON.stringify({ game, players, rated, bots_after, name, asked: Date.now() }));
  } catch (_) { /* private mode: no reloads then */ }
}
function forget() { try { sessionStorage.removeItem(STORE); } catch (_) { /* nothing kept */ } }

// ---------------------------------------------------------------- words
function players(n) { return tn("{count} player", "{count} players", n, { count: n }); }

function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return t("{seconds} s", { seconds: s });
  return t("{minutes} min {seconds} s", { minutes: Math.floor(s / 60), seconds: String(s % 60).padStart(2, "0") })
    .replace(/\d/g, (d) => formatNumber(Number(d)));
}

function what(answer) {
  return answer.rated ? t("{game}, {players}, rated", { game: answer.title, players: players(answer.players) })
    : t("{game}, {players}", { game: answer.title, players: players(answer.players) });
}

function showError(message, link) {
  const box = $("quick-error");
  if (!message) { replaceChildren(box); return; }
  const text = String(message);
  replaceChildren(box, `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?:]$/.test(text) ? "" : "."}`,
    link ? [" ", h("a", { href: link.href }, link.text)] : null);
}

function announce(text) { $("quick-status").textContent = text; }

// The sentence for a refusal; the server's own sentence when the page has none better.
function refusal(err) {
  if (!(err instanceof ApiError) || !err.status) {
    return { message: t("Could not reach the server. Check your connection and try again.") };
  }
  if (err.code === "bad_name") return { message: t("Your name: {problem}", { problem: err.message }) };
  if (err.code === "bad_wait") {
    return { message: t("Choose a wait from {min} to {max} seconds before bots fill the seats", { min: MIN_WAIT, max: MAX_WAIT }) };
  }
  if (err.code === "not_logged_in") {
    return { message: t("Rated games are for players with an account"), link: { href: "/me", text: t("Log in or create one.") } };
  }
  return { message: err.message };
}

// ---------------------------------------------------------------- the form
function currentGame() { return games.find((g) => g.name === $("quick-game").value) || null; }

// The player counts quick play offers for a game: 2 and up, within what the game allows.
function counts(game) {
  if (!game) return [];
  const option = game.options.find((o) => o.name === "players");
  if (!option) {
    const n = defaultSeats[game.name];
    return n === undefined ? null : n >= 2 ? [n] : [];
  }
  if (option.choices) return option.choices.map(Number).filter((n) => Number.isInteger(n) && n >= 2 && n <= game.max_seats);
  const low = Math.max(2, game.min_seats, option.min ?? 2);
  const high = Math.min(game.max_seats, option.max ?? game.max_seats);
  return Array.from({ length: Math.max(0, high - low + 1) }, (_, i) => low + i);
}

function chosenCount() {
  const n = Number($("quick-players").value);
  return Number.isInteger(n) && n >= 2 ? n : null;
}

function poolFor(game, n) {
  return game && game.rated && n ? game.rated.pools.find((p) => p.min_seats <= n && n <= p.max_seats) || null : null;
}

async function loadDefaultSeats(game) {
  if (defaultSeats[game.name] !== undefined) return;
  try {
    const answer = await api(`/api/games/${encodeURIComponent(game.name)}/options`, { options: {} });
    defaultSeats[game.name] = answer.seats;
  } catch (_) {
    defaultSeats[game.name] = 0;
  }
  if (currentGame() === game) fillCounts();
}

function fillCounts(wanted) {
  const game = currentGame();
  const select = $("quick-players");
  const previous = wanted ?? chosenCount();
  const list = counts(game);
  if (list === null) {  // asking the server for the game's seat count
    replaceChildren(select, h("option", { value: "" }, "…"));
    loadDefaultSeats(game);
    updateForm();
    return;
  }
  replaceChildren(select, list.map((n) => h("option", { value: n }, players(n))));
  const option = game && game.options.find((o) => o.name === "players");
  const pick = [previous, option && option.default].find((n) => list.includes(n)) ?? list[0];
  if (pick !== undefined) select.value = String(pick);
  updateForm();
}

function updateForm() {
  const game = currentGame();
  const n = chosenCount();
  const pool = poolFor(game, n);
  $("quick-rated-row").classList.toggle("hidden", !pool);
  $("quick-rated").disabled = !account || !pool;
  if (!account || !pool) $("quick-rated").checked = false;
  $("quick-rated-login").classList.toggle("hidden", !!account);
  $("quick-rated-pool").textContent = pool ? t(" of games with {pool}", { pool: poolWords(pool.label) }) : "";
  $("quick-wait").disabled = !$("quick-bots").checked;
  let why = "";
  if (!gamesLoaded) why = t("Loading games…");
  else if (!games.length) why = t("No games are installed on this server.");
  else if (!game) why = t("Choose a game.");
  else if (counts(game) === null) why = t("Loading…");
  else if (!n) why = t("{game} has no game for two or more players here.", { game: game.title });
  $("quick-play").disabled = !!why || busy;
  $("quick-why").textContent = why;
}

// Reads the form; null (with the reason shown) when something must be fixed first.
function readRequest() {
  const game = currentGame();
  const players = chosenCount();
  const name = $("quick-name").value.trim();
  const wait = $("quick-wait");
  wait.removeAttribute("aria-invalid");
  $("quick-name").removeAttribute("aria-invalid");
  if (!game || !players) return null;
  if (!name) {
    $("quick-name").setAttribute("aria-invalid", "true");
    showError(t("Type your name first: the other players see it"));
    $("quick-name").focus();
    return null;
  }
  let botsAfter = null;
  if ($("quick-bots").checked) {
    botsAfter = Number(wait.value);
    if (wait.value.trim() === "" || !Number.isInteger(botsAfter) || botsAfter < MIN_WAIT || botsAfter > MAX_WAIT) {
      wait.setAttribute("aria-invalid", "true");
      showError(t("Choose a wait from {min} to {max} seconds before bots fill the seats, or untick the bots for people only",
        { min: MIN_WAIT, max: MAX_WAIT }));
      wait.focus();
      return null;
    }
  }
  return { game: game.name, players, rated: $("quick-rated").checked, bots_after: botsAfter, name };
}

function fillForm(request) {
  if (!request || !games.some((g) => g.name === request.game)) return;
  $("quick-game").value = request.game;
  fillCounts(request.players);
  $("quick-bots").checked = request.bots_after !== null && request.bots_after !== undefined;
  if ($("quick-bots").checked) $("quick-wait").value = String(request.bots_after);
  $("quick-rated").checked = !!(request.rated && account);
  updateForm();
}

// ---------------------------------------------------------------- waiting
function stopTimers() {
  clearTimeout(pollTimer);
  clearInterval(tickTimer);
  pollTimer = tickTimer = null;
  if (ticker) { ticker.terminate(); ticker = null; }
}

function showForm() {
  stopTimers();
  waiting = null;
  $("quick-waiting").classList.add("hidden");
  $("quick-form").classList.remove("hidden");
  updateForm();
}

function waitedNow() { return waiting ? waiting.waited + (performance.now() - answeredAt) / 1000 : 0; }

function drawWaiting() {
  if (!waiting) return;
  const waited = waitedNow();
  const shown = $("quick-waited");
  shown.textContent = duration(waited);
  shown.dataset.seconds = String(Math.floor(waited));
  const others = Math.max(0, waiting.waiting - 1);
  const count = { waiting: players(waiting.waiting), seats: waiting.players };
  $("quick-count").textContent = others
    ? tn("{waiting} of {seats} (you and {count} other)", "{waiting} of {seats} (you and {count} others)", others,
      { ...count, count: others })
    : t("{waiting} of {seats} (you)", count);
  let bots;
  if (waiting.bots_after === null) {
    bots = tn("People only: the game starts when {count} player is here.", "People only: the game starts when {count} players are here.",
      waiting.players, { count: waiting.players });
  } else if (waiting.waited >= waiting.bots_after || waited >= waiting.bots_after) bots = t("Bots are taking the empty seats…");
  else {
    bots = t("After {wait}, bots fill the empty seats (in {left}).",
      { wait: duration(waiting.bots_after), left: duration(Math.ceil(waiting.bots_after - waited)) });
  }
  $("quick-bots-line").textContent = bots;
}

function showWaiting(answer, focus) {
  const first = !waiting;
  const before = waiting ? waiting.waiting : null;
  waiting = answer;
  answeredAt = performance.now();
  $("quick-form").classList.add("hidden");
  $("quick-waiting").classList.remove("hidden");
  $("quick-waiting-title").textContent = t("Looking for a table: {what}", { what: what(answer) });
  drawWaiting();
  if (!tickTimer) tickTimer = setInterval(drawWaiting, 1000);
  if (first) announce(t("Waiting for players: {what}.", { what: what(answer) }));
  else if (before !== answer.waiting) {
    announce(t("{waiting} of {seats} waiting.", { waiting: players(answer.waiting), seats: answer.players }));
  }
  if (focus) $("quick-waiting-title").focus();
}

// A page in a background tab has its timers slowed to once a minute after five minutes, and the
// server would drop the player then; a worker's timer is not slowed, so its ticks catch up on a late poll.
let ticker = null;
let pollDue = 0;

function startTicker() {
  if (ticker || typeof Worker === "undefined") return;
  try {
    ticker = new Worker(import.meta.url, { type: "module" });
    ticker.onmessage = () => {
      if (waiting && pollTimer !== null && performance.now() >= pollDue + 250) { clearTimeout(pollTimer); poll(); }
    };
    ticker.onerror = () => { ticker = null; };  // the page's own timer goes on alone
  } catch (_) {
    ticker = null;
  }
}

function schedulePoll() {
  clearTimeout(pollTimer);
  pollDue = performance.now() + POLL_MS;
  pollTimer = setTimeout(poll, POLL_MS);
  startTicker();
}

function goTo(table) {
  stopTimers();
  forget();
  announce(t("Your table is ready: going there now."));
  $("quick-waiting-title").textContent = t("Your table is ready");
  replaceChildren($("quick-bots-line"), tf("Going to table {table}…", { table: h("a", { href: `/t/${table}` }, table) }));
  location.assign(`/t/${encodeURIComponent(table)}`);
}

// An answer of the server, while this page waits (or wants to).
async function handle(answer, request, focus) {
  if (answer.status === "matched" && answer.table) { goTo(answer.table); return; }
  if (answer.status === "waiting") {
    remember({ ...answer, name: request ? request.name : $("quick-name").value.trim() });
    showWaiting(answer, focus);
    schedulePoll();
    return;
  }
  // "none" while this page was waiting: the pool was emptied (a restart, say): ask again
  const again = remembered();
  if (again) await join(again, false);
  else showForm();
}

async function poll() {
  pollTimer = null;
  if (!waiting) return;
  let answer;
  try {
    answer = await api("/api/quick");
  } catch (_) {
    lostContact = true;
    showError(t("Lost contact with the server; still trying…"));
    schedulePoll();
    return;
  }
  if (!waiting) return;  // left meanwhile
  if (lostContact) { lostContact = false; showError(""); }
  await handle(answer, remembered(), false);
}

// Asks to wait: `byHand` when the player pressed Play now (then the waiting state takes the focus),
// otherwise the page asks again by itself (a reload or a restart), and keeps trying while the server is away.
async function join(request, byHand) {
  busy = true;
  updateForm();
  if (byHand) showError("");
  try {
    const answer = await api("/api/quick", {
      game: request.game, players: request.players, rated: !!request.rated, bots_after: request.bots_after ?? null,
      name: request.name || null,
    });
    if (lostContact) { lostContact = false; showError(""); }
    await handle(answer, request, byHand);
  } catch (err) {
    if (!byHand && !(err instanceof ApiError && err.status && err.status < 500)) {
      stopTimers();
      lostContact = true;
      showError(t("Lost contact with the server; still trying…"));
      setTimeout(() => resume(true), POLL_MS);
      return;
    }
    forget();
    showForm();
    const { message, link } = refusal(err);
    showError(message, link);
  } finally {
    busy = false;
    updateForm();
  }
}

async function leave() {
  stopTimers();
  forget();
  try { localStorage.setItem(LEFT, String(Date.now())); } catch (_) { /* no sister tabs told */ }
  const button = $("quick-leave");
  button.disabled = true;
  let failed = false;
  try { await api("/api/quick/leave", {}); } catch (_) { failed = true; }
  button.disabled = false;
  showForm();
  showError(failed ? t("Could not reach the server; you leave the line within {seconds} seconds anyway", { seconds: IDLE_S }) : "");
  announce(t("You left the line."));
  $("quick-play").focus();
}

// ---------------------------------------------------------------- start
function mirrorNames() {
  const quick = $("quick-name");
  const other = $("name");
  quick.value = savedName();
  quick.addEventListener("input", () => {
    quick.removeAttribute("aria-invalid");
    if (other && !other.readOnly) { other.value = quick.value; other.dispatchEvent(new Event("input")); }
  });
  if (other) other.addEventListener("input", () => { if (!quick.readOnly) quick.value = other.value; });
}

// Leaving the lobby by one of its own links or forms (another table, the ratings…) leaves the line,
// so nobody is seated at a quick table while sitting at another one; a reload keeps the place.
export function leaveQuietly() {
  if (!waiting) return;
  stopTimers();
  waiting = null;
  forget();
  try { fetch("/api/quick/leave", { method: "POST", credentials: "same-origin", keepalive: true }); } catch (_) { /* dropped in 30 s */ }
}

function leaveOnLinks() {
  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest && event.target.closest("a[href]");
    if (!link || link.target === "_blank" || link.closest("#quick-waiting")) return;  // the matched table's link
    leaveQuietly();
  });
}

// Where this player stands, on load: waiting again, sent to the table, or asking again after a restart.
async function resume(retrying) {
  const saved = remembered();
  let answer;
  try {
    answer = await api("/api/quick");
  } catch (_) {
    if (saved) {  // the server is away (restarting?): keep the request and try again
      lostContact = true;
      showError(t("Lost contact with the server; still trying…"));
      setTimeout(() => resume(true), POLL_MS);
    }
    return;
  }
  if (lostContact) { lostContact = false; showError(""); }
  if (answer.status === "waiting") {
    fillForm(answer);
    await handle(answer, saved, false);
  } else if (answer.status === "matched" && answer.table) {
    if (saved) goTo(answer.table);
    else showLastTable(answer);
  } else if (saved && (retrying || Date.now() - saved.asked < IDLE_S * 1000)) {
    await join(saved, false);  // a restart emptied the pool: the same request again
  } else if (saved) {
    forget();  // away longer than the server keeps a place: the choice stays in the form
  }
}

// The lobby calls this with its /api/games and account requests (so nothing is asked twice).
export async function startQuick(gamesRequest, accountRequest) {
  mirrorNames();
  updateForm();
  $("quick-game").addEventListener("change", () => { fillCounts(); showError(""); });
  $("quick-players").addEventListener("change", updateForm);
  $("quick-bots").addEventListener("change", () => { $("quick-wait").removeAttribute("aria-invalid"); updateForm(); });
  $("quick-form").addEventListener("submit", (event) => {
    event.preventDefault();
    if (busy || $("quick-play").disabled) return;
    const request = readRequest();
    if (!request) return;
    saveName(request.name);
    join(request, true);
  });
  $("quick-leave").addEventListener("click", leave);
  window.addEventListener("storage", (event) => {  // another tab of this browser left the line: so does this one
    if (event.key === LEFT && waiting) { stopTimers(); forget(); showForm(); announce(t("You left the line in another tab.")); }
  });
  leaveOnLinks();
  accountRequest.then((who) => {
    account = who;
    useAccountName($("quick-name"), account);
    updateForm();
  });
  try {
    games = await gamesRequest;
  } catch (_) {
    games = [];
  }
  gamesLoaded = true;
  replaceChildren($("quick-game"), games.map((g) => h("option", { value: g.name }, g.title)));
  fillCounts();
  await accountRequest;  // a rated request is shown as such
  fillForm(remembered());
  await resume(false);
}

// This module is also the ticker's worker (see startTicker): there it only ticks.
if (typeof document === "undefined" && typeof self !== "undefined" && typeof self.postMessage === "function") {
  setInterval(() => self.postMessage("tick"), POLL_MS / 2);
}

// Matched earlier (this tab went there already, or another browser of the same account did).
function showLastTable(answer) {
  const link = h("a", { href: `/t/${answer.table}` }, t("table {code}", { code: answer.table }));
  replaceChildren($("quick-last"), tf("Your last Play now table ({what}): {link}.", { what: what(answer), link }));
}
