// Learn a game: its guided first game, one step at a time. The server keeps nothing per learner:
// this page asks for step k (its texts and the learner's own view, the same view a live seat is
// sent) and sends each move the learner tries to be judged. The board and the moves are drawn
// by the game's page module, exactly as on a table page; `act` asks the lesson instead of a
// WebSocket. The step is kept in the address (?step=k, 1 = the first step, n + 1 = the end) so
// a reload resumes where the learner was.
import { accountLink, api, gameModule, h, playerWord, replaceChildren, savedName, saveName, t, useAccountName, withSeatNames } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const game = decodeURIComponent(location.pathname.split("/")[2] || "");
const base = `/api/learn/${encodeURIComponent(game)}`;
const page = { meta: null, step: null, k: 0, mod: null, data: {}, pending: false, done: false, answer: null,
  ticket: 0 };

function notice(text) { $("notice").textContent = text || ""; }

function seatName(i) {
  if (i === -2) return t("Contender");
  if (i === -1) return t("Chance");
  const name = ((page.meta && page.meta.names) || [])[i];
  return name ? playerWord(name) : t("Player {number}", { number: i + 1 });
}

const withNames = (text) => withSeatNames(text, (page.meta && page.meta.names) || []);

// A move's name: the game's page module may say it in the reader's language (moveLabel(move, ctx),
// as on a table page), else the server's label.
function moveWords(move, context) {
  if (page.mod && page.mod.moveLabel) {
    try { return page.mod.moveLabel(move, context) || withNames(move.label); } catch (err) { console.error(err); }
  }
  return withNames(move.label);
}

// Plain text with blank lines between paragraphs, as the lesson files write it.
function paragraphs(text) {
  return String(text || "").split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean).map((p) => h("p", {}, p));
}

// ---------------------------------------------------------------- steps
function stepFromUrl() {
  const raw = new URLSearchParams(location.search).get("step");
  const n = page.meta ? page.meta.steps : 0;
  const k = raw !== null && /^\d+$/.test(raw) ? Number(raw) - 1 : 0;
  return k >= 0 && k <= n ? k : 0;
}

function keepInUrl(k, push) {
  const url = new URL(location.href);
  url.searchParams.set("step", String(k + 1));
  if (url.href === location.href) return;
  if (push) history.pushState({ step: k }, "", url);
  else history.replaceState({ step: k }, "", url);
}

async function go(k, { push = true, focus = true } = {}) {
  const ticket = ++page.ticket;  // a slow answer for a step the learner already left is dropped
  let step;
  try {
    step = await api(`${base}/steps/${k}`);
  } catch (err) {
    if (ticket === page.ticket) notice(t("This step could not be loaded: {error}", { error: err.message }));
    return;
  }
  if (ticket !== page.ticket) return;
  notice("");
  Object.assign(page, { step, k, done: false, answer: null, pending: false });
  keepInUrl(k, push);
  draw();
  if (focus) $("say").focus();
}

// ---------------------------------------------------------------- trying moves
async function act(action) {
  const step = page.step;
  if (page.pending || !step || step.end) return;
  if (!step.expect || page.done) {
    page.answer = { kind: "other", message: step.expect ? t("You already made this step's move: press Next.") :
      t("Nothing to play in this step: read it, then press Next.") };
    drawAnswer();
    return;
  }
  page.pending = true;
  const k = page.k;
  try {
    const answer = await api(`${base}/steps/${k}/try`, { action });
    if (page.k !== k || page.step !== step) return;  // the learner moved on meanwhile
    page.answer = answer;
    if (answer.kind === "done") {
      page.done = true;
      if (answer.view) page.step = { ...step, view: answer.view };  // the board with the move made
      draw();
      $("next").focus();
    } else drawAnswer();  // the board stays as it is, so the focused move keeps the focus
  } catch (err) {
    notice(err.message);
  } finally {
    page.pending = false;
  }
}

