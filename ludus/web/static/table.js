// A live table: joins or watches, keeps a WebSocket open (reconnecting by itself), and draws
// each view the server sends. The server sends only what this seat may see; this page keeps
// nothing else. The board itself is drawn by the game's page module.
import { accountLink, api, formatDecimal, formatList, formatNumber, botName, gameModule, h, playerWord, poolWords, replaceChildren, savedName, saveName, t, tf, useAccountName,
  withSeatNames } from "/static/common.js";
import { serverText } from "/static/errors.js";
import { openRules as openRulesPanel } from "/static/rules.js";

const signedIn = accountLink();  // the header names the account; a logged-in player joins under its name

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();
const page = { info: null, view: null, history: [], mod: null, data: {}, ws: null, pending: null, nextId: 1,
  retry: 0, watching: false, clockTimer: null, clockAt: 0, lastTurnMoves: -1, pendingMoves: null,
  summaries: new Map(), openSummary: null, overKey: null, boardKey: null,
  autoKey: null, autoTimer: null, autoSkip: null, pendingAuto: false,
  hintId: null, hintPlies: null };

// Forced moves: when the seat's only legal move is "pass-like" (no attack, no defence, a pass),
// the page plays it by itself after a short visible pause, unless the player turned the switch
// off. A page module may export passLike(move, ctx) -> bool; the default reads the label.
const AUTO_DELAY_MS = 600;
const AUTO_SWITCH_KEY = "ludus-auto-forced";
const defaultPassLike = (move) => /^(no |pass\b)/i.test(String(move.label || ""));

function notice(text, kind) {
  const box = $("notice");
  box.className = kind === "error" ? "error" : "";
  box.textContent = text || "";
}

function seatName(i) {
  if (i === -2) return t("Contender");
  if (i === -1) return t("Chance");
  const names = (page.view && page.view.names) || (page.info && page.info.names) || [];
  return names[i] ? playerWord(names[i]) : t("Player {number}", { number: i + 1 });
}

// A move's name: the game's page module may say it in the reader's language (moveLabel(move, ctx)),
// else the server's label.
function moveWords(move) {
  if (page.mod && page.mod.moveLabel) {
    try { return page.mod.moveLabel(move, ctx()) || move.label; } catch (err) { console.error(err); }
  }
  return move.label;
}

function withNames(text) { return withSeatNames(text, ((page.view && page.view.names) || []).map(playerWord)); }

function ctx() {
  return { view: page.view, you: page.view ? page.view.you : null, names: (page.view || page.info).names, data: page.data,
    seatName, act, pending: page.pending !== null, history: page.history,
    live: !(page.view && page.view.terminal) };  // once the game is over the board is a still picture
}

// The Rules panel (rules.js) with this table's own options, explained.
function openRules() {
  if (!page.info) return;
  openRulesPanel({ game: page.info.game, title: page.info.title, options: page.info.options || {}, where: t("at this table") });
}

// ---------------------------------------------------------------- joining
async function start() {
  if (!code) { notice(t("No table code in the address."), "error"); return; }
  try {
    page.info = await api(`/api/tables/${encodeURIComponent(code)}`);
  } catch (err) {
    notice(err.status === 404 ? t("There is no table {code}.", { code }) : serverText(err), "error");
    return;
  }
  const loaded = await gameModule(page.info.game);
  page.mod = loaded.mod.default;
  page.data = loaded.data;
  document.title = `${page.info.title} · ${code} — Ludus`;
  $("title").textContent = t("{game} · table {code}", { game: page.info.title, code });
  showRated(page.info);
  $("rules-button").addEventListener("click", openRules);
  $("rules-button").classList.remove("hidden");
  $("record").href = `/api/tables/${code}/record`;
  $("replay-link").href = `/t/${code}/replay`;
  $("rematch").addEventListener("click", rematch);
  $("leave").addEventListener("click", leave);
  $("hint-button").addEventListener("click", askHint);
  $("summary-dialog").addEventListener("close", summaryClosed);
  $("auto-forced").checked = autoForcedOn();
  $("auto-forced").addEventListener("change", () => {
    try { localStorage.setItem(AUTO_SWITCH_KEY, $("auto-forced").checked ? "on" : "off"); } catch (_) { /* private mode */ }
    if (page.view) { page.autoKey = null; draw(); }
  });
  const free = page.info.seats.filter((s) => s.kind === "human" && !s.taken);
  if (page.info.you === null && page.info.status === "open" && free.length) showJoin(free);
  else connect();
}

