// A live table: joins or watches, keeps a WebSocket open (reconnecting by itself), and draws
// each view the server sends. The server sends only what this seat may see; this page keeps
// nothing else. The board itself is drawn by the game's page module.
import { api, gameModule, h, replaceChildren, savedName, saveName } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split("/")[2] || "").toUpperCase();
const page = { info: null, view: null, history: [], mod: null, data: {}, ws: null, pending: null, nextId: 1,
  retry: 0, watching: false, clockTimer: null, clockAt: 0, lastTurnMoves: -1 };

function notice(text, kind) {
  const box = $("notice");
  box.className = kind === "error" ? "error" : "";
  box.textContent = text || "";
}

function seatName(i) {
  if (i === -2) return "Contender";
  if (i === -1) return "Chance";
  const names = (page.view && page.view.names) || (page.info && page.info.names) || [];
  return names[i] || `Seat ${i + 1}`;
}

function ctx() {
  return { view: page.view, you: page.view ? page.view.you : null, names: (page.view || page.info).names, data: page.data,
    seatName, act, pending: page.pending !== null, history: page.history, live: true };
}

// ---------------------------------------------------------------- joining
async function start() {
  if (!code) { notice("No table code in the address.", "error"); return; }
  try {
    page.info = await api(`/api/tables/${encodeURIComponent(code)}`);
  } catch (err) {
    notice(err.status === 404 ? `There is no table ${code}.` : err.message, "error");
    return;
  }
  const loaded = await gameModule(page.info.game);
  page.mod = loaded.mod.default;
  page.data = loaded.data;
  document.title = `${page.info.title} · ${code} — Ludus`;
  $("title").textContent = `${page.info.title} · table ${code}`;
  $("record").href = `/api/tables/${code}/record`;
  $("replay-link").href = `/t/${code}/replay`;
  $("rematch").addEventListener("click", rematch);
  $("leave").addEventListener("click", leave);
  const free = page.info.seats.filter((s) => s.kind === "human" && !s.taken);
  if (page.info.you === null && page.info.status === "open" && free.length) showJoin(free);
  else connect();
}

function showJoin(free) {
  $("join").classList.remove("hidden");
  $("join-name").value = savedName();
  replaceChildren($("join-seat"), free.map((s) => h("option", { value: s.seat }, `Seat ${s.seat + 1}`)));
  $("join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    saveName(name);
    try {
      page.info = await api(`/api/tables/${code}/join`, { name, seat: Number($("join-seat").value) });
      $("join").classList.add("hidden");
      notice("");
      connect();
    } catch (err) { notice(err.message, "error"); }
  });
  $("watch-button").addEventListener("click", () => { $("join").classList.add("hidden"); page.watching = true; connect(); });
  renderSeats(page.info, null, []);
}

