// A player's public page (/players/NAME for an account, /bots/KIND for a bot): each rating with
// its history, drawn as a small chart (the rating after each rated game and a band for its
// uncertainty), and the same history as a table of games with links to their replays.
import { accountLink, api, formatNumber, gamesText, h, lang, playerWord, poolWords, PROVISIONAL_WHY, ratingNodes, replaceChildren, svg, t,
  tf } from "/static/common.js";

accountLink();  // the header names the logged-in account

const $ = (id) => document.getElementById(id);
const [, section, rawName] = location.pathname.split("/");
const isBot = section === "bots";
const name = decodeURIComponent(rawName || "");
const START = { rating: 1500, deviation: 1000 };  // where every rating starts (mu 25, sigma 25/3)
let shownRatings = [];

function notice(text) {
  $("notice").textContent = text || "";
  $("notice").classList.toggle("error", Boolean(text));
}

function day(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : at.toLocaleDateString(lang === "en" ? undefined : lang, { dateStyle: "medium" });
}

function time(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : at.toLocaleTimeString(lang === "en" ? undefined : lang, { timeStyle: "short" });
}

function ordinal(n) {
  // TRANSLATORS: a place in a game's result ("1st"); English writes its own endings
  if (lang !== "en") return t("{number}th", { number: n });
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${tail}`;
}

function placeText(row) {
  return row.players ? t("{place} of {players}", { place: ordinal(row.place), players: row.players }) : ordinal(row.place);
}

// ---------------------------------------------------------------- the chart
// Drawn at the width it is shown at (one SVG unit a CSS pixel), so its text stays legible on a phone.
const H = 200, LEFT = 54, RIGHT = 12, TOP = 12, BOTTOM = 34;

function niceStep(span) {
  const rough = span / 5;
  const power = 10 ** Math.floor(Math.log10(Math.max(rough, 1)));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= rough) return m * power;
  return 10 * power;
}

function chartLabel(person, r) {
  const ratings = r.history.map((p) => p.rating);
  const last = r.history[r.history.length - 1];
  const where = { person, game: r.title, pool: poolWords(r.label) };
  if (!last) return t("Rating history of {person} in {game}, {pool}: no rated games yet.", where);
  return t("Rating history of {person} in {game}, {pool}: from {start} ± {startDeviation} at the start to {rating} ± {deviation} after {games}; highest {highest}, lowest {lowest}.",
    { ...where, start: START.rating, startDeviation: START.deviation, rating: last.rating, deviation: last.deviation,
      games: gamesText(r.history.length), highest: Math.max(...ratings), lowest: Math.min(...ratings) });
}

function drawChart(box, person, r) {
  const W = Math.max(260, Math.min(1000, Math.round(box.clientWidth || 600)));
  const points = [START, ...r.history];
  const n = points.length - 1;
  // the rating axis spans every band, with a little room; its lines fall on round numbers inside it
  let low = Math.min(...points.map((p) => p.rating - p.deviation));
  let high = Math.max(...points.map((p) => p.rating + p.deviation));
  if (high - low < 100) { low -= 50; high += 50; }
  const pad = (high - low) * 0.04;
  low -= pad;
  high += pad;
  const step = niceStep(high - low);
  const x = (i) => LEFT + (W - LEFT - RIGHT) * (n ? i / n : 0.5);
  const y = (v) => TOP + (H - TOP - BOTTOM) * (1 - (v - low) / (high - low));
  const fx = (i) => x(i).toFixed(1);
  const fy = (v) => y(v).toFixed(1);
  const label = chartLabel(person, r);
  const title = svg("title");
  title.textContent = label;
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: "img", "aria-label": label,
    class: "rating-chart" }, title);
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) {
    chart.append(svg("line", { x1: LEFT, x2: W - RIGHT, y1: fy(v), y2: fy(v), class: v === START.rating ? "grid start" : "grid" }));
    const tick = svg("text", { x: LEFT - 6, y: (y(v) + 4).toFixed(1), class: "axis", "text-anchor": "end" });
    tick.textContent = formatNumber(Math.round(v));
    chart.append(tick);
  }
  // the band: rating + deviation along the top, back along rating - deviation
  const upper = points.map((p, i) => `${fx(i)},${fy(p.rating + p.deviation)}`);
  const lower = points.map((p, i) => `${fx(i)},${fy(p.rating - p.deviation)}`).reverse();
  chart.append(svg("path", { d: `M${upper.join("L")}L${lower.join("L")}Z`, class: "band" }));
  chart.append(svg("path", { d: `M${points.map((p, i) => `${fx(i)},${fy(p.rating)}`).join("L")}`, class: "line" }));
  points.forEach((p, i) => chart.append(svg("circle", { cx: fx(i), cy: fy(p.rating), r: n > 40 ? 1.5 : 3, class: i ? "point" : "point start" })));
  // the x axis: the start, then each rated game by number
  const every = n <= 6 ? 1 : niceStep(n);  // at most about six numbers along the axis
  const xTicks = [0];
  for (let i = every; i < n; i += every) if (n - i >= every / 2) xTicks.push(i);
  if (n) xTicks.push(n);
  for (const i of xTicks) {
    const tick = svg("text", { x: fx(i), y: H - BOTTOM + 15, class: "axis", "text-anchor": i === 0 ? "start" : i === n ? "end" : "middle" });
    tick.textContent = i === 0 ? t("start") : formatNumber(i);
    chart.append(tick);
  }
  const xName = svg("text", { x: ((LEFT + W - RIGHT) / 2).toFixed(1), y: H - 4, class: "axis axis-name", "text-anchor": "middle" });
  xName.textContent = t("rated games played");
  chart.append(xName);
  const yName = svg("text", { x: 10, y: ((TOP + H - BOTTOM) / 2).toFixed(1), class: "axis axis-name", "text-anchor": "middle",
    transform: `rotate(-90 10 ${((TOP + H - BOTTOM) / 2).toFixed(1)})` });
  yName.textContent = t("rating");
  chart.append(yName);
  replaceChildren(box, chart);
}

// ---------------------------------------------------------------- the page
function historyTable(r) {
  const rows = r.history.map((row, i) => ({ row, n: i + 1 })).reverse();  // newest first
  return h("details", { class: "rating-history" },
    h("summary", {}, t("Rated games ({count})", { count: r.history.length })),
    h("table", { class: "plain history" },
      h("caption", { class: "small muted" }, t("Newest first; the rating is the one after that game.")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "n" }, "#"), h("th", { scope: "col" }, t("When")),
        h("th", { scope: "col" }, t("Table")), h("th", { scope: "col" }, t("Place")), h("th", { scope: "col" }, t("Rating after")))),
      h("tbody", {}, rows.map(({ row, n }) => h("tr", { "data-table": row.table },
        h("td", { class: "n" }, formatNumber(n)),
        h("td", {}, day(row.at), h("span", { class: "small muted when-time" }, ` ${time(row.at)}`)),
        h("td", {}, h("a", { href: `/t/${encodeURIComponent(row.table)}/replay`, "aria-label": t("Replay of table {code}", { code: row.table }) },
          row.table)),
        h("td", { class: "place" }, placeText(row), row.place === 1
          ? h("span", { class: "won", title: t("among the winners") }, h("span", { "aria-hidden": "true" }, " ★"),
            h("span", { class: "visually-hidden" }, " ", t("(won)"))) : null),
        h("td", { class: "rating" }, `${formatNumber(row.rating)} ± ${formatNumber(row.deviation)}`))))));
}

function ratingBlock(person, r, i) {
  const id = `rating-${i}`;
  const chart = h("div", { class: "chart-box", "data-chart": String(i) });
  const block = h("section", { class: "rating-block", id, "data-game": r.game, "data-pool": r.pool, "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title` }, h("a", { href: `/ratings?game=${encodeURIComponent(r.game)}` }, r.title), ` · ${poolWords(r.label)}`),
    h("p", { class: "rating-now" }, ratingNodes(r), h("span", { class: "muted small" }, ` · ${gamesText(r.games)}`)),
    r.provisional ? h("p", { class: "small muted" }, t("Provisional: {why}.", { why: PROVISIONAL_WHY })) : null,
    r.history.length ? chart : h("p", { class: "muted" }, t("No rated games yet.")),
    r.history.length ? historyTable(r) : null);
  return block;
}

