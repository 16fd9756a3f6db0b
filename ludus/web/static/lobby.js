// The lobby: Play now (quick.js), create a table (game, options, who sits where), open one by code, list open tables.
import { accountLink, api, formatList, formatNumber, h, lang, N_, playerWord, poolWords, replaceChildren, savedName, saveName, seatWord, t, tf,
  useAccountName } from "/static/common.js";
import { leaveQuietly, startQuick } from "/static/quick.js";
import { openRules } from "/static/rules.js";

const $ = (id) => document.getElementById(id);
let games = [];
let gamesLoaded = false;
let current = null;
let seatCount = 0;
let seatNames = [];
let seatsProblem = "";     // why the seats could not be loaded (other than bad options)
let optionErrors = {};     // option name -> the sentence shown beside it
let lastChanged = null;    // the option the player touched last (blamed when the server names none)
let refreshTimer = null;
let checking = null;       // the seat check in flight, which Create waits for
let refreshNumber = 0;
let pageInfo = {};         // /api/pages: which games have a guided first game (the Learn link)
let account = null;        // the logged-in account (rated tables need one), once /api/me has answered

// An int option with at most this many allowed values is picked from a list.
const MAX_LISTED_NUMBERS = 12;
// Plain words for the built-in bot levels; other levels (search bots) keep their own names.
const BOT_WORDS = { random: N_("beginner (random moves)"), trained: N_("learner (a trained network)"),
                    heuristic: N_("good (plays by rules of thumb)") };
// TRANSLATORS: a bot level, in a list that must fit a phone's width
const BOT_SHORT = { random: N_("beginner"), trained: N_("learner"), heuristic: N_("good") };

function notice(text) { $("notice").textContent = text || ""; }

// Option names read as on the command line: team-target, not team_target.
const flag = (name) => name.replace(/_/g, "-");
const botWords = (kind) => (BOT_WORDS[kind] ? t(BOT_WORDS[kind]) : kind);

function listedNumbers(info) {
  if (info.kind !== "int" || info.min === null || info.max === null) return null;
  if (info.max - info.min + 1 > MAX_LISTED_NUMBERS) return null;
  return Array.from({ length: info.max - info.min + 1 }, (_, i) => info.min + i);
}

// Open-ended options with suggestions (fighter types, team splits) get a list of the suggested
// values, fitted to the player count when an entry says which it is for, plus "Other…", which
// shows a text box: suggestions restrict nothing (card-set files can add fighters, say).
const OTHER = "\u2026other";  // the value of the "Other…" entry (no real value starts with "…")

function playerCount() {
  const input = document.querySelector('#options [data-option="players"]');
  if (!input || input.value === "") return null;
  const n = Number(input.value);
  return Number.isInteger(n) ? n : null;
}

function fittingSuggestions(info) {
  const players = playerCount();
  return info.suggestions.filter((s) => s.players === undefined || s.players === null || players === null
    || s.players === players);
}

function fillSuggestions(select, info, wanted) {
  const fitting = fittingSuggestions(info);
  const dflt = String(info.default);
  const entries = [];
  if (!fitting.some((s) => String(s.value) === dflt)) {
    entries.push(h("option", { value: dflt }, dflt === "" ? t("none (default)") : t("{value} (default)", { value: dflt })));
  }
  for (const s of fitting) {
    const value = String(s.value);
    entries.push(h("option", { value, "data-suggestion": value }, value === dflt ? t("{value} (default)", { value: s.label }) : s.label));
  }
  entries.push(h("option", { value: OTHER }, t("Other…")));
  replaceChildren(select, entries);
  // a suggestion that no longer fits the player count goes back to the default; a value of the
  // player's own stays, in the text box
  const known = info.suggestions.some((s) => String(s.value) === wanted);
  const listed = [...select.options].some((o) => o.value === wanted && o.value !== OTHER);
  const other = $(`${select.id}-other`);
  if (listed) select.value = wanted;
  else if (known) select.value = dflt;
  else { select.value = OTHER; if (other) other.value = wanted; }
  if (other) other.classList.toggle("hidden", select.value !== OTHER);
}

function refillSuggestions() {
  for (const select of document.querySelectorAll("#options select[data-suggest]")) {
    const info = current.options.find((o) => o.name === select.dataset.option);
    if (info) fillSuggestions(select, info, suggestionValue(select));
  }
}