// A rated table says so beside its title (with its pool: "Rated · 2 players").
function showRated(info) {
  const tag = $("rated-tag");
  tag.classList.toggle("hidden", !info.rated);
  const text = info.rated ? (info.pool_label ? t("Rated · {pool}", { pool: poolWords(info.pool_label) }) : t("Rated")) : "";
  if (tag.textContent !== text) tag.textContent = text;
  if (info.rated) tag.title = t("The result counts for the players' ratings; standard rules, no hints.");
}

function showJoin(free) {
  $("join").classList.remove("hidden");
  signedIn.then((account) => $("join-rated").classList.toggle("hidden", !(page.info.rated && !account)));
  $("join-name").value = savedName();
  signedIn.then((account) => useAccountName($("join-name"), account));
  replaceChildren($("join-seat"), free.map((s) => h("option", { value: s.seat }, t("Seat {number}", { number: s.seat + 1 }))));
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    saveName(name);
    try {
      page.info = await api(`/api/tables/${code}/join`, { name, seat: Number($("join-seat").value) });
      $("join").classList.add("hidden");
      notice("");
      connect();
    } catch (err) {
      notice(serverText(err), "error");
      if (err.code === "account_needed") {
        $("notice").append(h("br"), h("a", { href: "/me", id: "account-needed-link" }, t("Log in or create an account")));
      }
    }
  });
  $("watch-button").addEventListener("click", () => { $("join").classList.add("hidden"); page.watching = true; connect(); });
  renderSeats(page.info, null, []);
}

