// Circus Maximus: the five lines with every trader (seat colour and number), the venues and
// their visitors, the forum's tickets, each player's hand, favours, tickets and coins.
import { h, replaceChildren } from "/static/common.js";

const chip = (seat, text, seatName) => h("span", { class: `chip p${seat % 8}`, title: seatName(seat) }, `${seat + 1}`, text !== undefined ? `·${text}` : null);

function lineName(data, i) { return ((data.lines || [])[i] || { name: `Line ${i + 1}` }).name; }
function visitor(data, key) { return (data.visitors || {})[key] || key; }
function favour(data, key) { return (data.favours || {})[key] || key; }

function board(root, data, obs, seatName) {
  replaceChildren(root,
    h("h2", {}, `Day ${obs.day} — ${obs.phase_name}`),
    h("p", {}, "Coins: ", obs.scores.map((s, seat) => h("span", { class: "score" }, chip(seat, undefined, seatName), ` ${seatName(seat)} ${s}  `))),
    h("h3", {}, "The five lines"),
    h("div", { class: "lines", id: "lines" }, obs.lines.map((line, i) => h("div", { "data-line": i },
      h("span", { class: "line-name" }, lineName(data, i), obs.resolving_line && (data.lines || [])[i] && data.lines[i].key === obs.resolving_line ? " ◂" : ""),
      line.length ? line.map(([seat, rank, eff]) => chip(seat, eff !== rank ? `${rank}→${eff}` : rank, seatName)) : h("span", { class: "muted" }, "empty")))),
    h("h3", {}, "Venues"),
    h("table", { class: "plain" }, h("tbody", {}, (obs.venues || []).map((vs, i) => h("tr", {},
      h("th", { scope: "row" }, ((data.venues || [])[i] || { name: `Venue ${i + 1}` }).name),
      h("td", {}, vs.length ? vs.map((v) => visitor(data, v)).join(", ") : "no visitors"),
      h("td", {}, obs.bonus && obs.bonus[i] ? `bonus ${obs.bonus[i]}` : ""))))),
    h("p", {}, "Forum tickets: ", (obs.forum || []).join(", ") || "none"),
    h("p", {}, "Favours on display: ", (obs.favour_display || []).map((f) => favour(data, f)).join(", ") || "none"),
    obs.pending_visitor ? h("p", { class: "leader" }, `Visitor to place: ${visitor(data, obs.pending_visitor)}`) : null,
    h("h3", {}, "Players"),
    h("table", { class: "plain" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Traders in hand"), h("th", {}, "Favours"), h("th", {}, "Tickets"))),
      h("tbody", {}, obs.hands.map((hand, seat) => h("tr", { class: seat === obs.seat ? "you" : "" },
        h("th", { scope: "row" }, chip(seat, undefined, seatName), ` ${seatName(seat)}`, obs.passed && obs.passed[seat] ? " (passed)" : ""),
        h("td", {}, hand.join(" ") || "—"),
        h("td", {}, (obs.favours[seat] || []).map((f) => favour(data, f)).join(", ") || "—"),
        h("td", {}, (obs.tickets[seat] || []).join(", ") || "—"))))));
}

export default {
  board(root, ctx) { board(root, ctx.data, ctx.view.observation, ctx.seatName); },
  frame(root, obs, ctx) { board(root, ctx.data, obs, ctx.seatName); },
};