function suggestionValue(select) {
  return select.value === OTHER ? $(`${select.id}-other`).value.trim() : select.value;
}

function optionRow(info) {
  const id = `opt-${info.name}`;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const common = { id, "data-option": info.name, "aria-describedby": `${helpId} ${errorId}` };
  const numbers = listedNumbers(info);
  let input;
  if (info.kind === "bool") {
    input = h("input", { ...common, type: "checkbox", "data-kind": "bool" });
    input.checked = !!info.default;
  } else if (info.choices || numbers) {
    input = h("select", { ...common, "data-kind": info.kind },
      (info.choices || numbers).map((c) => h("option", { value: c, selected: c === info.default }, formatNumber(c))));
  } else if (info.suggestions && info.suggestions.length) {
    input = h("select", { ...common, "data-kind": info.kind, "data-suggest": "" });
    const other = h("input", { id: `${id}-other`, class: "opt-other hidden", "data-other-for": info.name,
      "aria-label": t("{option}: your own value", { option: flag(info.name) }), "aria-describedby": `${helpId} ${errorId}`, autocomplete: "off",
      placeholder: t("type a value") });
    const row = h("div", { class: "opt", "data-opt-row": info.name },
      h("label", { for: id, class: "opt-name" }, flag(info.name)),
      h("span", { class: "opt-control opt-suggest" }, input, other),
      h("span", { id: helpId, class: "opt-help" }, info.help),
      h("span", { id: errorId, class: "opt-error" }));
    fillSuggestions(input, info, String(info.default));
    return row;
  } else if (info.kind === "int") {
    input = h("input", { ...common, type: "number", value: info.default, min: info.min, max: info.max, step: 1,
      "data-kind": "int", inputmode: "numeric" });
  } else {
    input = h("input", { ...common, value: info.default, "data-kind": info.kind, autocomplete: "off" });
  }
  return h("div", { class: `opt${info.kind === "bool" ? " opt-bool" : ""}`, "data-opt-row": info.name },
    h("label", { for: id, class: "opt-name" }, flag(info.name)),
    h("span", { class: "opt-control" }, input),
    h("span", { id: helpId, class: "opt-help" }, info.help),
    h("span", { id: errorId, class: "opt-error" }));
}

function optionInputs() { return Array.from(document.querySelectorAll("#options [data-option]")); }

// Reads the options; a value the page itself can tell is wrong goes to `errors` instead.
function readOptions(errors = {}) {
  const out = {};
  for (const input of optionInputs()) {
    const info = current.options.find((o) => o.name === input.dataset.option);
    if (!info) continue;  // a control of the previous game, being removed (Chromium fires its change then)
    let value;
    if (input.dataset.suggest !== undefined) {
      value = suggestionValue(input);
      if (info.kind === "int") {
        const n = Number(value);
        if (value === "" || !Number.isInteger(n)) { errors[info.name] = t("Enter a whole number."); continue; }
        value = n;
      }
    } else if (input.dataset.kind === "bool") value = input.checked;
    else if (input.dataset.kind === "int") {
      if (input.validity && input.validity.badInput) { errors[info.name] = t("Enter a whole number."); continue; }
      if (input.value.trim() === "") value = info.default;
      else {
        value = Number(input.value);
        if (!Number.isInteger(value)) { errors[info.name] = t("Enter a whole number."); continue; }
        if ((info.min !== null && value < info.min) || (info.max !== null && value > info.max)) {
          errors[info.name] = info.min !== null && info.max !== null ? t("Choose from {min} to {max}.", { min: info.min, max: info.max })
            : info.min !== null ? t("Choose {min} or more.", { min: info.min }) : t("Choose {max} or less.", { max: info.max });
          continue;
        }
      }
    } else value = input.value;
    if (value !== info.default) out[input.dataset.option] = value;
  }
  return out;
}

// The options a server refusal is about: those it names, else the one changed last.
function blamedOptions(message) {
  const text = message.toLowerCase();
  const named = current.options.map((o) => o.name).filter((name) => {
    const word = new RegExp(`(^|[^a-z0-9_-])(${flag(name)}|${name})($|[^a-z0-9_-])`);
    return word.test(text);
  });
  if (named.length) return named;
  return lastChanged && current.options.some((o) => o.name === lastChanged) ? [lastChanged] : [];
}

