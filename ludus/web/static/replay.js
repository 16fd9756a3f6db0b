// The replay viewer of a finished game: each frame is the table after one move, as the chosen
// seat saw it (the server opens replays only once the game is over). Below it, the post-game
// analysis of one player: started on the server, followed with a progress bar, then shown as
// marks on the frames, a plot of the estimated win chance and a list of the marked moves.
import { accountLink, api, gameModule, h, replaceChildren, svg, withSeatNames } from "/static/common.js";

accountLink();  // the header names the logged-in account

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();
const page = { frames: [], names: [], index: 0, mod: null, data: {}, review: null, byPly: new Map(), polling: null };
const MARK_WORDS = { inaccuracy: "Inaccuracy", mistake: "Mistake", blunder: "Blunder" };

function seatName(i) {
  if (i === -2) return "Contender";
  if (i === -1) return "Chance";
  return page.names[i] || `Player ${i + 1}`;
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const pct = (x) => (x === null || x === undefined ? "?" : `${Math.round(100 * x)}%`);

// "Mistake: best was Pink 11 (52% vs 31% ± 6)": the played move's estimate against the best one's,
// with the standard error of their difference in percentage points.
function markText(d) {
  const se = d.std_error === null ? "?" : Math.round(100 * d.std_error);
  return `${MARK_WORDS[d.mark]}: best was ${withSeatNames(d.best, page.names)} ` +
    `(${pct(d.best_value)} vs ${pct(d.played_value)} ± ${se})`;
}

function show(i) {
  page.index = Math.max(0, Math.min(page.frames.length - 1, i));
  const frame = page.frames[page.index];
  $("slider").value = page.index;
  const decision = page.byPly.get(frame.ply);
  let text = `Move ${frame.ply} of ${page.frames.length - 1}: ${withSeatNames(frame.label, page.names)}`;
  if (decision && MARK_WORDS[decision.mark]) text += `. ${markText(decision)}`;
  else if (decision) text += `. Estimated win chance ${pct(decision.played_value)} (${decision.mark}).`;
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
  title.textContent = `Estimated win chance of ${seatName(review.seat)} over the game`;
  const desc = svg("desc", { id: "analysis-plot-desc" });
  desc.textContent = `${review.decisions.length} decisions analysed, ${marked.length} marked; ` +
    "the list of marked moves below the plot gives the same information.";
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "group", "aria-labelledby": "analysis-plot-title",
    "aria-describedby": "analysis-plot-desc", class: "analysis-svg" }, title, desc);
  for (const v of [0, 0.5, 1]) {
    chart.append(svg("line", { x1: LEFT, x2: W - RIGHT, y1: plotY(v), y2: plotY(v), class: "grid" }));
    const label = svg("text", { x: LEFT - 6, y: plotY(v) + 4, class: "axis", "text-anchor": "end" });
    label.textContent = `${Math.round(v * 100)}%`;
    chart.append(label);
  }
  const moves = svg("text", { x: (LEFT + W - RIGHT) / 2, y: H - 6, class: "axis", "text-anchor": "middle" });
  moves.textContent = `move (1 to ${page.frames.length - 1})`;
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
      tabindex: "0", role: "button", "aria-label": `Move ${d.ply}: ${markText(d)}` });
    const tip = svg("title");
    tip.textContent = `Move ${d.ply}: ${markText(d)}`;
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
    h("button", { type: "button", class: "secondary small-button", onclick: () => show(d.ply) }, `Move ${d.ply}`),
    ` ${withSeatNames(d.played, page.names)}. ${markText(d)}`)) : h("li", {}, "No move is marked: each was the best or within the noise of the estimate."));
  const t = review.totals;
  let summary = `${seatName(review.seat)}: ${plural(t.analysed, "decision", "decisions")} analysed in ` +
    `${Math.round(review.seconds)} s (${plural(t.forced, "forced move", "forced moves")} skipped). Best ${t.best}, ` +
    `fine ${t.fine}, inaccuracies ${t.inaccuracy}, mistakes ${t.mistake}, blunders ${t.blunder}.`;
  if (review.not_analysed.length) {
    summary += ` The time limit ran out: ${plural(review.not_analysed.length, "decision was", "decisions were")} not analysed.`;
  }
  $("analysis-summary").textContent = summary;
  show(page.index);
}

function showProgress(job) {
  $("analysis-progress").classList.remove("hidden");
  const bar = $("analysis-bar");
  if (job.status === "queued" || !job.total) {
    bar.removeAttribute("value");
    $("analysis-text").textContent = job.status === "queued" ? "Waiting for the server…" : "Analysing…";
  } else {
    bar.max = job.total;
    bar.value = job.done;
    $("analysis-text").textContent = `Analysing: ${job.done} of ${job.total} decisions`;
  }
}

function handle(job) {
  if (job.status === "done") { showReview(job.review); return true; }
  if (job.status === "error") {
    $("analysis-progress").classList.remove("hidden");
    $("analysis-bar").value = 0;
    $("analysis-text").textContent = `The analysis failed: ${job.error}`;
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
      $("analysis-text").textContent = `The analysis could not be followed: ${err.message}`;
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
    $("analysis-text").textContent = `The analysis could not start: ${err.message}`;
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
  $("title").textContent = `${replay.table.title} · table ${code} · replay`;
  replaceChildren($("viewer"), h("option", { value: "" }, "spectator"),
    replay.names.map((n, i) => h("option", { value: i, selected: replay.viewer === i }, n)));
  replaceChildren($("analysis-seat"), replay.names.map((n, i) => h("option", { value: i, selected: replay.viewer === i }, n)));
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
    if (event.key === "ArrowLeft") show(page.index - 1);
    if (event.key === "ArrowRight") show(page.index + 1);
  });
  show(0);
  resume(Number($("analysis-seat").value));
}

start().catch((err) => { $("notice").textContent = `The replay could not start: ${err.message}`; });
