// The lobby: create a table (game, options, who sits where), open one by code, list open tables.
import { api, h, replaceChildren, savedName, saveName } from "/static/common.js";

const $ = (id) => document.getElementById(id);
let games = [];
let current = null;
let seatCount = 0;

function notice(text) { $("notice").textContent = text || ""; }

function optionInput(info) {
  const id = `opt-${info.name}`;
  const title = info.name.replace(/_/g, " ");
  let input;
  if (info.kind === "bool") {
    input = h("input", { type: "checkbox", id, "data-option": info.name, "data-kind": "bool" });
    input.checked = !!info.default;
    return h("label", { class: "inline", title: info.help }, input, title);
  }
  if (info.choices) {
    input = h("select", { id, "data-option": info.name, "data-kind": info.kind },
      info.choices.map((c) => h("option", { value: c, selected: c === info.default }, c)));
  } else if (info.kind === "int") {
    input = h("input", { id, type: "number", value: info.default, min: info.min, max: info.max, step: 1,
      "data-option": info.name, "data-kind": "int", inputmode: "numeric" });
  } else {
    input = h("input", { id, value: info.default, "data-option": info.name, "data-kind": info.kind });
  }
  return h("label", { title: info.help }, title, input, h("span", { class: "small muted" }, info.help));
}

function readOptions() {
  const out = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const info = current.options.find((o) => o.name === input.dataset.option);
    let value;
    if (input.dataset.kind === "bool") value = input.checked;
    else if (input.dataset.kind === "int") value = input.value === "" ? info.default : Number(input.value);
    else value = input.value;
    if (value !== info.default) out[input.dataset.option] = value;
  }
  return out;
}

function seatRow(i, names, previous) {
  const kind = h("select", { id: `seat-${i}-kind`, "aria-label": `${names[i] || `Seat ${i + 1}`}: player` },
    h("option", { value: "human" }, "Person"), h("option", { value: "bot" }, "Bot"));
  kind.value = previous ? previous.kind : (i === 0 ? "human" : "bot");
  const bot = h("select", { id: `seat-${i}-bot`, "aria-label": `${names[i] || `Seat ${i + 1}`}: bot level` },
    current.bots.map((b) => h("option", { value: b, selected: b === current.default_bot }, b)));
  if (previous && previous.bot) bot.value = previous.bot;
  const sync = () => { bot.disabled = kind.value !== "bot"; bot.classList.toggle("hidden", kind.value !== "bot"); };
  kind.addEventListener("change", sync);
  sync();
  return h("div", { class: "row", "data-seat": i },
    h("span", { class: "seat-name" }, i === 0 ? `${names[i] || "Seat 1"} (you)` : names[i] || `Seat ${i + 1}`), kind, bot);
}

async function refreshSeats() {
  const options = readOptions();
  const game = current;
  try {
    const info = await api(`/api/games/${game.name}/options`, { options });
    if (game !== current) return;  // another game was chosen meanwhile; its own answer draws the seats
    notice("");
    const previous = readSeats();
    seatCount = info.seats;
    replaceChildren($("seat-list"), Array.from({ length: info.seats }, (_, i) => seatRow(i, info.seat_names, previous[i])));
    $("create").disabled = false;
  } catch (err) {
    if (game !== current) return;
    notice(err.message);
    $("create").disabled = true;
  }
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

function selectGame(name) {
  current = games.find((g) => g.name === name) || games[0];
  $("game-summary").textContent = current.summary || "";
  const [first, ...rest] = current.options;  // the first option (usually the player count) stays in sight
  replaceChildren($("options"), h("legend", {}, "Options"), first ? optionInput(first) : null,
    rest.length ? h("details", {}, h("summary", {}, "More options"), rest.map(optionInput)) : null);
  // the seats shown belong to the previous game until the server answers for this one:
  // clear them and hold "Create" so that a quick click cannot send the old game's seats
  seatCount = 0;
  replaceChildren($("seat-list"));
  $("create").disabled = true;
  refreshSeats();
}

async function loadTables() {
  try {
    const tables = await api("/api/tables");
    if (!tables.length) {
      replaceChildren($("tables"), h("p", { class: "muted" }, "No tables yet. Create one above."));
      return;
    }
    replaceChildren($("tables"), h("table", { class: "plain" },
      h("thead", {}, h("tr", {}, h("th", {}, "Code"), h("th", {}, "Game"), h("th", {}, "Players"), h("th", {}, "Status"), h("th", {}, ""))),
      h("tbody", {}, tables.map((t) => {
        const open = t.status === "open" && t.seats.some((s) => !s.taken);
        return h("tr", {},
          h("td", {}, t.code), h("td", {}, t.title),
          h("td", {}, t.seats.map((s) => s.name).join(", ")),
          h("td", {}, open ? "waiting for players" : "playing"),
          h("td", {}, h("a", { class: "button secondary", href: `/t/${t.code}` }, open ? "Join" : "Watch")));
      }))));
  } catch (err) {
    replaceChildren($("tables"), h("p", { class: "muted" }, `Could not load tables: ${err.message}`));
  }
}

async function start() {
  $("name").value = savedName();
  games = await api("/api/games");
  replaceChildren($("game"), games.map((g) => h("option", { value: g.name }, g.title)));
  $("game").addEventListener("change", () => selectGame($("game").value));
  $("options").addEventListener("change", refreshSeats);
  selectGame(games[0].name);
  $("create-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("name").value.trim();
    saveName(name);
    const seats = readSeats();
    const clock = $("clock").value ? Number($("clock").value) : null;
    try {
      const table = await api("/api/tables", {
        game: current.name, options: readOptions(), seats, clock, listed: $("listed").checked,
        name: seats.some((s) => s.kind === "human") ? name : null,
      });
      location.href = `/t/${table.code}`;
    } catch (err) { notice(err.message); }
  });
  $("code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = $("code").value.trim().toUpperCase().replace(/[^A-Z0-9]/g, "");
    if (code) location.href = `/t/${code}`;
  });
  loadTables();
  setInterval(loadTables, 5000);
}

start().catch((err) => notice(`The lobby could not start: ${err.message}`));