function showOptionErrors() {
  for (const info of current ? current.options : []) {
    const row = document.querySelector(`[data-opt-row="${info.name}"]`);
    if (!row) continue;
    const message = optionErrors[info.name] || "";
    row.classList.toggle("invalid", !!message);
    row.querySelector(".opt-error").textContent = message ? `⚠ ${message}` : "";
    const input = row.querySelector("[data-option]");
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  }
  // an option marked inside the folded "More options" must be seen
  const details = document.querySelector("#options details");
  if (details && details.querySelector(".opt.invalid")) details.open = true;
  const general = optionErrors[""] || "";
  $("options-problem").textContent = general ? `⚠ ${general}` : "";
}

// The Create button: enabled only when a table can be made, and otherwise saying why.
function updateCreate() {
  let why = "";
  if (!gamesLoaded) why = t("Loading games…");
  else if (!games.length) why = t("No games are installed on this server.");
  else if (!current) why = t("Choose a game.");
  else if (Object.keys(optionErrors).length) why = optionErrors[""] && Object.keys(optionErrors).length === 1
    ? t("Fix the options (see the message above).") : t("Fix the options marked in red.");
  else if (seatsProblem) why = t("The seats could not be loaded: {problem}", { problem: seatsProblem });
  else if (!seatCount) why = t("Loading seats…");  // a re-check with seats shown keeps the button: Create waits for it
  else if (ratedOn()) why = ratedProblem();
  $("create").disabled = !!why;
  $("create-why").textContent = why;
}

// Each seat's label: the game's name for it and who will play it, following every edit.
function seatWho(i, seats, name) {
  const seat = seats[i];
  if (!seat) return "";
  if (seat.kind === "bot") return t("bot, {level}", { level: botWords(seat.bot) });
  const firstHuman = seats.findIndex((s) => s.kind === "human");
  if (i === firstHuman) return name ? t("{name} (you)", { name }) : t("you (type your name above)");
  return ratedOn() ? t("a person you invite (open seat; they need an account)") : t("a person you invite (open seat)");
}

function updateSeatLabels() {
  const seats = readSeats();
  const name = $("name").value.trim();
  for (let i = 0; i < seats.length; i++) {
    const label = seatLabel(i);
    const who = $(`seat-${i}-who`);
    if (who) who.textContent = seatWho(i, seats, name);
    $(`seat-${i}-kind`).setAttribute("aria-label", t("{seat}: who plays", { seat: label }));
    $(`seat-${i}-bot`).setAttribute("aria-label", t("{seat}: bot level", { seat: label }));
  }
}

// The game's name for a seat ("Blue team"), or its number.
function seatLabel(i) { return seatNames[i] ? seatWord(seatNames[i]) : t("Seat {number}", { number: i + 1 }); }

function seatRow(i, previous) {
  const label = seatLabel(i);
  const kind = h("select", { id: `seat-${i}-kind`, "aria-label": t("{seat}: who plays", { seat: label }) },
    h("option", { value: "human" }, t("Person")), h("option", { value: "bot" }, t("Bot")));
  kind.value = previous ? previous.kind : (i === 0 ? "human" : "bot");
  const bot = h("select", { id: `seat-${i}-bot`, "aria-label": t("{seat}: bot level", { seat: label }) },
    current.bots.map((b) => h("option", { value: b, selected: b === current.default_bot }, BOT_SHORT[b] ? t(BOT_SHORT[b]) : b)));
  if (previous && previous.bot) bot.value = previous.bot;
  const sync = () => { bot.disabled = kind.value !== "bot"; bot.classList.toggle("hidden", kind.value !== "bot"); };
  kind.addEventListener("change", () => { sync(); updateSeatLabels(); updateCreate(); });
  bot.addEventListener("change", updateSeatLabels);
  sync();
  return h("div", { class: "seat-row", "data-seat": i },
    h("span", { class: "seat-name" }, h("strong", {}, label), " — ", h("span", { id: `seat-${i}-who`, class: "seat-who" })),
    h("span", { class: "seat-controls" }, kind, bot));
}

