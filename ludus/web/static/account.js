// "Your games": the player's account (log in, sign up, log out, password, delete) and their games,
// unfinished first, with a way back to each seat and, once over, to the replay and the record.
import { api, formatNumber, h, lang, N_, playerWord, poolWords, ratingNodes, replaceChildren, t, tf } from "/static/common.js";
import { serverText } from "/static/errors.js";

const $ = (id) => document.getElementById(id);
const STATUS_WORDS = { open: N_("waiting for players"), playing: N_("in play"), finished: N_("finished") };
const OUTCOME_WORDS = { won: N_("you won"), lost: N_("you lost"), shared: N_("shared win") };

function notice(text, error = true) {
  $("notice").textContent = text || "";
  $("notice").classList.toggle("error", Boolean(text) && error);
  $("notice").classList.toggle("ok", Boolean(text) && !error);
}

function when(iso) {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? "" : at.toLocaleString(lang === "en" ? undefined : lang, { dateStyle: "medium", timeStyle: "short" });
}

function gameRow(game) {
  const base = `/t/${encodeURIComponent(game.code)}`;
  const links = game.status === "finished"
    ? [h("a", { href: `${base}/replay` }, t("Replay")), " · ",
       h("a", { href: `/api/tables/${encodeURIComponent(game.code)}/record`, download: "" }, t("Record"))]
    : [h("a", { class: "button small-button", href: base }, game.status === "open" ? t("Open") : t("Continue"))];
  const status = STATUS_WORDS[game.status] ? t(STATUS_WORDS[game.status]) : game.status;
  const outcome = game.outcome ? ` — ${OUTCOME_WORDS[game.outcome] ? t(OUTCOME_WORDS[game.outcome]) : game.outcome}` : "";
  return h("tr", { "data-code": game.code },
    h("td", {}, h("strong", {}, game.title), h("div", { class: "small muted" }, t("table {code}", { code: game.code }))),
    h("td", {}, game.players.map((name, i) => h("span", { class: i === game.seat ? "you-name" : "" },
      i ? t(", ") : "", i === game.seat ? t("{name} (you)", { name: playerWord(name) }) : playerWord(name)))),
    h("td", {}, status + outcome, h("div", { class: "small muted" }, when(game.updated_at))),
    h("td", {}, links));
}

function showGames(games, account) {
  if (!games.length) {
    replaceChildren($("games"), h("p", { class: "muted" },
      account ? t("No games yet.") : t("This browser has no games yet."), " ", h("a", { href: "/" }, t("Start one in the lobby."))));
    return;
  }
  replaceChildren($("games"), h("table", { class: "plain games" },
    h("caption", { class: "small muted" }, account ? t("The games of {name}", { name: account.name }) : t("The games of this browser")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Game")), h("th", { scope: "col" }, t("Players")),
      h("th", { scope: "col" }, t("State")), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, t("Links"))))),
    h("tbody", {}, games.map(gameRow))));
}

// The account's ratings, one row per game and pool, and the way to its public page.
function showRatings(ratings, account) {
  const box = $("your-ratings");
  box.classList.toggle("hidden", !account || !ratings.length);
  if (!account || !ratings.length) { replaceChildren($("ratings-list")); return; }
  const page = `/players/${encodeURIComponent(account.name)}`;
  const publicLink = h("a", { href: page, id: "public-page" }, t("Your public page"));
  const boards = h("a", { href: "/ratings" }, t("the leaderboards"));
  replaceChildren($("ratings-list"),
    h("table", { class: "plain ratings" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Game")), h("th", { scope: "col" }, t("Rating ± uncertainty")),
        h("th", { scope: "col" }, t("Games")))),
      h("tbody", {}, ratings.map((r) => h("tr", { "data-game": r.game, "data-pool": r.pool },
        h("th", { scope: "row" }, h("a", { href: `/ratings?game=${encodeURIComponent(r.game)}` }, r.title),
          h("div", { class: "small muted" }, poolWords(r.label))),
        h("td", {}, ratingNodes(r)),
        h("td", { class: "games-count" }, formatNumber(r.games)))))),
    h("p", { class: "small" }, tf("{page} shows each rating's history; {boards} show everyone's.", { page: publicLink, boards })));
}

async function load() {
  const me = await api("/api/me");
  const account = me.account;
  $("anonymous").classList.toggle("hidden", Boolean(account));
  $("signed-in").classList.toggle("hidden", !account);
  $("account-link").textContent = account ? account.name : t("Your games");
  if (account) {
    $("account-name").textContent = account.name;
    $("account-since").textContent = t("(account made {date})", { date: when(account.created_at) });
  }
  showRatings(me.ratings || [], account);
  showGames(me.games, account);
}

// The server's refusal in the reader's language (its English sentence for English readers, or
// for a code the page does not know).
const ACCOUNT_WORDS = {
  bad_name: N_("An account name has 2 to 24 letters or digits; _ . - are allowed, spaces are not."),
  bad_password: N_("A password has 8 to 256 characters."),
  name_taken: N_("That name is taken: choose another, or log in."),
};
function accountError(err, form) {
  if (lang === "en" || !err || !err.code) return err && err.message;
  if (err.code === "bad_login") return form && form.id === "login-form" ? t("Wrong name or password.") : t("That is not your current password.");
  return ACCOUNT_WORDS[err.code] ? t(ACCOUNT_WORDS[err.code]) : serverText(err);
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
      notice(accountError(err, form));
    } finally {
      button.disabled = false;
    }
  });
}

function clicking(id, work) {
  $(id).addEventListener("click", async () => {
    try { await work(); await load(); } catch (err) { notice(accountError(err, null)); }
  });
}

submitting($("login-form"), async () => {
  await api("/api/account/login", { name: $("login-name").value, password: $("login-password").value });
  notice("");
});
submitting($("signup-form"), async () => {
  await api("/api/account/signup", { name: $("signup-name").value, password: $("signup-password").value });
  notice(t("Account created. This browser's games are now in it."), false);
});
submitting($("password-form"), async () => {
  await api("/api/account/password", { current: $("password-current").value, new: $("password-new").value });
  notice(t("Password changed. Other browsers are logged out."), false);
});
submitting($("delete-form"), async () => {
  await api("/api/account/delete", { password: $("delete-password").value });
  notice(t("Your account is deleted."), false);
});
clicking("logout", async () => { await api("/api/account/logout", {}); notice(t("Logged out."), false); });
clicking("logout-everywhere", async () => {
  await api("/api/account/logout-everywhere", {});
  notice(t("Logged out on every browser."), false);
});

load().catch((err) => notice(t("Could not load your games: {error}", { error: err.message })));
