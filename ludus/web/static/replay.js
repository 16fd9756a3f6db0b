// The replay viewer of a finished game: each frame is the table after one move, as the chosen
// seat saw it (the server opens replays only once the game is over). Below it, the post-game
// analysis of one player: started on the server, followed with a progress bar, then shown as
// marks on the frames, a plot of the estimated win chance and a list of the marked moves.
import { accountLink, api, formatNumber, gameModule, h, lang, N_, playerWord, replaceChildren, svg, t, tn, withSeatNames } from "/static/common.js";

accountLink();  // the header names the logged-in account

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();
const page = { frames: [], names: [], index: 0, mod: null, data: {}, review: null, byPly: new Map(), polling: null };
const MARK_WORDS = { inaccuracy: N_("Inaccuracy"), mistake: N_("Mistake"), blunder: N_("Blunder") };
const RTL = document.documentElement.dir === "rtl";  // the arrow keys step the way the text goes

function seatName(i) {
  if (i === -2) return t("Contender");
  if (i === -1) return t("Chance");
  return page.names[i] ? playerWord(page.names[i]) : t("Player {number}", { number: i + 1 });
}

const names = () => page.names.map(playerWord);
const pct = (x) => (x === null || x === undefined ? "?" : t("{percent}%", { percent: Math.round(100 * x) }));

// "Mistake: best was Pink 11 (52% vs 31% ± 6)": the played move's estimate against the best one's,
// with the standard error of their difference in percentage points.
function markText(d) {
  const se = d.std_error === null ? "?" : formatNumber(Math.round(100 * d.std_error));
  return t("{mark}: best was {move} ({best} vs {played} ± {error})", { mark: t(MARK_WORDS[d.mark]),
    move: withSeatNames(d.best, names()), best: pct(d.best_value), played: pct(d.played_value), error: se });
}

// The move a frame shows, in words. In another language than English the game's page module says
// it as its log does (its own words, from the move itself); else, and as a fallback, the server's label.
function stepLabel(frame) {
  if (frame.ply === 0) return t("Start");
  if (lang !== "en" && page.mod.logLine && frame.action) {
    try {
      const line = page.mod.logLine([frame.actor, frame.action, frame.label], { history: page.entries, data: page.data, seatName,
        view: { observation: frame.observation } }, frame.ply - 1);
      const said = line && typeof line === "object" && !(line instanceof Node) ? line.text : line;
      if (typeof said === "string" && said) return said;
    } catch (err) { console.error(err); }
  }
  return withSeatNames(frame.label, names());
}

// An analysis mark in words: the three of MARK_WORDS, or "best" and "fine".
function markWord(mark) {
  return { best: t("best"), fine: t("fine") }[mark] || (MARK_WORDS[mark] ? t(MARK_WORDS[mark]) : mark);
}

function show(i) {
  page.index = Math.max(0, Math.min(page.frames.length - 1, i));
  const frame = page.frames[page.index];
  $("slider").value = page.index;
  const decision = page.byPly.get(frame.ply);
  let text = t("Move {number} of {count}: {move}", { number: frame.ply, count: page.frames.length - 1, move: stepLabel(frame) });
  if (decision && MARK_WORDS[decision.mark]) text += `. ${markText(decision)}`;
  else if (decision) {
    const chance = t("Estimated win chance {value} ({mark}).", { value: pct(decision.played_value), mark: markWord(decision.mark) });
    text += `. ${chance}`;
  }
  $("step").textContent = text;
  $("step").className = decision && MARK_WORDS[decision.mark] ? `marked mark-${decision.mark}` : "";
  page.mod.frame($("board"), frame.observation, { data: page.data, seatName, live: false });
  const cursor = document.querySelector(".analysis-plot .cursor");
  if (cursor) cursor.setAttribute("transform", `translate(${plotX(frame.ply)},0)`);
}

async function load(viewer) {
  const query = viewer === "" ? "" : `?seat=${viewer}`;
  const replay = await api(`/api/tables/${code}/replay${query}`);
  page.frames = replay.frames;
  page.entries = replay.frames.slice(1).map((f) => [f.actor, f.action, f.label]);  // the moves, as a log's history
  page.names = replay.names;
  $("slider").max = page.frames.length - 1;
  return replay;
}

// ------------------------------------------------------------------ analysis
// The plot is drawn at the width it is shown at (one SVG unit a CSS pixel), so its text stays legible on a phone.
let W = 640;
const H = 220, LEFT = 40, RIGHT = 12, TOP = 10, BOTTOM = 28;

