// The replay viewer of a finished game: each frame is the table after one move, as the chosen
// seat saw it (the server opens replays only once the game is over).
import { api, gameModule, h, replaceChildren, withSeatNames } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();
const page = { frames: [], names: [], index: 0, mod: null, data: {} };

function seatName(i) {
  if (i === -2) return "Contender";
  if (i === -1) return "Chance";
  return page.names[i] || `Player ${i + 1}`;
}

function show(i) {
  page.index = Math.max(0, Math.min(page.frames.length - 1, i));
  const frame = page.frames[page.index];
  $("slider").value = page.index;
  $("step").textContent = `Move ${frame.ply} of ${page.frames.length - 1}: ${withSeatNames(frame.label, page.names)}`;
  page.mod.frame($("board"), frame.observation, { data: page.data, seatName, live: false });
}

async function load(viewer) {
  const query = viewer === "" ? "" : `?seat=${viewer}`;
  const replay = await api(`/api/tables/${code}/replay${query}`);
  page.frames = replay.frames;
  page.names = replay.names;
  $("slider").max = page.frames.length - 1;
  return replay;
}

async function start() {
  $("record").href = `/api/tables/${code}/record`;
  $("back").href = `/t/${code}`;
  let replay;
  try { replay = await load(""); } catch (err) { $("notice").textContent = err.message; return; }
  const loaded = await gameModule(replay.table.game);
  page.mod = loaded.mod.default;
  page.data = loaded.data;
  $("title").textContent = `${replay.table.title} · table ${code} · replay`;
  replaceChildren($("viewer"), h("option", { value: "" }, "spectator"),
    replay.names.map((n, i) => h("option", { value: i, selected: replay.viewer === i }, n)));
  $("viewer").addEventListener("change", async () => { await load($("viewer").value); show(page.index); });
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
}

start().catch((err) => { $("notice").textContent = `The replay could not start: ${err.message}`; });