// ---------------------------------------------------------------- drawing
function ctx() {
  const step = page.step;
  const waiting = step.expect && !page.done && !step.end;
  // only a step that asks for a move offers moves; otherwise the board is a picture to read
  const view = waiting ? step.view : { ...step.view, legal: [] };
  return { view, you: view.you, names: view.names, data: page.data, seatName, act, pending: false,
    history: view.history.entries, live: waiting && !view.terminal, learning: true };
}

function draw() {
  const step = page.step;
  const meta = page.meta;
  const n = meta.steps;
  const end = step.end;
  $("progress").textContent = end ? t("Lesson finished: all {count} steps done", { count: n })
    : t("Step {number} of {count}", { number: page.k + 1, count: n });
  $("progress-bar").max = n;
  $("progress-bar").value = end ? n : page.k;
  $("lesson-title").textContent = end ? t("Well done!") : (step.expect ? t("Your move") : t("Read, then go on"));
  $("intro").classList.toggle("hidden", page.k !== 0 || end);
  replaceChildren($("intro"), page.k === 0 ? paragraphs(meta.intro) : []);
  replaceChildren($("say"), paragraphs(end ? step.outro : step.say));
  const wrong = !end && step.wrong && !page.done;
  $("wrong-box").classList.toggle("hidden", !wrong);
  if (wrong) {
    $("wrong-say").textContent = step.wrong_say || t("See what the rules say to a move they do not allow:");
    const move = moveWords(step.wrong, ctx());
    $("try-wrong").textContent = t("Try the wrong move: {move}", { move });
  }
  $("end-box").classList.toggle("hidden", !end);
  $("back").disabled = page.k === 0;
  $("next").classList.toggle("hidden", end || (step.expect && !page.done));
  $("next").textContent = page.k === n - 1 ? t("Finish") : t("Next");
  $("to-moves").classList.toggle("hidden", end || !step.expect || page.done);
  drawAnswer();
  const context = ctx();
  const view = context.view;
  replaceChildren($("seats"), meta.names.map((name, i) => h("li", {
    class: [view.to_move.includes(i) ? "to-move" : "", i === meta.seat ? "you" : ""].join(" "),
    "aria-current": view.to_move.includes(i) ? "true" : null },
  playerWord(name), i === meta.seat ? h("span", { class: "badge" }, t("you")) : null,
  view.to_move.includes(i) ? h("span", { class: "badge" }, t("to move")) : null)));
  $("status").textContent = end ? t("The lesson is over; this is how the game stands.")
    : context.live ? t("Your turn: make the move the lesson asks for.")
      : page.done ? t("Move made: press Next to go on.") : t("Nothing to play yet: read the lesson, then press Next.");
  try {
    page.mod.board($("board"), context);
    if (!(page.mod.moves && page.mod.moves($("moves"), context))) genericMoves($("moves"), context);
  } catch (err) {
    console.error(err);
    notice(t("The board could not be drawn; the lesson text still applies."));
  }
  drawLog(context);
}

// On a phone the board is long and the moves can be far below the lesson: this takes the learner
// (and the keyboard focus) to the first move they can make, wherever the game's page puts it.
function toMoves() {
  const first = ["#moves button:enabled", "#board button.playable:enabled", "#board button:enabled"]
    .map((selector) => document.querySelector(selector)).find(Boolean);
  if (!first) return;
  first.scrollIntoView({ block: "center" });
  first.focus();
}

function drawAnswer() {
  const box = $("answer");
  const a = page.answer;
  box.className = `lesson-answer${a ? ` answer-${a.kind}` : ""}`;
  box.dataset.kind = a ? a.kind : "";
  if (!a) { replaceChildren(box); return; }
  const lead = { refused: t("Not allowed:"), other: t("Not this one:"), done: t("Well played.") }[a.kind] || "";
  if (a.kind === "done") {
    replaceChildren(box, h("p", { class: "answer-lead" }, lead), paragraphs(a.message));
  } else {
    replaceChildren(box, h("p", {}, h("strong", { class: "answer-lead" }, lead), " ", withNames(a.message)));
  }
}