// ---------------------------------------------------------------- connection
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${code}`);
  page.ws = ws;
  $("conn").textContent = page.retry ? "reconnecting…" : "connecting…";
  ws.addEventListener("open", () => { page.retry = 0; $("conn").textContent = "connected"; });
  ws.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  ws.addEventListener("close", (event) => {
    if (page.ws !== ws) return;
    page.pending = null;
    if (event.code === 4404) {  // gone for good; an "expired" error sent just before says why
      if (!$("notice").textContent) notice(`There is no table ${code}.`, "error");
      $("conn").textContent = "";
      return;
    }
    $("conn").textContent = "connection lost — reconnecting…";
    const delay = Math.min(5000, 300 * 2 ** page.retry++);
    setTimeout(connect, delay);
  });
}

function send(msg) {
  if (!page.ws || page.ws.readyState !== WebSocket.OPEN) { notice("Not connected yet; wait a moment.", "error"); return false; }
  page.ws.send(JSON.stringify(msg));
  return true;
}

function act(action) {
  if (page.pending !== null) return;
  const id = page.nextId++;
  if (send({ type: "act", action, moves: page.view.moves, id })) {
    page.pending = id;
    notice("");
    draw();
  }
}

function receive(msg) {
  if (msg.type === "view") {
    const from = msg.history.from;
    page.history = from === 0 ? msg.history.entries : page.history.slice(0, from).concat(msg.history.entries);
    page.view = msg;
    page.clockAt = performance.now();
    draw();
  } else if (msg.type === "ack") {
    if (msg.id === page.pending) page.pending = null;
  } else if (msg.type === "error") {
    if (msg.id === page.pending) page.pending = null;
    notice(msg.message, "error");
    if (page.view) draw();
  }
}

// ---------------------------------------------------------------- drawing
function renderSeats(info, view, toMove) {
  const clocks = (view && view.clock) || {};
  const elapsed = (performance.now() - page.clockAt) / 1000;
  replaceChildren($("seats"), info.seats.map((s) => {
    const left = clocks[String(s.seat)];
    const you = view ? view.you === s.seat : info.you === s.seat;
    return h("li", { class: [toMove.includes(s.seat) ? "to-move" : "", you ? "you" : ""].join(" "),
      "aria-current": toMove.includes(s.seat) ? "true" : null },
      s.name, you ? h("span", { class: "badge" }, "you") : null,
      s.kind === "bot" ? h("span", { class: "badge" }, `bot: ${s.bot}`) : null,
      s.away ? h("span", { class: "badge away" }, `bot playing (${s.away})`) : null,
      s.kind === "human" && s.taken && !s.connected ? h("span", { class: "badge off" }, "offline") : null,
      left !== undefined ? h("span", { class: "badge clock" }, `${Math.max(0, Math.ceil(left - elapsed))} s`) : null,
      toMove.includes(s.seat) ? h("span", { class: "badge" }, "to move") : null);
  }));
}

function draw() {
  const view = page.view;
  if (!view) return;
  const info = view.table;
  const you = view.you;
  const mine = you !== null && view.to_move.includes(you);
  renderSeats(info, view, view.to_move);
  let status;
  if (info.status === "open") status = "Waiting for every seat to be taken…";
  else if (view.terminal) status = "The game is over.";
  else if (mine) status = "Your turn.";
  else status = `Waiting for ${view.to_move.map(seatName).join(", ")}.`;
  $("status").textContent = status;
  document.title = `${mine ? "● Your turn — " : ""}${info.title} · ${code}`;
  const away = you !== null ? info.seats[you].away : null;
  const banner = $("banner");
  if (away) {
    banner.classList.remove("hidden");
    const why = { left: "you left", timeout: "your time ran out", disconnected: "you were disconnected" }[away] || away;
    replaceChildren(banner, h("span", {}, `A bot is playing your seat (${why}). `),
      h("button", { type: "button", id: "resume", onclick: () => send({ type: "resume", id: page.nextId++ }) }, "Take my seat back"));
  } else if (info.status === "open" && you !== null) {
    banner.classList.remove("hidden");
    replaceChildren(banner, "Waiting for players. Share this link: ",
      h("a", { href: location.href, id: "share-link" }, location.href), ` (or the code ${code}).`);
  } else if (you === null && info.status !== "open") {
    banner.classList.remove("hidden");
    banner.textContent = "You are watching: only public information is shown.";
  } else banner.classList.add("hidden");
  const context = ctx();
  page.mod.board($("board"), context);
  if (!(page.mod.moves && page.mod.moves($("moves"), context))) genericMoves($("moves"), context);
  drawLog(context);
  drawSummary(context);
  $("leave").classList.toggle("hidden", you === null || info.status === "finished");
  $("replay-link").classList.toggle("hidden", !view.terminal);
  $("rematch").classList.toggle("hidden", !(view.terminal && you !== null && !info.rematch));
  const link = $("rematch-link");
  link.classList.toggle("hidden", !info.rematch);
  if (info.rematch) link.href = `/t/${info.rematch}`;
  if (mine && view.moves !== page.lastTurnMoves) {
    page.lastTurnMoves = view.moves;
    if (page.mod.focusMoves) page.mod.focusMoves($("board"));
  }
  if (!page.clockTimer && Object.keys(view.clock || {}).length) {
    page.clockTimer = setInterval(() => {
      if (!page.view || !Object.keys(page.view.clock || {}).length) { clearInterval(page.clockTimer); page.clockTimer = null; return; }
      renderSeats(page.view.table, page.view, page.view.to_move);
    }, 1000);
  }
}

function genericMoves(root, context) {
  const view = context.view;
  if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return; }
  root.classList.remove("hidden");
  replaceChildren(root, h("h2", {}, "Your moves"), h("div", { class: "legal-list" },
    view.legal.map((m) => h("button", { type: "button", class: "move", disabled: context.pending,
      onclick: () => act(m.action) }, m.label))));
}

function drawLog(context) {
  const lines = [];
  page.history.forEach((entry, i) => {
    const line = page.mod.logLine ? page.mod.logLine(entry, context) : defaultLogLine(entry);
    if (line) lines.push(h("li", { value: i + 1 }, line));
  });
  replaceChildren($("log"), lines.slice(-300));
}

function defaultLogLine([actor, action, label]) {
  if (action === "hidden") return actor === -1 ? null : `${seatName(actor)}: (hidden)`;
  return actor === -1 ? label : `${seatName(actor)}: ${label}`;
}

function drawSummary(context) {
  const box = $("summary");
  if (!context.view.terminal) { box.classList.add("hidden"); return; }
  box.classList.remove("hidden");
  if (page.mod.summary && page.mod.summary(box, context)) return;
  const result = context.view.result;
  replaceChildren(box, h("h2", {}, "Game over"),
    h("p", {}, "Winner(s): ", result.winners.map(seatName).join(", ") || "none"),
    h("table", { class: "plain" }, h("tbody", {}, result.scores.map((s, i) =>
      h("tr", {}, h("th", {}, seatName(i)), h("td", {}, s))))));
}

async function rematch() {
  try {
    const table = await api(`/api/tables/${code}/rematch`, {});
    location.href = `/t/${table.code}`;
  } catch (err) { notice(err.message, "error"); }
}

async function leave() {
  try {
    await api(`/api/tables/${code}/leave`, {});
    location.href = "/";
  } catch (err) { notice(err.message, "error"); }
}

start().catch((err) => notice(`This page could not start: ${err.message}`, "error"));