function plotX(ply) {
  const last = Math.max(1, page.frames.length - 1);
  return LEFT + (W - LEFT - RIGHT) * (ply / last);
}
const plotY = (v) => TOP + (H - TOP - BOTTOM) * (1 - v);

function drawPlot(review) {
  W = Math.max(280, Math.min(960, Math.round($("analysis-plot").clientWidth || 640)));
  const marked = review.decisions.filter((d) => MARK_WORDS[d.mark]);
  const title = svg("title", { id: "analysis-plot-title" });
  title.textContent = t("Estimated win chance of {player} over the game", { player: seatName(review.seat) });
  const desc = svg("desc", { id: "analysis-plot-desc" });
  desc.textContent = t("{count} decisions analysed, {marked} marked; the list of marked moves below the plot gives the same information.",
    { count: review.decisions.length, marked: marked.length });
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", "aria-labelledby": "analysis-plot-title",
    "aria-describedby": "analysis-plot-desc", class: "analysis-svg" }, title, desc);
  for (const v of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: LEFT, x2: W - RIGHT, y1: plotY(v), y2: plotY(v), class: "grid" }));
    const label = svg("text", { x: LEFT - 6, y: plotY(v) + 4, class: "axis", "text-anchor": "end" });
    label.textContent = t("{percent}%", { percent: Math.round(v * 100) });
    chart.append(label);
  }
  const moves = svg("text", { x: (LEFT + W - RIGHT) / 2, y: H - 6, class: "axis", "text-anchor": "middle" });
  moves.textContent = t("move ({first} to {last})", { first: 1, last: page.frames.length - 1 });
  chart.append(moves);
  const points = review.curve.filter(([, v]) => v !== null).map(([ply, v]) => `${plotX(ply).toFixed(1)},${plotY(v).toFixed(1)}`);
  if (points.length) chart.append(svg("polyline", { points: points.join(" "), class: "curve" }));
  for (const [ply, v] of review.curve) {  // every analysed decision, small; the marked ones get a dot below
    if (v !== null) chart.append(svg("circle", { cx: plotX(ply), cy: plotY(v), r: 2.5, class: "point", "aria-hidden": "true" }));
  }
  chart.append(svg("line", { x1: 0, x2: 0, y1: TOP, y2: H - BOTTOM, class: "cursor",
    transform: `translate(${plotX(page.frames[page.index].ply)},0)` }));
  for (const d of marked) {
    const dot = svg("circle", { cx: plotX(d.ply), cy: plotY(d.played_value), r: 7, class: `dot mark-${d.mark}`,
      tabindex: "0", role: "button", "aria-label": t("Move {number}: {mark}", { number: d.ply, mark: markText(d) }) });
    const tip = svg("title");
    tip.textContent = t("Move {number}: {mark}", { number: d.ply, mark: markText(d) });
    dot.append(tip);
    dot.addEventListener("click", () => show(d.ply));
    dot.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); show(d.ply); }
    });
    chart.append(dot);
  }
  replaceChildren($("analysis-plot"), chart);
}

function showReview(review) {
  page.review = review;
  page.byPly = new Map(review.decisions.map((d) => [d.ply, d]));
  $("analysis-progress").classList.add("hidden");
  $("analysis-result").classList.remove("hidden");
  drawPlot(review);
  const marked = review.decisions.filter((d) => MARK_WORDS[d.mark]);
  replaceChildren($("analysis-marks"), marked.length ? marked.map((d) => h("li", { class: `mark-${d.mark}` },
    h("button", { type: "button", class: "secondary small-button", onclick: () => show(d.ply) }, t("Move {number}", { number: d.ply })),
    ` ${withSeatNames(d.played, names())}. ${markText(d)}`))
    : h("li", {}, t("No move is marked: each was the best or within the noise of the estimate.")));
  const totals = review.totals;
  const decisions = tn("{count} decision", "{count} decisions", totals.analysed, { count: totals.analysed });
  const forced = tn("{count} forced move", "{count} forced moves", totals.forced, { count: totals.forced });
  let summary = t("{player}: {decisions} analysed in {seconds} s ({forced} skipped). Best {best}, fine {fine}, inaccuracies {inaccuracy}, mistakes {mistake}, blunders {blunder}.",
    { player: seatName(review.seat), decisions, seconds: Math.round(review.seconds), forced, best: totals.best, fine: totals.fine,
      inaccuracy: totals.inaccuracy, mistake: totals.mistake, blunder: totals.blunder });
  if (review.not_analysed.length) {
    const n = review.not_analysed.length;
    const late = tn("The time limit ran out: {count} decision was not analysed.", "The time limit ran out: {count} decisions were not analysed.",
      n, { count: n });
    summary += ` ${late}`;
  }
  $("analysis-summary").textContent = summary;
  show(page.index);
}

