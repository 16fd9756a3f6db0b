// "Your games": the player's account (log in, sign up, log out, password, delete) and their games,
// unfinished first, with a way back to each seat and, once over, to the replay and the record.
import { api, h, ratingNodes, replaceChildren } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const STATUS_WORDS = { open: "waiting for players", playing: "in play", finished: "finished" };
const OUTCOME_WORDS = { won: "you won", lost: "you lost", shared: "shared win" };

function notice(text, error = true) {
  $("notice").textContent = text || "";
  $("notice").classList.toggle("error", Boolean(text) && error);
  $("notice").classList.toggle("ok", Boolean(text) && !error);
}

function when(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : at.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

function gameRow(game) {
  const base = `/t/${encodeURIComponent(game.code)}`;
  const links = game.status === "finished"
    ? [h("a", { href: `${base}/replay` }, "Replay"), " · ",
       h("a", { href: `/api/tables/${encodeURIComponent(game.code)}/record`, download: "" }, "Record")]
    : [h("a", { class: "button small-button", href: base }, game.status === "open" ? "Open" : "Continue")];
  const status = STATUS_WORDS[game.status] || game.status;
  const outcome = game.outcome ? ` — ${OUTCOME_WORDS[game.outcome] || game.outcome}` : "";
  return h("tr", { "data-code": game.code },
    h("td", {}, h("strong", {}, game.title), h("div", { class: "small muted" }, `table ${game.code}`)),
    h("td", {}, game.players.map((name, i) => h("span", { class: i === game.seat ? "you-name" : "" },
      i ? ", " : "", name, i === game.seat ? " (you)" : ""))),
    h("td", {}, status + outcome, h("div", { class: "small muted" }, when(game.updated_at))),
    h("td", {}, links));
}

function showGames(games, account) {
  if (!games.length) {
    replaceChildren($("games"), h("p", { class: "muted" },
      account ? "No games yet. " : "This browser has no games yet. ", h("a", { href: "/" }, "Start one in the lobby.")));
    return;
  }
  replaceChildren($("games"), h("table", { class: "plain games" },
    h("caption", { class: "small muted" }, account ? `The games of ${account.name}` : "The games of this browser"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Players"),
      h("th", { scope: "col" }, "State"), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Links")))),
    h("tbody", {}, games.map(gameRow))));
}

// The account's ratings, one row per game and pool, and the way to its public page.
function showRatings(ratings, account) {
  const box = $("your-ratings");
  box.classList.toggle("hidden", !account || !ratings.length);
  if (!account || !ratings.length) { replaceChildren($("ratings-list")); return; }
  const page = `/players/${encodeURIComponent(account.name)}`;
  replaceChildren($("ratings-list"),
    h("table", { class: "plain ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Game"), h("th", { scope: "col" }, "Rating ± uncertainty"),
        h("th", { scope: "col" }, "Games"))),
      h("tbody", {}, ratings.map((r) => h("tr", { "data-game": r.game, "data-pool": r.pool },
        h("th", { scope: "row" }, h("a", { href: `/ratings?game=${encodeURIComponent(r.game)}` }, r.title),
          h("div", { class: "small muted" }, r.label)),
        h("td", {}, ratingNodes(r)),
        h("td", { class: "games-count" }, String(r.games)))))),
    h("p", { class: "small" }, h("a", { href: page, id: "public-page" }, "Your public page"),
      " shows each rating's history; ", h("a", { href: "/ratings" }, "the leaderboards"), " show everyone's."));
}

async function load() {
  const me = await api("/api/me");
  const account = me.account;
  $("anonymous").classList.toggle("hidden", Boolean(account));
  $("signed-in").classList.toggle("hidden", !account);
  $("account-link").textContent = account ? account.name : "Your games";
  if (account) {
    $("account-name").textContent = account.name;
    $("account-since").textContent = `(account made ${when(account.created_at)})`;
  }
  showRatings(me.ratings || [], account);
  showGames(me.games, account);
}

function submitting(form, work) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await work();
      form.reset();
      await load();
    } catch (err) {
      notice(err.message);
    } finally {
      button.disabled = false;
    }
  });
}

function clicking(id, work) {
  $(id).addEventListener("click", async () => {
    try { await work(); await load(); } catch (err) { notice(err.message); }
  });
}

submitting($("login-form"), async () => {
  await api("/api/account/login", { name: $("login-name").value, password: $("login-password").value });
  notice("");
});
submitting($("signup-form"), async () => {
  await api("/api/account/signup", { name: $("signup-name").value, password: $("signup-password").value });
  notice("Account created. This browser's games are now in it.", false);
});
submitting($("password-form"), async () => {
  await api("/api/account/password", { current: $("password-current").value, new: $("password-new").value });
  notice("Password changed. Other browsers are logged out.", false);
});
submitting($("delete-form"), async () => {
  await api("/api/account/delete", { password: $("delete-password").value });
  notice("Your account is deleted.", false);
});
clicking("logout", async () => { await api("/api/account/logout", {}); notice("Logged out.", false); });
clicking("logout-everywhere", async () => {
  await api("/api/account/logout-everywhere", {});
  notice("Logged out on every browser.", false);
});

load().catch((err) => notice(`Could not load your games: ${err.message}`));
