// Gorus Maximus: your troupe by school (icon and colour), the bout, the initiating and
// preferred schools, the previous bout, Crowd Favour and Crowd Support, round and game
// summaries. Every card in your troupe is a button: a playable one is played, any other
// is sent too so the server can say why it is refused.
import { h, replaceChildren, svg } from "/static/common.js";

const ICONS = {  // simple line drawings so schools differ by shape as well as colour
  BF: ["M6 10h12v7a3 3 0 0 1-3 3H9a3 3 0 0 1-3-3z", "M6 10V7a1.5 1.5 0 0 1 3 0v3M9 10V6a1.5 1.5 0 0 1 3 0v4M12 10V6a1.5 1.5 0 0 1 3 0v4M15 10V7a1.5 1.5 0 0 1 3 0v3"],
  BS: ["M4 4l12 12M20 4L8 16", "M13 19l6-6M5 13l6 6M3 21l3-3M21 21l-3-3"],
  GA: ["M4 20L19 5", "M13 5h6v6", "M4 20l1-4M4 20l4-1"],
  PA: ["M12 3v18", "M12 4c5 0 7 3 7 6-3 0-5-1-7-2", "M12 4C7 4 5 7 5 10c3 0 5-1 7-2"],
  YS: ["M12 3l8 3v6c0 5-4 8-8 9-4-1-8-4-8-9V6z", "M12 3v18M4 10h16"],
};

function schoolInfo(data, code) { return (data.schools || []).find((s) => s.code === code); }