async function refreshSeats() {
  const game = current;
  const number = ++refreshNumber;
  const errors = {};
  const options = readOptions(errors);
  optionErrors = errors;
  showOptionErrors();
  if (Object.keys(errors).length) {
    if (!seatCount) replaceChildren($("seat-list"), h("p", { class: "muted small seat-wait" }, t("The seats appear once the options are fixed.")));
    updateCreate();
    return;
  }
  seatsProblem = "";
  updateCreate();
  try {
    const info = await api(`/api/games/${encodeURIComponent(game.name)}/options`, { options });
    if (number !== refreshNumber) return;  // options changed or another game was chosen meanwhile
    const previous = readSeats();
    seatCount = info.seats;
    seatNames = info.seat_names || [];
    replaceChildren($("seat-list"), Array.from({ length: info.seats }, (_, i) => seatRow(i, previous[i])));
    updateSeatLabels();
  } catch (err) {
    if (number !== refreshNumber) return;
    if (err.code === "bad_options") {
      const blamed = blamedOptions(err.message);
      optionErrors = {};
      if (blamed.length) for (const name of blamed) optionErrors[name] = err.message;
      else optionErrors[""] = err.message;
      showOptionErrors();
      if (!seatCount) replaceChildren($("seat-list"), h("p", { class: "muted small seat-wait" }, t("The seats appear once the options are fixed.")));
    } else seatsProblem = err.message;
  }
  updateCreate();
}

// Check the options with the server and redraw the seats; Create waits for the latest check.
function requestSeats() {
  clearTimeout(refreshTimer);
  refreshTimer = null;
  const mine = refreshSeats();
  checking = mine;
  mine.finally(() => { if (checking === mine) checking = null; });
  return mine;
}

function readSeats() {
  const out = [];
  for (let i = 0; i < seatCount; i++) {
    const kind = $(`seat-${i}-kind`);
    if (!kind) break;
    out.push(kind.value === "bot" ? { kind: "bot", bot: $(`seat-${i}-bot`).value } : { kind: "human" });
  }
  return out;
}

// The chosen game's Rules button and, when the game has a guided first game, its Learn link.
function updateGameHelp() {
  $("rules-button").disabled = !current;
  const learn = $("learn-link");
  const tutorial = !!(current && pageInfo[current.name] && pageInfo[current.name].tutorial);
  learn.classList.toggle("hidden", !tutorial);
  if (tutorial) {
    learn.href = `/learn/${encodeURIComponent(current.name)}`;
    learn.setAttribute("aria-label", t("Learn to play {game}: a guided first game", { game: current.title }));
  }
}

// The Rules panel for the chosen game, with the options as the form has them now (values the
// page itself finds wrong are left out, so they show at their defaults).
function showRules() {
  if (!current) return;
  openRules({ game: current.name, title: current.title, options: readOptions({}), where: t("as set in the form") });
}

// ---------------------------------------------------------------- rated tables
// A rated table is played by the standard rules: only the game's `choose` options may be set
// (the others go back to their defaults and are locked), hints are off, and it needs an account.
function ratedOn() {
  return !!(current && current.rated && account && $("rated").checked);
}

function poolFor(seats) {
  return current && current.rated ? current.rated.pools.find((p) => p.min_seats <= seats && seats <= p.max_seats) : null;
}

function ratedProblem() {
  const seats = readSeats();
  if (!seats.some((s) => s.kind === "human")) return t("A rated table needs a person in at least one seat.");
  if (seats.length && !poolFor(seats.length)) {
    const counts = formatList(current.rated.pools.map((p) => poolWords(p.label)), "disjunction");
    return t("Rated games of {game} are for {counts}.", { game: current.title, counts });
  }
  return "";
}

// The player counts a rated table may have: within one of the game's pools.
function ratedCount(n) { return !!poolFor(n); }