function showProgress(job) {
  $("analysis-progress").classList.remove("hidden");
  const bar = $("analysis-bar");
  if (job.status === "queued" || !job.total) {
    bar.removeAttribute("value");
    $("analysis-text").textContent = job.status === "queued" ? t("Waiting for the server…") : t("Analysing…");
  } else {
    bar.max = job.total;
    bar.value = job.done;
    $("analysis-text").textContent = t("Analysing: {done} of {total} decisions", { done: job.done, total: job.total });
  }
}

function handle(job) {
  if (job.status === "done") { showReview(job.review); return true; }
  if (job.status === "error") {
    $("analysis-progress").classList.remove("hidden");
    $("analysis-bar").value = 0;
    $("analysis-text").textContent = t("The analysis failed: {error}", { error: job.error });
    return true;
  }
  if (job.status === "none") return true;
  showProgress(job);
  return false;
}

function stopPolling() {
  if (page.polling) clearTimeout(page.polling);
  page.polling = null;
  $("analyse").disabled = false;
}

function poll(seat) {
  page.polling = setTimeout(async () => {
    try {
      const job = await api(`/api/tables/${code}/analysis?seat=${seat}`);
      if (handle(job)) stopPolling(); else poll(seat);
    } catch (err) {
      stopPolling();
      $("analysis-text").textContent = t("The analysis could not be followed: {error}", { error: err.message });
    }
  }, 700);
}

async function analyse() {
  const seat = Number($("analysis-seat").value);
  stopPolling();
  $("analyse").disabled = true;
  $("analysis-result").classList.add("hidden");
  page.byPly = new Map();
  showProgress({ status: "running" });
  try {
    if ($("viewer").value !== String(seat)) {  // the marks are about this player's moves: see the game as they did
      $("viewer").value = String(seat);
      await load(seat);
      show(page.index);
    }
    const job = await api(`/api/tables/${code}/analysis`, { seat });
    if (handle(job)) stopPolling(); else poll(seat);
  } catch (err) {
    stopPolling();
    $("analysis-progress").classList.remove("hidden");
    $("analysis-text").textContent = t("The analysis could not start: {error}", { error: err.message });
  }
}

async function resume(seat) {
  // an analysis asked for earlier (by anyone: the game is over) is shown at once
  try {
    const job = await api(`/api/tables/${code}/analysis?seat=${seat}`);
    if (job.status === "done") showReview(job.review);
    else if (job.status === "running" || job.status === "queued") { $("analyse").disabled = true; handle(job); poll(seat); }
  } catch (_) { /* nothing to resume */ }
}

async function start() {
  $("record").href = `/api/tables/${code}/record`;
  $("back").href = `/t/${code}`;
  let replay;
  try { replay = await load(""); } catch (err) { $("notice").textContent = err.message; $("analysis").classList.add("hidden"); return; }
  const loaded = await gameModule(replay.table.game);
  page.mod = loaded.mod.default;
  page.data = loaded.data;
  $("title").textContent = t("{game} · table {code} · replay", { game: replay.table.title, code });
  replaceChildren($("viewer"), h("option", { value: "" }, t("spectator")),
    replay.names.map((n, i) => h("option", { value: i, selected: replay.viewer === i }, playerWord(n))));
  replaceChildren($("analysis-seat"), replay.names.map((n, i) => h("option", { value: i, selected: replay.viewer === i }, playerWord(n))));
  $("viewer").addEventListener("change", async () => { await load($("viewer").value); show(page.index); });
  $("analysis-seat").addEventListener("change", () => {
    stopPolling();
    page.byPly = new Map();
    $("analysis-result").classList.add("hidden");
    $("analysis-progress").classList.add("hidden");
    show(page.index);
    resume(Number($("analysis-seat").value));
  });
  $("analyse").addEventListener("click", analyse);
  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(page.index - 1));
  $("next").addEventListener("click", () => show(page.index + 1));
  $("last").addEventListener("click", () => show(page.frames.length - 1));
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "SELECT" || event.target.tagName === "INPUT") return;
    if (event.key === (RTL ? "ArrowRight" : "ArrowLeft")) show(page.index - 1);
    if (event.key === (RTL ? "ArrowLeft" : "ArrowRight")) show(page.index + 1);
  });
  show(0);
  resume(Number($("analysis-seat").value));
}

start().catch((err) => { $("notice").textContent = t("The replay could not start: {error}", { error: err.message }); });
