// Gorus Arena: each player's coins, points and gladiators in the arena, the market by kind,
// your hand and plan, and the latest events. Moves: the legal-move buttons.
import { h, replaceChildren, withSeatNames } from "/static/common.js";

function info(data, id) { return (data.cards || [])[id] || { name: `card ${id}`, summary: "" }; }
const chip = (seat, seatName) => h("span", { class: `chip p${seat % 8}`, title: seatName(seat) }, `${seat + 1}`);

function cards(data, ids) {
  if (!ids || !ids.length) return h("span", { class: "muted" }, "none");
  return ids.map((id) => { const c = info(data, id); return h("span", { class: "gcard" }, h("strong", {}, c.name), h("span", { class: "effect" }, c.summary)); });
}

function market(data, ids) {
  const counts = new Map();
  for (const id of ids || []) { const c = info(data, id); counts.set(c.name, { c, n: ((counts.get(c.name) || {}).n || 0) + 1 }); }
  if (!counts.size) return h("p", { class: "muted" }, "The market is empty.");
  return h("ul", {}, [...counts.values()].map(({ c, n }) => h("li", {}, h("strong", {}, c.name), ` ×${n} — ${c.summary}`)));
}

function board(root, data, obs, seatName) {
  const you = obs.seat;
  replaceChildren(root,
    h("h2", {}, `Round ${obs.round} of ${obs.rounds} — ${obs.phase}`),
    h("table", { class: "plain", id: "players" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Coins"), h("th", {}, "Points"), h("th", {}, "Held"), h("th", {}, "Arena"))),
      h("tbody", {}, obs.coins.map((coins, seat) => h("tr", {},
        h("th", { scope: "row" }, chip(seat, seatName), ` ${seatName(seat)}`, obs.ready && obs.ready[seat] ? " ✓" : ""),
        h("td", { class: "coins" }, coins), h("td", {}, obs.scores ? obs.scores[seat] : ""), h("td", {}, obs.held ? obs.held[seat] : ""),
        h("td", {}, cards(data, (obs.arena || [])[seat])))))),
    you !== null && obs.hand ? [h("h3", {}, "Your hand"), h("div", { id: "hand-cards" }, cards(data, obs.hand)),
      h("h3", {}, "Your plan"), h("div", {}, cards(data, obs.plan))] : null,
    h("h3", {}, `Market (${(obs.market || []).length} cards)`), market(data, obs.market),
    obs.events && obs.events.length ? [h("h3", {}, "Latest events"),
      h("ol", { class: "events", start: Math.max(1, obs.events.length - 11) },
        obs.events.slice(-12).map((e) => h("li", {}, withSeatNames(e, obs.coins.map((_, seat) => seatName(seat))))))] : null);
}

export default {
  board(root, ctx) { board(root, ctx.data, ctx.view.observation, ctx.seatName); },
  frame(root, obs, ctx) { board(root, ctx.data, obs, ctx.seatName); },
};