function genericMoves(root, context) {
  const view = context.view;
  if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return; }
  root.classList.remove("hidden");
  replaceChildren(root, h("h2", {}, t("Your moves")), h("div", { class: "legal-list" },
    view.legal.map((m) => h("button", { type: "button", class: "move", onclick: () => act(m.action) }, moveWords(m, context)))));
}

function drawLog(context) {
  const lines = [];
  let moves = 0;
  context.history.forEach((entry, i) => {
    let line;
    try { line = page.mod.logLine ? page.mod.logLine(entry, context, i) : defaultLogLine(entry); } catch (err) {
      console.error(err);
      line = defaultLogLine(entry);
    }
    if (line && typeof line === "object" && !(line instanceof Node) && !Array.isArray(line)) line = line.text;
    if (line === null || line === undefined || line === "") return;
    const numbered = entry[0] !== -1;
    if (numbered) moves += 1;
    lines.push(h("li", { class: numbered ? "move" : "note", value: Math.max(moves, 1) },
      h("span", { class: "n", "aria-hidden": numbered ? null : "true" }, numbered ? t("{number}.", { number: moves }) : "·"),
      h("span", { class: "text" }, typeof line === "string" ? withNames(line) : line)));
  });
  replaceChildren($("log"), lines.slice(-300));
}

function defaultLogLine([actor, action, label]) {
  if (action === "hidden") return actor === -1 ? null : t("{player} made a hidden move", { player: seatName(actor) });
  return actor === -1 ? label : t("{player}: {move}", { player: seatName(actor), move: label });
}

// ---------------------------------------------------------------- a real game
async function playReal(event) {
  event.preventDefault();
  const name = $("real-name").value.trim();
  if (!name) { notice(t("Please give a name for the table.")); $("real-name").focus(); return; }
  saveName(name);
  const meta = page.meta;
  const seats = meta.names.map((_, i) => (i === meta.seat ? { kind: "human" } : { kind: "bot" }));
  $("play-real").disabled = true;
  try {
    const table = await api("/api/tables", { game, options: meta.play_options || meta.options, seats, clock: null, listed: false,
      hints: true, name });
    location.href = `/t/${table.code}`;
  } catch (err) {
    notice(t("The table could not be created: {error}", { error: err.message }));
    $("play-real").disabled = false;
  }
}

// ---------------------------------------------------------------- start
async function start() {
  if (!game) { notice(t("No game named in the address.")); return; }
  try {
    page.meta = await api(base);
  } catch (err) {
    $("lesson-title").textContent = t("No lesson here");
    notice(err.status === 404 ? t("There is no tutorial for “{game}”. The lobby lists the games you can learn.", { game }) : err.message);
    return;
  }
  const loaded = await gameModule(game);
  page.mod = loaded.mod.default;
  page.data = loaded.data;
  document.title = t("Learn {game} — Ludus", { game: page.meta.game_title });
  const { title, game_title: gameTitle } = page.meta;  // "Learn Gladius" needs no "Learn Gladius:" before it
  $("title").textContent = title.includes(gameTitle) ? title : t("Learn {game}: {title}", { game: gameTitle, title });
  $("real-name").value = savedName();
  accountLink().then((account) => useAccountName($("real-name"), account));
  $("next").addEventListener("click", () => go(Math.min(page.k + 1, page.meta.steps)));
  $("to-moves").addEventListener("click", toMoves);
  $("back").addEventListener("click", () => go(Math.max(page.k - 1, 0)));
  $("restart").addEventListener("click", () => go(0));
  $("try-wrong").addEventListener("click", () => { if (page.step && page.step.wrong) act(page.step.wrong.action); });
  $("real-form").addEventListener("submit", playReal);
  window.addEventListener("popstate", () => go(stepFromUrl(), { push: false }));
  await go(stepFromUrl(), { push: false, focus: false });
}

start().catch((err) => notice(t("This page could not start: {error}", { error: err.message })));