function icon(code) {
  const paths = (ICONS[code] || []).map((d) => svg("path", { d, fill: "none", stroke: "currentColor", "stroke-width": 2,
    "stroke-linecap": "round", "stroke-linejoin": "round" }));
  return svg("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, ...paths);
}

function schoolChip(data, code) {
  if (!code) return h("span", { class: "muted" }, "—");
  const s = schoolInfo(data, code);
  return h("span", { class: `school s-${s.colour}`, title: s.icon }, icon(code), s.name);
}

function parse(data, card) {
  const code = card.slice(0, 2);
  const s = schoolInfo(data, code);
  return { code, rank: Number(card.slice(2)), school: s, label: `${s.short} ${Number(card.slice(2))}` };
}

function cardFace(data, card, extra = {}) {
  const c = parse(data, card);
  return h("span", { class: `card s-${c.school.colour}`, title: `${c.school.name} ${c.rank}`, "aria-label": c.label, ...extra },
    icon(c.code), String(c.rank));
}

function sideName(obs, side, seatName) {
  if (obs.solo) return side === 0 ? "You" : "Contenders";
  const seats = obs.side_of_seat.map((s, i) => [s, i]).filter(([s]) => s === side).map(([, i]) => seatName(i));
  return obs.side_names.length === obs.players ? seats[0] : `${obs.side_names[side]} (${seats.join(", ")})`;
}

function crowdFavour(data, obs, side) {
  const cf = data.cf;
  if (!cf) return null;
  let total = 0;
  for (const card of obs.collected[side] || []) {
    const c = parse(data, card);
    total += cf.by_rank[c.rank];
    if (c.rank === 0 && c.code === obs.preferred) total += cf.preferred_zero - cf.by_rank[0];
  }
  return total;
}

function boutView(data, bout, seatName, label) {
  if (!bout.length) return h("p", { class: "muted" }, "No gladiator has entered yet.");
  return h("div", { class: "bout", role: "list", "aria-label": label }, bout.map(([actor, card], i) => {
    const challenge = i > 0 && Number(bout[i - 1][1].slice(2)) === Number(card.slice(2));
    return h("figure", { role: "listitem" }, cardFace(data, card), h("figcaption", {}, seatName(actor)),
      challenge ? h("span", { class: "challenge" }, "Challenge!") : null);
  }));
}

function sidesTable(data, obs, seatName) {
  return h("table", { class: "plain" },
    h("caption", { class: "small muted" }, "Crowd Support (needed to win) and this round's Crowd Favour"),
    h("thead", {}, h("tr", {}, h("th", {}, "Side"), h("th", {}, "Support"), h("th", {}, "Favour"),
      h("th", {}, "Won"))),
    h("tbody", {}, obs.support.map((support, side) => h("tr", {},
      h("th", { scope: "row" }, sideName(obs, side, seatName)),
      h("td", {}, `${support} / ${obs.targets[side]}`),
      h("td", {}, crowdFavour(data, obs, side) ?? "?"),
      h("td", {}, obs.collected_counts[side])))));
}

function roundSummary(data, obs, seatName, open) {
  const lr = obs.last_round;
  if (!lr) return null;
  return h("details", { class: "panel", open, id: "round-summary" },
    h("summary", {}, `End of round ${lr.round}`),
    h("p", {}, "Preferred school at the end: ", schoolChip(data, lr.preferred)),
    lr.preferred_zero_side !== null ? h("p", { class: "small" }, "★ took the preferred school's 0") : null,
    lr.no_eight ? h("p", {}, "You collected no 8: the crowd smells a fix, and the round goes to the contenders.") : null,
    h("table", { class: "plain" },
      h("thead", {}, h("tr", {}, h("th", {}, "Side"), h("th", {}, "Favour"), h("th", {}, "Won"), h("th", {}, "Support +"))),
      h("tbody", {}, lr.crowd_favour.map((cf, side) => h("tr", {},
        h("th", { scope: "row" }, sideName(obs, side, seatName)),
        h("td", {}, lr.preferred_zero_side === side ? `${cf} ★` : cf),
        h("td", {}, lr.collected_counts[side]), h("td", {}, lr.support_gained[side]))))));
}

function markers(data, obs, seatName) {
  return h("div", { class: "markers" },
    h("div", {}, h("strong", {}, `Round ${obs.round}`), obs.solo ? null : h("span", { class: "muted" }, `dealer ${seatName(obs.dealer)}`)),
    h("div", { id: "preferred" }, "Preferred:", schoolChip(data, obs.preferred)),
    h("div", { id: "initiating" }, "Initiating:", schoolChip(data, obs.initiating)),
    obs.stock_size ? h("div", {}, `${obs.solo ? "Contender stack" : "Draw pile"}: ${obs.stock_size}`) : null);
}

function table(root, data, obs, seatName, hand) {
  const fresh = obs.last_round && obs.last_round.round === obs.round - 1 && !obs.previous_bout.length && !obs.bout.length;
  const prevWinner = obs.previous_winner;
  replaceChildren(root,
    h("h2", {}, "The arena"),
    markers(data, obs, seatName),
    h("h3", {}, "Bout"),
    boutView(data, obs.bout, seatName, "Current bout"),
    hand,
    h("details", { id: "previous-bout", open: obs.previous_bout.length > 0 },
      h("summary", {}, prevWinner === null ? "Previous bout (none yet this round)" : `Previous bout — won by ${seatName(prevWinner)}`),
      boutView(data, obs.previous_bout, seatName, "Previous bout")),
    sidesTable(data, obs, seatName),
    roundSummary(data, obs, seatName, !!fresh || obs.winners.length > 0));
}

function handView(data, obs, ctx) {
  if (!obs.hand) return null;
  const legal = new Set(ctx.live ? ctx.view.legal.map((m) => m.action.play) : []);
  const bySchool = new Map();
  for (const card of obs.hand) {
    const code = card.slice(0, 2);
    if (!bySchool.has(code)) bySchool.set(code, []);
    bySchool.get(code).push(card);
  }
  const rows = (data.schools || []).filter((s) => bySchool.has(s.code)).map((s) => h("div", { class: "hand-row", role: "group",
    "aria-label": s.name }, schoolChip(data, s.code), bySchool.get(s.code).map((card) => {
    const c = parse(data, card);
    if (!ctx.live) return cardFace(data, card);
    const playable = legal.has(card);
    return h("button", { type: "button", class: `card s-${s.colour} ${playable ? "playable" : "unplayable"}`,
      "data-card": card, "aria-label": `${c.label}${playable ? "" : " (not playable now)"}`,
      disabled: ctx.pending,
      onclick: () => ctx.act({ play: card }), onkeydown: arrowKeys }, icon(s.code), String(c.rank));
  })));
  const mine = ctx.live && ctx.view.to_move.includes(ctx.you);
  return h("section", { id: "hand", "aria-label": "Your troupe" },
    h("h3", {}, `Your troupe (${obs.hand.length})`),
    ctx.live ? h("p", { class: "small muted" }, mine ? "Your turn: highlighted gladiators may enter the bout. Arrow keys move between cards."
      : "Not your turn yet.") : null,
    rows.length ? rows : h("p", { class: "muted" }, "Your troupe is empty."));
}

function arrowKeys(event) {
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
  const cards = [...document.querySelectorAll("#hand button.card")];
  const i = cards.indexOf(event.currentTarget);
  let j = i;
  if (event.key === "Home") j = 0;
  else if (event.key === "End") j = cards.length - 1;
  else j = (i + (event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1) + cards.length) % cards.length;
  event.preventDefault();
  cards[j].focus();
}

function cardLabel(data, code) { return parse(data, code).label; }

export default {
  board(root, ctx) {
    const obs = ctx.view.observation;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    table(root, ctx.data, obs, ctx.seatName, handView(ctx.data, obs, ctx));
    if (focused) {
      const again = root.querySelector(`button[data-card="${focused}"]`);
      if (again) again.focus();
    }
  },
  moves(root) { replaceChildren(root); root.classList.add("hidden"); return true; },  // the troupe is the move list
  focusMoves(root) {
    if (document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand")) return;
    const first = root.querySelector("#hand button.playable");
    if (first && document.activeElement === document.body) first.focus();
  },
  frame(root, obs, ctx) { table(root, ctx.data, obs, ctx.seatName, handView(ctx.data, obs, { ...ctx, live: false })); },
  logLine([actor, action, label], ctx) {
    if (action === "hidden") return null;  // other seats' deals
    if (action.reveal) return `Contender plays ${cardLabel(ctx.data, action.reveal)}`;
    if (action.play) return `${ctx.seatName(actor)} plays ${cardLabel(ctx.data, action.play)}`;
    if (action.schools) return label;
    return null;  // your own deals would flood the log
  },
  summary(root, ctx) {
    const obs = ctx.view.observation;
    const champions = obs.solo ? (obs.winners.length ? "You are the Champion of Gorus Maximus!" : "The contenders win the crowd.")
      : `Champion(s) of Gorus Maximus: ${obs.winners.map(ctx.seatName).join(", ")}`;
    replaceChildren(root, h("h2", {}, "Game over"), h("p", { class: "leader", id: "champions" }, champions),
      h("p", {}, "Final Crowd Support: ", obs.support.map((s, side) => `${sideName(obs, side, ctx.seatName)} ${s}`).join(" · ")));
    return true;
  },
};
