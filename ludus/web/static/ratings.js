// The leaderboards: one rated game at a time (chosen in the address, ?game=NAME), one table per
// pool of player counts. Ranked players come first, by rating; provisional ones follow, unranked.
import { accountLink, api, ApiError, formatNumber, h, lang, playerWord, poolWords, PROVISIONAL_GAMES, PROVISIONAL_WHY, ratingNodes, replaceChildren, t, tf,
  tn } from "/static/common.js";

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
    h("td", { class: "rank" }, entry.rank !== null && entry.rank !== undefined ? formatNumber(entry.rank)
      : h("span", { title: t("no rank yet (provisional)") }, h("span", { "aria-hidden": "true" }, "–"),
        h("span", { class: "visually-hidden" }, t("no rank yet")))),
    h("th", { scope: "row", class: "who" }, h("a", { href: entry.href }, playerWord(entry.name)),
      entry.kind === "bot" && !/\bbot\b/i.test(entry.name) ? h("span", { class: "badge bot-badge" }, t("bot")) : null),
    h("td", { class: "rating" }, ratingNodes(entry)),
    h("td", { class: "games-count" }, formatNumber(entry.games)));
}

// The game's title as /api/games gives it (in the reader's language), else the leaderboard's own.
function gameTitle(board) {
  const game = rated.find((g) => g.name === board.game);
  return game ? game.title : board.title;
}

// The game's note on its rated play, in the reader's language where the server has it translated
// (note_lang); else its English, marked so in a page of another language.
function englishNote(rated) {
  const note = rated.note;
  if (!note) return null;
  const said = rated.note_lang || "en";
  return said === lang ? note : h("span", { lang: said, dir: "ltr", class: "own-note" }, note);
}

function poolTable(board, pool) {
  const id = `pool-${pool.pool}`;
  const ranked = pool.players.filter((p) => !p.provisional);
  const provisional = pool.players.filter((p) => p.provisional);
  const body = [];
  if (!pool.players.length) {
    const lobby = h("a", { href: "/" }, t("Play one from the lobby"));
    body.push(h("p", { class: "muted empty-pool" }, tf("Nobody has played a rated game of {game} for {pool} yet. {link}: tick “Rated game” when you create the table.",
      { game: gameTitle(board), pool: poolWords(pool.label), link: lobby })));
  } else {
    const rows = ranked.map(playerRow);
    if (provisional.length) {
      rows.push(h("tr", { class: "group" }, h("th", { colspan: 4, scope: "colgroup" },
        ranked.length ? t("Provisional (not ranked yet):") : t("Everyone is provisional so far:"), " ",
        h("span", { class: "small" }, tn("fewer than {count} rated game", "fewer than {count} rated games", PROVISIONAL_GAMES,
          { count: PROVISIONAL_GAMES })))));
      rows.push(...provisional.map(playerRow));
    }
    body.push(h("table", { class: "plain leaderboard", "aria-labelledby": `${id}-title` },
      h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "rank-col" }, t("Rank")), h("th", { scope: "col" }, t("Player")),
        h("th", { scope: "col", class: "rating-col" }, t("Rating ± uncertainty")), h("th", { scope: "col", class: "games-col" }, t("Games")))),
      h("tbody", {}, rows)));
  }
  return h("section", { class: "pool", id, "data-pool": pool.pool, "aria-labelledby": `${id}-title` },
    h("h3", { id: `${id}-title` }, t("{game}: {pool}", { game: gameTitle(board), pool: poolWords(pool.label) })), body);
}

async function show() {
  const name = wantedGame();
  const number = ++loading;
  shown = name;
  drawTabs(name);
  const game = rated.find((g) => g.name === name);
  if (!game) {
    document.title = t("Ratings — Ludus");
    $("game-note").textContent = "";
    replaceChildren($("pools"), h("p", { class: "muted" }, rated.length
      ? t("There are no ratings for “{game}”: choose one of the games above.", { game: name }) : t("No game on this server is rated.")));
    return;
  }
  document.title = t("{game} ratings — Ludus", { game: game.title });
  const choose = (game.rated.choose || []).map((o) => o.replace(/_/g, "-"));
  replaceChildren($("game-note"), englishNote(game.rated), game.rated.note ? " " : null,
    choose.length ? t("A rated table may choose: {options}; every other option is the standard one.", { options: choose.join(", ") })
      : t("A rated table uses the standard options."));
  replaceChildren($("pools"), h("p", { class: "muted" }, t("Loading…")));
  try {
    const board = await api(`/api/ratings/${encodeURIComponent(name)}`);
    if (number !== loading) return;
    $("pools").dataset.game = board.game;
    replaceChildren($("pools"), board.pools.map((pool) => poolTable(board, pool)),
      h("p", { class: "small muted" }, h("span", { class: "badge provisional" }, t("provisional")), t(": {why}.", { why: PROVISIONAL_WHY })));
  } catch (err) {
    if (number !== loading) return;
    replaceChildren($("pools"), h("p", { class: "muted" }, err instanceof ApiError && err.status === 404
      ? t("There are no ratings for {game}.", { game: game.title }) : t("Could not load the ratings: {error}", { error: err.message })));
  }
}

async function start() {
  const games = await api("/api/games");
  rated = games.filter((g) => g.rated);
  window.addEventListener("popstate", show);
  await show();
}

start().catch((err) => notice(t("The ratings could not be loaded: {error}", { error: err.message })));
