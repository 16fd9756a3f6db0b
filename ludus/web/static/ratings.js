// The leaderboards: one rated game at a time (chosen in the address, ?game=NAME), one table per
// pool of player counts. Ranked players come first, by rating; provisional ones follow, unranked.
import { accountLink, api, ApiError, h, PROVISIONAL_GAMES, PROVISIONAL_WHY, ratingNodes, replaceChildren } from "/static/common.js";

accountLink();  // the header names the logged-in account

const $ = (id) => document.getElementById(id);
let rated = [];       // the games with ratings, as /api/games lists them
let shown = null;     // the game whose leaderboard is on the page
let loading = 0;

function notice(text) {
  $("notice").textContent = text || "";
  $("notice").classList.toggle("error", Boolean(text));
}

function wantedGame() {
  const name = new URLSearchParams(location.search).get("game");
  return name || (rated.length ? rated[0].name : null);
}

function drawTabs(name) {
  replaceChildren($("game-tabs"), rated.map((g) => h("li", {},
    h("a", { href: `/ratings?game=${encodeURIComponent(g.name)}`, "data-game": g.name,
      "aria-current": g.name === name ? "page" : null,
      onclick: (event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        if (g.name === shown) return;
        history.pushState(null, "", `/ratings?game=${encodeURIComponent(g.name)}`);
        show();
      } }, g.title))));
}

function playerRow(entry) {
  return h("tr", { class: entry.provisional ? "provisional" : "", "data-kind": entry.kind },
    h("td", { class: "rank" }, entry.rank !== null && entry.rank !== undefined ? String(entry.rank)
      : h("span", { title: "no rank yet (provisional)" }, h("span", { "aria-hidden": "true" }, "–"),
        h("span", { class: "visually-hidden" }, "no rank yet"))),
    h("th", { scope: "row", class: "who" }, h("a", { href: entry.href }, entry.name),
      entry.kind === "bot" && !/\bbot\b/i.test(entry.name) ? h("span", { class: "badge bot-badge" }, "bot") : null),
    h("td", { class: "rating" }, ratingNodes(entry)),
    h("td", { class: "games-count" }, String(entry.games)));
}

function poolTable(board, pool) {
  const id = `pool-${pool.pool}`;
  const ranked = pool.players.filter((p) => !p.provisional);
  const provisional = pool.players.filter((p) => p.provisional);
  const body = [];
  if (!pool.players.length) {
    body.push(h("p", { class: "muted empty-pool" }, `Nobody has played a rated game of ${board.title} for ${pool.label} yet. `,
      h("a", { href: "/" }, "Play one from the lobby"), ": tick “Rated game” when you create the table."));
  } else {
    const rows = ranked.map(playerRow);
    if (provisional.length) {
      rows.push(h("tr", { class: "group" }, h("th", { colspan: 4, scope: "colgroup" },
        ranked.length ? "Provisional (not ranked yet): " : "Everyone is provisional so far: ",
        h("span", { class: "small" }, `fewer than ${PROVISIONAL_GAMES} rated games`))));
      rows.push(...provisional.map(playerRow));
    }
    body.push(h("table", { class: "plain leaderboard", "aria-labelledby": `${id}-title` },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "rank-col" }, "Rank"), h("th", { scope: "col" }, "Player"),
        h("th", { scope: "col", class: "rating-col" }, "Rating ± uncertainty"), h("th", { scope: "col", class: "games-col" }, "Games"))),
      h("tbody", {}, rows)));
  }
  return h("section", { class: "pool", id, "data-pool": pool.pool, "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title` }, `${board.title}: ${pool.label}`), body);
}

async function show() {
  const name = wantedGame();
  const number = ++loading;
  shown = name;
  drawTabs(name);
  const game = rated.find((g) => g.name === name);
  if (!game) {
    document.title = "Ratings — Ludus";
    $("game-note").textContent = "";
    replaceChildren($("pools"), h("p", { class: "muted" }, rated.length
      ? `There are no ratings for “${name}”: choose one of the games above.` : "No game on this server is rated."));
    return;
  }
  document.title = `${game.title} ratings — Ludus`;
  const choose = (game.rated.choose || []).map((o) => o.replace(/_/g, "-"));
  $("game-note").textContent = [game.rated.note,
    choose.length ? `A rated table may choose: ${choose.join(", ")}; every other option is the standard one.`
      : "A rated table uses the standard options."].filter(Boolean).join(" ");
  replaceChildren($("pools"), h("p", { class: "muted" }, "Loading…"));
  try {
    const board = await api(`/api/ratings/${encodeURIComponent(name)}`);
    if (number !== loading) return;
    $("pools").dataset.game = board.game;
    replaceChildren($("pools"), board.pools.map((pool) => poolTable(board, pool)),
      h("p", { class: "small muted" }, h("span", { class: "badge provisional" }, "provisional"), `: ${PROVISIONAL_WHY}.`));
  } catch (err) {
    if (number !== loading) return;
    replaceChildren($("pools"), h("p", { class: "muted" }, err instanceof ApiError && err.status === 404
      ? `There are no ratings for ${game.title}.` : `Could not load the ratings: ${err.message}`));
  }
}

async function start() {
  const games = await api("/api/games");
  rated = games.filter((g) => g.rated);
  window.addEventListener("popstate", show);
  await show();
}

start().catch((err) => notice(`The ratings could not be loaded: ${err.message}`));