function drawCharts() {
  shownRatings.forEach((r, i) => {
    const box = document.querySelector(`[data-chart="${i}"]`);
    if (box) drawChart(box, name, r);
  });
}

async function start() {
  if (!name || (section !== "players" && section !== "bots")) {
    notice(t("No player in the address."));
    return;
  }
  let player;
  try {
    player = await api(`/api/${isBot ? "bots" : "players"}/${encodeURIComponent(name)}`);
  } catch (err) {
    $("player-name").textContent = name;
    $("player-since").textContent = "";
    notice(err.status === 404
      ? (isBot ? t("There is no bot “{name}” with ratings here.", { name }) : t("There is no player named “{name}” here.", { name }))
      : t("Could not load this player: {error}", { error: err.message }));
    return;
  }
  document.title = t("{name} — Ludus ratings", { name: playerWord(player.name) });
  replaceChildren($("player-name"), playerWord(player.name), player.kind === "bot" && !/\bbot\b/i.test(player.name)
    ? h("span", { class: "badge bot-badge" }, t("bot")) : null);
  $("player-since").textContent = player.kind === "bot"
    ? t("A bot of this server. Its ratings are public, so players can see how strong each level is.")
    : player.since ? t("Playing here since {date}.", { date: day(player.since) }) : "";
  shownRatings = player.ratings || [];
  if (!shownRatings.length) {
    const link = h("a", { href: "/" }, t("Play a rated game from the lobby"));
    replaceChildren($("ratings"), h("section", { class: "rating-block" }, h("p", { class: "muted" },
      tf("{name} has no rated games yet. {link}.", { name: playerWord(player.name), link }))));
    return;
  }
  replaceChildren($("ratings"), shownRatings.map((r, i) => ratingBlock(player.name, r, i)));
  drawCharts();
  let resizeTimer = null;
  let lastWidth = window.innerWidth;
  window.addEventListener("resize", () => {
    if (window.innerWidth === lastWidth) return;
    lastWidth = window.innerWidth;
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(drawCharts, 150);
  });
}

start().catch((err) => notice(t("This page could not start: {error}", { error: err.message })));