function lockOption(input, info, locked) {
  const row = input.closest(".opt");
  let changed = false;
  if (locked && !current.rated.choose.includes(info.name)) {
    if (input.dataset.suggest !== undefined) {
      if (suggestionValue(input) !== String(info.default)) { fillSuggestions(input, info, String(info.default)); changed = true; }
      const other = $(`${input.id}-other`);
      if (other) other.disabled = true;
    } else if (input.dataset.kind === "bool") {
      if (input.checked !== !!info.default) { input.checked = !!info.default; changed = true; }
    } else if (input.value !== String(info.default)) {
      input.value = String(info.default);
      changed = true;
    }
    input.disabled = true;
    if (row) { row.classList.add("locked"); row.title = t("standard for rated games"); }
    return changed;
  }
  input.disabled = false;
  const other = $(`${input.id}-other`);
  if (other) other.disabled = false;
  if (row) { row.classList.remove("locked"); row.removeAttribute("title"); }
  if (info.name === "players") {  // only the counts of a rating pool
    if (input.tagName === "SELECT") {
      for (const option of input.options) option.disabled = locked && !ratedCount(Number(option.value));
      if (locked && !ratedCount(Number(input.value))) {
        const fit = [...input.options].find((o) => !o.disabled);
        const dflt = [...input.options].find((o) => !o.disabled && Number(o.value) === info.default);
        if (fit) { input.value = (dflt || fit).value; changed = true; }
      }
    } else if (input.type === "number") {
      const pools = current.rated ? current.rated.pools : [];
      input.min = locked && pools.length ? Math.min(...pools.map((p) => p.min_seats)) : (info.min ?? "");
      input.max = locked && pools.length ? Math.max(...pools.map((p) => p.max_seats)) : (info.max ?? "");
    }
  }
  return changed;
}

// Shows the Rated switch for a rated game, enabled once logged in, and applies what it means.
function updateRated() {
  const game = current && current.rated ? current : null;
  $("rated-row").classList.toggle("hidden", !game);
  $("rated").disabled = !account || !game;
  if (!account || !game) $("rated").checked = false;
  $("rated-login").classList.toggle("hidden", !game || !!account);
  const on = ratedOn();
  let changed = false;
  for (const input of optionInputs()) {
    const info = current && current.options.find((o) => o.name === input.dataset.option);
    if (info && game) changed = lockOption(input, info, on) || changed;
  }
  $("hints").disabled = on;
  if (on) $("hints").checked = false;
  const note = $("rated-note");
  note.classList.toggle("hidden", !on);
  if (on) {
    const choose = game.rated.choose.map(flag);
    const own = game.rated.note || "";  // the game's own words: marked as English where not translated
    const ownLang = game.rated.note_lang || "en";
    replaceChildren(note, [
      t("Rated tables use the standard rules:"),
      choose.length ? t("only {options} may be chosen, every other option is the standard one;", { options: choose.join(", ") })
        : t("every option is the standard one;"),
      t("hints are off, and everyone who sits at the table needs an account."),
    ].join(" "), own ? " " : null, own && ownLang !== lang ? h("span", { lang: ownLang, dir: "ltr", class: "own-note" }, own) : own || null);
  } else note.textContent = "";
  updateSeatLabels();
  updateCreate();
  return changed;
}

function selectGame(name) {
  current = games.find((g) => g.name === name) || null;
  $("game-summary").textContent = current ? current.summary || "" : "";
  updateGameHelp();
  optionErrors = {};
  lastChanged = null;
  // the seats shown belong to the previous game until the server answers for this one:
  // clear them and hold "Create" so that a quick click cannot send the old game's seats
  seatCount = 0;
  seatNames = [];
  replaceChildren($("seat-list"), h("p", { class: "muted small seat-wait" }, t("Loading seats…")));
  if (!current) {
    replaceChildren($("seat-list"));
    replaceChildren($("options"), h("legend", {}, t("Options")));
    updateRated();
    return;
  }
  const [first, ...rest] = current.options;  // the first option (usually the player count) stays in sight
  replaceChildren($("options"), h("legend", {}, t("Options")),
    h("p", { id: "options-problem", class: "opt-problem", role: "alert" }),
    first ? optionRow(first) : h("p", { class: "muted small" }, t("This game has no options.")),
    rest.length ? h("details", {}, h("summary", {}, t("More options ({count})", { count: rest.length })), rest.map(optionRow)) : null);
  refillSuggestions();  // now that the player count is on the page
  updateRated();
  requestSeats();
}