// ---------------------------------------------------------------- connection
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${code}`);
  page.ws = ws;
  if (page.hintId !== null) clearHint();  // its answer would have come on the old connection
  $("conn").textContent = page.retry ? t("reconnecting…") : t("connecting…");
  ws.addEventListener("open", () => { page.retry = 0; $("conn").textContent = t("connected"); });
  ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ws.addEventListener("close", (event) => {
    if (page.ws !== ws) return;
    page.pending = null;
    if (event.code === 4404) {  // gone for good; an "expired" error sent just before says why
      if (!$("notice").textContent) notice(t("There is no table {code}.", { code }), "error");
      $("conn").textContent = "";
      return;
    }
    $("conn").textContent = t("connection lost — reconnecting…");
    const delay = Math.min(5000, 300 * 2 ** page.retry++);
    setTimeout(connect, delay);
  });
}

function send(msg) {
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) { notice(t("Not connected yet; wait a moment."), "error"); return false; }
  page.ws.send(JSON.stringify(msg));
  return true;
}

function act(action, auto = false) {
  if (page.pending !== null) return;
  const id = page.nextId++;
  const msg = { type: "act", action, moves: page.view.moves, id };
  if (auto) msg.auto = true;
  if (send(msg)) {
    page.pending = id;
    page.pendingAuto = auto;
    page.pendingMoves = page.view.moves;
    notice("");
    draw();
  }
}

function receive(msg) {
  if (msg.type === "hint" || (msg.type === "error" && msg.id !== null && msg.id === page.hintId)) {
    hintAnswer(msg);
    return;
  }
  if (msg.type === "view") {
    const from = msg.history.from;
    page.history = from === 0 ? msg.history.entries : page.history.slice(0, from).concat(msg.history.entries);
    page.view = msg;
    page.clockAt = performance.now();
    // A view that already counts the move we sent settles it, whether or not its ack came first.
    if (page.pending !== null && msg.moves !== page.pendingMoves) page.pending = null;
    draw();
  } else if (msg.type === "ack") {
    // The moves stay disabled until the view that counts this move has come; if it came first,
    // redraw now: no other view may follow (e.g. the same seat moves again and nothing else changes).
    if (msg.id === page.pending && page.view && page.view.moves !== page.pendingMoves) { page.pending = null; draw(); }
  } else if (msg.type === "error") {
    if (msg.id === page.pending) {
      if (page.pendingAuto) page.autoSkip = page.autoKey;  // refused: leave this move to the player
      page.pending = null;
    }
    notice(serverText(msg), "error");
    if (page.view) draw();
  }
}

// ---------------------------------------------------------------- drawing
function renderSeats(info, view, toMove) {
  const clocks = (view && view.clock) || {};
  const elapsed = (performance.now() - page.clockAt) / 1000;
  replaceChildren($("seats"), info.seats.map((s) => {
    const left = clocks[String(s.seat)];
    const you = view ? view.you === s.seat : info.you === s.seat;
    return h("li", { class: [toMove.includes(s.seat) ? "to-move" : "", you ? "you" : ""].join(" "),
      "aria-current": toMove.includes(s.seat) ? "true" : null },
      playerWord(s.name), you ? h("span", { class: "badge" }, t("you")) : null,
      s.kind === "bot" ? h("span", { class: "badge" }, t("bot: {level}", { level: botName(s.bot) })) : null,
      s.away ? h("span", { class: "badge away" }, t("bot playing ({why})", { why: awayWords(s.away) })) : null,
      s.kind === "human" && s.taken && !s.connected ? h("span", { class: "badge off" }, t("offline")) : null,
      left !== undefined ? h("span", { class: "badge clock" }, t("{seconds} s", { seconds: Math.max(0, Math.ceil(left - elapsed)) })) : null,
      toMove.includes(s.seat) ? h("span", { class: "badge" }, t("to move")) : null);
  }));
}

// Why a bot plays a seat (the server's word for it), in words.
function awayWords(away) {
  return { left: t("left"), timeout: t("timeout"), disconnected: t("disconnected") }[away] || away;
}

function draw() {
  const view = page.view;
  if (!view) return;
  const info = view.table;
  const you = view.you;
  const mine = you !== null && view.to_move.includes(you);
  showRated(info);
  renderSeats(info, view, view.to_move);
  let status;
  if (info.status === "open") status = t("Waiting for every seat to be taken…");
  else if (view.terminal) status = t("The game is over.");
  else if (mine) status = t("Your turn.");
  else status = t("Waiting for {players}.", { players: formatList(view.to_move.map(seatName), "unit") });
  $("status").textContent = status;
  const title = (page.info && page.info.title) || info.title;  // the page's, in the reader's language
  document.title = mine ? t("● Your turn — {game} · {code}", { game: title, code }) : `${title} · ${code}`;
  const away = you !== null ? info.seats[you].away : null;
  const banner = $("banner");
  if (away) {
    banner.classList.remove("hidden");
    const why = { left: t("you left"), timeout: t("your time ran out"), disconnected: t("you were disconnected") }[away] || away;
    replaceChildren(banner, h("span", {}, t("A bot is playing your seat ({why}).", { why }), " "),
      h("button", { type: "button", id: "resume", onclick: () => send({ type: "resume", id: page.nextId++ }) }, t("Take my seat back")));
  } else if (info.status === "open" && you !== null) {
    banner.classList.remove("hidden");
    replaceChildren(banner, tf("Waiting for players. Share this link: {link} (or the code {code}).",
      { link: h("a", { href: location.href, id: "share-link", dir: "ltr" }, location.href), code }));
  } else if (you === null && info.status !== "open") {
    banner.classList.remove("hidden");
    banner.textContent = t("You are watching: only public information is shown.");
  } else banner.classList.add("hidden");
  const context = ctx();
  // Redraw the board and the moves only when something on them changed: views also come for
  // changes elsewhere (someone connects, a spectator arrives), and replacing a button while it
  // is being clicked loses the click.
  const key = JSON.stringify([view.observation, view.legal, view.to_move, view.terminal, view.you, view.names,
    page.pending !== null, page.history.length]);
  if (key !== page.boardKey) {
    page.boardKey = key;
    page.mod.board($("board"), context);
    if (!(page.mod.moves && page.mod.moves($("moves"), context))) genericMoves($("moves"), context);
    drawGameOver(context);
    collectSummaries(context);
    drawLog(context);
  }
  $("leave").classList.toggle("hidden", you === null || info.status === "finished");
  $("replay-link").classList.toggle("hidden", !view.terminal);
  $("rematch").classList.toggle("hidden", !(view.terminal && you !== null && !info.rematch));
  const link = $("rematch-link");
  link.classList.toggle("hidden", !info.rematch);
  if (info.rematch) link.href = `/t/${info.rematch}`;
  if (mine && view.moves !== page.lastTurnMoves) {
    page.lastTurnMoves = view.moves;
    if (page.mod.focusMoves) page.mod.focusMoves($("board"));
  }
  autoPlay(context);
  drawHints(view, mine);
  if (!page.clockTimer && Object.keys(view.clock || {}).length) {
    page.clockTimer = setInterval(() => {
      if (!page.view || !Object.keys(page.view.clock || {}).length) { clearInterval(page.clockTimer); page.clockTimer = null; return; }
      renderSeats(page.view.table, page.view, page.view.to_move);
    }, 1000);
  }
}

// ---------------------------------------------------------------- hints
// At a table with hints on, the player to move may ask what the bot would play. The answer
// comes to this page alone; it is shown, never played, and cleared once the position changes.
function drawHints(view, mine) {
  const info = view.table;
  $("hint-row").classList.toggle("hidden", !info.hints);
  if (!info.hints) return;
  const can = mine && !view.terminal && info.status === "playing";
  $("hint-button").classList.toggle("hidden", !can);
  $("hint-help").classList.toggle("hidden", !can);
  if (page.hintPlies !== null && page.hintPlies !== info.plies) clearHint();  // the position moved on
  $("hint-button").disabled = !can || page.hintId !== null || page.pending !== null;
}

function clearHint() {
  page.hintId = null;
  page.hintPlies = null;
  const box = $("hint-box");
  box.removeAttribute("aria-busy");
  replaceChildren(box);
}

function askHint() {
  if (!page.view || page.hintId !== null) return;
  const id = page.nextId++;
  if (!send({ type: "hint", id })) return;
  page.hintId = id;
  page.hintPlies = page.view.table.plies;
  const box = $("hint-box");
  box.setAttribute("aria-busy", "true");
  replaceChildren(box, h("p", { class: "hint-busy" }, t("The bot is thinking…")));
  $("hint-button").disabled = true;
}

function percent(x) { return t("{percent}%", { percent: Math.round(100 * x) }); }

function hintAnswer(msg) {
  if (msg.id !== page.hintId) return;  // an answer to a question this page no longer asks
  const box = $("hint-box");
  box.removeAttribute("aria-busy");
  page.hintId = null;
  if (msg.type === "error") {
    const text = msg.code === "hint_stale" ? t("The position changed before the bot answered; ask again.") : serverText(msg);
    replaceChildren(box, h("p", { class: "hint-error" }, text));
  } else if (!page.view || msg.plies !== page.view.table.plies) {
    replaceChildren(box);  // the position changed while it travelled
  } else {
    const [best, ...others] = msg.moves;
    const what = msg.measure === "win chance" ? t("estimated win chance") : t("estimated share of the win (wins and score)");
    const worth = (m) => (m.chance === null ? "" : m.error ? t("{value} ± {error}", { value: percent(m.chance), error: percent(m.error) })
      : percent(m.chance));
    const move = (m, kind) => h(kind === "best" ? "strong" : "span", { class: kind === "best" ? "hint-move" : "hint-other" },
      withNames(moveWords(m)));
    // TRANSLATORS: between the other moves the bot considered
    const between = t("; ");
    const nextBest = others.map((m, i) => [i ? between : "", tf("{move} ({value})", { move: move(m, "other"), value: worth(m) })]);
    replaceChildren(box,
      msg.forced
        ? h("p", {}, tf("You have only one move: {move}.", { move: move(best, "best") }))
        : h("p", {}, tf("The bot would play {move}: {measure} {value}.", { move: move(best, "best"), measure: what, value: worth(best) })),
      others.length ? h("p", {}, tf("Next best: {moves}", { moves: h("span", {}, nextBest) })) : null,
      msg.forced ? null : h("p", { class: "small muted" },
        t("From {samples} simulated games over {seconds} s, using only what you can see.",
          { samples: msg.samples, seconds: formatDecimal(msg.seconds, 1) })));
  }
  if (page.view) drawHints(page.view, page.view.you !== null && page.view.to_move.includes(page.view.you));
}

// ---------------------------------------------------------------- forced moves
function autoForcedOn() {
  try { return localStorage.getItem(AUTO_SWITCH_KEY) !== "off"; } catch (_) { return true; }
}

function forcedMove(context) {
  const view = context.view;
  if (view.you === null || view.terminal || view.legal.length !== 1 || !view.to_move.includes(view.you)) return null;
  const move = view.legal[0];
  let pass = false;
  try { pass = !!(page.mod.passLike || defaultPassLike)(move, context); } catch (err) { console.error(err); }
  return pass ? move : null;
}

// Plays the forced move after AUTO_DELAY_MS, saying so meanwhile; anything that changes the turn
// (a new view, the switch, a move played by hand) cancels the countdown.
function autoPlay(context) {
  const view = context.view;
  const seated = view.you !== null && !view.terminal && view.table.status !== "finished";
  $("auto-row").classList.toggle("hidden", !seated);
  const move = page.pending === null && autoForcedOn() ? forcedMove(context) : null;
  const key = move ? JSON.stringify([view.moves, move.action]) : null;
  // "Played … for you" stays until the player's next decision of their own; then it would mislead
  if (!move && page.pending === null && view.legal.length) $("auto-note").textContent = "";
  if (key === page.autoKey) return;
  clearTimeout(page.autoTimer);
  page.autoTimer = null;
  page.autoKey = key;
  if (!move || key === page.autoSkip) return;
  $("auto-note").textContent = t("Your only move is “{move}”: playing it for you…", { move: moveWords(move) });
  page.autoTimer = setTimeout(() => {
    page.autoTimer = null;
    if (page.autoKey !== key || page.pending !== null || !autoForcedOn()) return;
    $("auto-note").textContent = t("Played your only move for you: “{move}”.", { move: moveWords(move) });
    act(move.action, true);
  }, AUTO_DELAY_MS);
}

function genericMoves(root, context) {
  const view = context.view;
  if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return; }
  root.classList.remove("hidden");
  replaceChildren(root, h("h2", {}, t("Your moves")), h("div", { class: "legal-list" },
    view.legal.map((m) => h("button", { type: "button", class: "move", disabled: context.pending,
      onclick: () => act(m.action) }, moveWords(m)))));
}

// ---------------------------------------------------------------- the move log
// Moves are numbered as the players saw them: each player's (or the contender's) move takes the
// next number; chance steps (deals, draws) are shown unnumbered when visible and not at all when
// hidden. Each summary (end of a round, a day, the game) gets a line with a button to reopen it.
//
// A page module's logLine(entry, ctx, index) returns what to show for one history entry
// [actor, action, label, extra?]: null (nothing), a string, a DOM node, or an object
// { text, marks: [{ kind, label }], breakBefore } where `marks` are short tags after the line
// (kind "winner", "challenge", "round", ... for styling and tests: li [data-mark=kind]) and
// `breakBefore` a heading line ("Round 2", "Day 3") shown before it, unnumbered.
function drawLog(context) {
  const log = $("log");
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 24;
  const byEntry = new Map();
  for (const s of page.summaries.values()) {
    if (!byEntry.has(s.at)) byEntry.set(s.at, []);
    byEntry.get(s.at).push(s);
  }
  const lines = [];
  let moves = 0;
  const summaryLines = (i) => (byEntry.get(i) || []).map((s) => h("li", { class: "summary-line", value: Math.max(moves, 1) },
    h("span", { class: "n", "aria-hidden": "true" }, ""),
    h("span", { class: "text" }, `${s.title} `,
      h("button", { type: "button", class: "secondary small-button", "data-summary": s.id,
        "aria-label": t("Show the summary: {title}", { title: s.title }), onclick: () => openSummary(s.id) }, t("Show summary")))));
  lines.push(...summaryLines(-1));
  page.history.forEach((entry, i) => {
    let line = page.mod.logLine ? page.mod.logLine(entry, context, i) : defaultLogLine(entry);
    let marks = [];
    if (line && typeof line === "object" && !(line instanceof Node) && !Array.isArray(line)) {
      if (line.breakBefore) {
        lines.push(h("li", { class: "break", value: Math.max(moves, 1), "data-break": line.breakBefore },
          h("span", { class: "n", "aria-hidden": "true" }, ""), h("span", { class: "text" }, withNames(line.breakBefore))));
      }
      marks = line.marks || [];
      line = line.text;
    }
    if (line !== null && line !== undefined && line !== "") {
      if (typeof line === "string") line = withNames(line);
      const numbered = entry[0] !== -1;
      if (numbered) moves += 1;
      const auto = entry[3] && entry[3].auto;
      lines.push(h("li", { class: numbered ? "move" : "note", value: Math.max(moves, 1), "data-entry": i },
        h("span", { class: "n", "aria-hidden": numbered ? null : "true" }, numbered ? t("{number}.", { number: moves }) : "·"),
        h("span", { class: "text" }, line,
          auto ? h("span", { class: "log-mark auto", "data-mark": "auto" }, t("played automatically (forced)")) : null,
          marks.map((m) => h("span", { class: `log-mark ${m.kind || ""}`, "data-mark": m.kind || "note" }, withNames(m.label))))));
    }
    lines.push(...summaryLines(i));
  });
  // A "Show summary" button that had the keyboard focus keeps it across the redraw.
  const focused = document.activeElement && log.contains(document.activeElement) && document.activeElement.dataset
    ? document.activeElement.dataset.summary : undefined;
  replaceChildren(log, lines.slice(-300));
  if (focused !== undefined) {
    const again = log.querySelector(`button[data-summary="${CSS.escape(focused)}"]`);
    if (again) again.focus({ preventScroll: true });
  }
  log.dataset.entries = String(page.history.length);  // every entry received, shown or not
  log.dataset.moves = String(moves);
  if (atBottom) log.scrollTop = log.scrollHeight;
}

function defaultLogLine([actor, action, label]) {
  if (action === "hidden") return actor === -1 ? null : t("{player} made a hidden move", { player: seatName(actor) });
  return actor === -1 ? label : t("{player}: {move}", { player: seatName(actor), move: label });
}

// ---------------------------------------------------------------- summaries
// A page module may export summaries(ctx) -> [{ id, title, body }]: each new id opens once as a
// dialog that stays until dismissed, and its log line reopens it. `id` must stay the same for
// the same summary (e.g. "round-3"); `body` is a DOM node (or a list of them), built afresh on
// each call. The game's end is one more summary, "game-over", drawn by this page.
function dismissedKey() { return `ludus-dismissed-${code}`; }
function dismissed() {
  try { return new Set(JSON.parse(sessionStorage.getItem(dismissedKey()) || "[]")); } catch (_) { return new Set(); }
}
function dismiss(id) {
  const seen = dismissed();
  seen.add(id);
  try { sessionStorage.setItem(dismissedKey(), JSON.stringify([...seen])); } catch (_) { /* private mode */ }
}

function collectSummaries(context) {
  let list = [];
  if (page.mod.summaries) {
    try { list = page.mod.summaries(context) || []; } catch (err) { console.error(err); list = []; }
  }
  if (context.view.terminal) list = list.concat([{ id: "game-over", title: t("Game over: final standings") }]);
  const seen = dismissed();
  const fresh = [];
  for (const s of list) {
    const known = page.summaries.get(s.id);
    if (known) { known.title = s.title; known.body = s.body; continue; }
    page.summaries.set(s.id, { id: s.id, title: s.title, body: s.body, at: page.history.length - 1 });
    if (!seen.has(s.id)) fresh.push(s.id);
  }
  // A page opened late (a reload, a spectator arriving, a game over) gets several at once: only the
  // newest opens, the older ones wait in the log. One that comes while another is open opens next.
  fresh.slice(0, -1).forEach(dismiss);
  if (fresh.length && page.openSummary === null) openSummary(fresh[fresh.length - 1]);
  if (page.openSummary !== null && page.openSummary !== "game-over") fillSummary(page.summaries.get(page.openSummary));
}

function fillSummary(s) {
  const body = $("summary-dialog-body");
  if (s.id === "game-over") {
    $("summary-dialog-title").classList.add("hidden");
    replaceChildren(body, $("summary"));  // the game-over view itself, with its buttons
    return;
  }
  $("summary-dialog-title").classList.remove("hidden");
  $("summary-dialog-title").textContent = s.title;
  replaceChildren(body, s.body || null);
}

function openSummary(id) {
  const s = page.summaries.get(id);
  const dialog = $("summary-dialog");
  if (!s) return;
  if (page.openSummary !== null && page.openSummary !== id) {  // another one was showing: it counts as seen
    dismiss(page.openSummary);
    $("summary-home").append($("summary"));
  }
  page.openSummary = id;
  dialog.setAttribute("aria-label", s.title);
  fillSummary(s);
  if (!dialog.open) dialog.showModal();
  $("summary-close").focus();
}

// The dialog's "close" event: its Close button, Escape, or the page closing it.
function summaryClosed() {
  const id = page.openSummary;
  if (id === null) return;
  page.openSummary = null;
  dismiss(id);
  $("summary-home").append($("summary"));  // the game-over view goes back into the page
  replaceChildren($("summary-dialog-body"));
  const waiting = [...page.summaries.keys()].reverse().find((other) => !dismissed().has(other));
  if (waiting) { openSummary(waiting); return; }
  const again = document.querySelector(`#log button[data-summary="${id}"]`);
  if (again && again.offsetParent !== null) again.focus();
}

// ---------------------------------------------------------------- the end of the game
// Final standings (best first, ties share a place), the winners in words, and the buttons for
// what comes next: rematch, download the record, replay. The page module's own summary (if it
// has one) is shown above the standings.
function drawGameOver(context) {
  const box = $("summary");
  const actions = $("actions");
  const view = context.view;
  if (!view.terminal) {
    box.classList.add("hidden");
    if (actions.parentElement !== $("actions-home")) $("actions-home").append(actions);
    return;
  }
  box.classList.remove("hidden");
  const result = view.result || { scores: [], winners: [] };
  const key = JSON.stringify([result, view.names, view.you]);
  if (page.overKey !== key) {
    page.overKey = key;
    const own = h("div", { id: "game-summary" });
    let drawn = false;
    if (page.mod.summary) {
      try { drawn = !!page.mod.summary(own, context); } catch (err) { console.error(err); drawn = false; }
    }
    const winners = result.winners || [];
    const youWon = view.you !== null && winners.includes(view.you);
    const order = result.scores.map((score, seat) => ({ seat, score })).sort((a, b) => b.score - a.score);
    let place = 0;
    const rows = order.map((r, i) => {
      if (i === 0 || r.score !== order[i - 1].score) place = i + 1;
      const won = winners.includes(r.seat);
      return h("tr", { class: [won ? "winner" : "", r.seat === view.you ? "you" : ""].join(" ") },
        h("td", {}, t("{number}.", { number: place })),
        h("th", { scope: "row" }, seatName(r.seat), r.seat === view.you ? h("span", { class: "badge" }, t("you")) : null),
        h("td", {}, formatNumber(r.score)),
        h("td", {}, won ? t("★ winner") : ""));
    });
    const names = formatList(winners.map(seatName));
    const said = winners.length === 0 ? t("Nobody won this game.")
      : winners.length === 1 ? t("Winner: {names}.", { names }) : t("Winners: {names}.", { names });
    replaceChildren(box,
      drawn ? own : h("h2", { id: "game-over-title" }, t("Game over")),
      h("p", { class: "leader", id: "winners" }, youWon ? t("You won! {result}", { result: said }) : said),
      h("table", { class: "plain standings", id: "standings" },
        h("caption", { class: "small muted" }, t("Final standings")),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Player")),
          h("th", { scope: "col" }, t("Score")), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Result"))))),
        h("tbody", {}, rows)),
      actions);
  } else if (actions.parentElement !== box) box.append(actions);
}

async function rematch() {
  try {
    const table = await api(`/api/tables/${code}/rematch`, {});
    location.href = `/t/${table.code}`;
  } catch (err) { notice(serverText(err), "error"); }
}

async function leave() {
  try {
    await api(`/api/tables/${code}/leave`, {});
    location.href = "/";
  } catch (err) { notice(serverText(err), "error"); }
}

start().catch((err) => notice(t("This page could not start: {error}", { error: err.message }), "error"));