async function loadTables() {
  try {
    const tables = await api("/api/tables");
    if (!tables.length) {
      replaceChildren($("tables"), h("p", { class: "muted" }, t("No tables yet. Create one above.")));
      return;
    }
    replaceChildren($("tables"), h("table", { class: "plain" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Code")), h("th", {}, t("Game")), h("th", {}, t("Players")), h("th", {}, t("Status")),
        h("th", {}, h("span", { class: "visually-hidden" }, t("Join or watch"))))),
      h("tbody", {}, tables.map((tb) => {
        const open = tb.status === "open" && tb.seats.some((s) => !s.taken);
        return h("tr", {},
          h("td", {}, tb.code), h("td", {}, tb.title,
            tb.rated ? h("span", { class: "badge rated-tag" }, t("Rated"),
              tb.pool_label ? [" · ", h("span", { class: "nowrap" }, poolWords(tb.pool_label))] : null) : null),
          h("td", {}, formatList(tb.seats.map((s) => playerWord(s.name)), "unit")),
          h("td", {}, open ? t("waiting for players") : t("playing"), tb.hints ? h("span", { class: "hints-tag" }, " · ", t("hints on")) : null),
          h("td", {}, h("a", { class: "button secondary", href: `/t/${tb.code}` }, open ? t("Join") : t("Watch"))));
      }))));
  } catch (err) {
    replaceChildren($("tables"), h("p", { class: "muted" }, t("Could not load tables: {error}", { error: err.message })));
  }
}

function optionEdited(event, delay) {
  let target = event.target.closest("[data-option]");
  if (!target && event.target.dataset && event.target.dataset.otherFor) target = $(`opt-${event.target.dataset.otherFor}`);
  if (!target || !current || !current.options.some((o) => o.name === target.dataset.option)) return;
  lastChanged = target.dataset.option;
  if (target === event.target && target.dataset.suggest !== undefined) {  // "Other…" shows its text box
    const other = $(`${target.id}-other`);
    other.classList.toggle("hidden", target.value !== OTHER);
    if (target.value === OTHER && event.type === "change") other.focus();
  }
  if (target.dataset.option === "players") refillSuggestions();  // suggestions for a player count follow it
  clearTimeout(refreshTimer);
  if (delay) refreshTimer = setTimeout(requestSeats, delay);  // typing: ask once it pauses
  else requestSeats();
}

let creating = false;

async function createTable() {
  if (refreshTimer !== null) requestSeats();
  while (checking) await checking;
  if ($("create").disabled) return;
  const name = $("name").value.trim();
  saveName(name);
  const seats = readSeats();
  const clock = $("clock").value ? Number($("clock").value) : null;
  try {
    const table = await api("/api/tables", {
      game: current.name, options: readOptions(), seats, clock, listed: $("listed").checked, hints: $("hints").checked,
      rated: ratedOn(),
      name: seats.some((s) => s.kind === "human") ? name : null,
    });
    leaveQuietly();  // a table of one's own: no quick play table as well
    location.href = `/t/${table.code}`;
  } catch (err) { notice(err.message); }
}

async function start() {
  $("name").value = savedName();
  const who = accountLink();
  who.then((found) => {
    account = found;
    useAccountName($("name"), account);
    updateSeatLabels();
    if (gamesLoaded && updateRated()) requestSeats();
  });
  updateCreate();
  const gamesRequest = api("/api/games");
  startQuick(gamesRequest, who).catch((err) => { notice(t("Play now could not start: {error}", { error: err.message })); });
  games = await gamesRequest;
  gamesLoaded = true;
  replaceChildren($("game"), games.map((g) => h("option", { value: g.name }, g.title)));
  $("game").addEventListener("change", () => selectGame($("game").value));
  $("options").addEventListener("change", (event) => optionEdited(event, 0));
  $("options").addEventListener("input", (event) => {
    if (event.target.matches("input[type=number], input:not([type])")) optionEdited(event, 400);
  });
  $("name").addEventListener("input", updateSeatLabels);
  $("rules-button").addEventListener("click", showRules);
  $("rated").addEventListener("change", () => { if (updateRated()) requestSeats(); });
  selectGame(games.length ? games[0].name : null);
  api("/api/pages").then((info) => { pageInfo = info || {}; updateGameHelp(); })
    .catch(() => { /* no Learn links then */ })
    .finally(() => { $("learn-link").dataset.checked = "true"; });
  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    // an option edited just before the click (its change fires as the button takes focus) is checked
    // first, so the table gets the options and seats on screen, or the reason it cannot be made
    if (creating) return;  // one table per click, however impatient
    creating = true;
    try { await createTable(); } finally { creating = false; }
  });
  $("code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("code").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (code) { leaveQuietly(); location.href = `/t/${code}`; }
  });
  loadTables();
  setInterval(loadTables, 5000);
}

start().catch((err) => {
  notice(t("The lobby could not start: {error}", { error: err.message }));
  $("create-why").textContent = t("The lobby could not start; reload the page to try again.");
});
