// Gorus Arena as a card table: the round, the phase and what the current choice means in one
// sentence; what the latest choice set off; each player with coins, points, the plan (face up
// for you, face down for the others: only how many cards) or, once revealed, the arena card by
// card; your hand and the market as cards with strength and effect; the round's events by name.
// Values the source text does not give are marked as ours on every card (data/cards.toml,
// `printed`). Moves: one button per legal move, each saying what it does; hand cards (planning),
// market cards (recruit) and rival cards (attack) are buttons for the same moves.
import { h, replaceChildren, withSeatNames } from "/static/common.js";

const ACTION_WORDS = { attack: "Attack", defence: "Guard", recruit: "Recruit", income: "Income" };
const FIELD_WORDS = { name: "name", cost: "cost", defence: "defence", points: "points", strength: "strength", actions: "action" };

function info(data, id) {
  return (data.cards || [])[id] || { name: `card ${id}`, actions: [], strength: 0, cost: 0, defence: 0, points: 0, printed: [], gladiator: true };
}

const plural = (n, one, many) => `${n} ${n === 1 ? one : many || `${one}s`}`;
const names = (obs, seatName) => Array.from({ length: obs.players }, (_, s) => seatName(s));
const named = (text, obs, seatName) => withSeatNames(text, names(obs, seatName));

// What one action of a card does, in a few words (the action's name first, in bold).
function effect(data, c, action) {
  const words = action === "attack" ? `kills a rival gladiator whose defence is below ${c.strength}`
    : action === "defence" ? `your gladiators count as defence ${c.strength} or more this round`
      : action === "recruit" ? "buy a card from the market into your hand" : `take ${data.income || 2} coins`;
  return [h("b", {}, `${ACTION_WORDS[action] || action}:`), ` ${words}`];
}

// The small "ours" mark: which of the card's values the source text does not give.
function oursMark(c) {
  const fields = c.gladiator ? ["name", "cost", "defence", "points", "strength", "actions"] : ["name", "cost", "strength", "actions"];
  const ours = fields.filter((f) => !(c.printed || []).includes(f)).map((f) => FIELD_WORDS[f]);
  if (!ours.length) return null;
  const given = fields.filter((f) => (c.printed || []).includes(f)).map((f) => FIELD_WORDS[f]);
  const tip = `Our value${ours.length > 1 ? "s" : ""}: ${ours.join(", ")}. The source text does not give ${ours.length > 1 ? "them" : "it"}; `
    + (given.length ? `it gives only the ${given.join(" and ")}.` : "it gives nothing for this card.");
  return h("span", { class: "ga-ours", title: tip }, h("span", { "aria-hidden": "true" }, "✱"), h("span", { class: "visually-hidden" }, ` (${tip})`));
}

// One card face. `opts.tag` makes it a button; `opts.state` adds a line (killed, acting now...).
function cardFace(data, id, opts = {}) {
  const c = info(data, id);
  const acts = c.actions || [];
  // "gcard": the shared card class (tests/web/test_pages.py finds hand cards by it)
  const attrs = { class: `card gcard ga-card ${c.gladiator ? "glad" : "act"} ${opts.class || ""}`, "data-card": id, "data-kind": c.key, ...(opts.attrs || {}) };
  const body = [
    h("span", { class: "ga-top" }, h("span", { class: "ga-name" }, c.name), oursMark(c),
      h("span", { class: "ga-str", title: "Strength: the card's bid in the auction" }, h("span", { class: "visually-hidden" }, "strength "), String(c.strength))),
    h("span", { class: "ga-effect" }, acts.map((a, i) => [i ? h("span", { class: "ga-or" }, " or ") : null, effect(data, c, a)])),
    h("span", { class: "ga-stats" }, c.gladiator ? `cost ${c.cost} · defence ${c.defence} · ${plural(c.points, "point")}`
      : `cost ${c.cost} · action card: never attacked, no points`),
    opts.state ? h("span", { class: "ga-state" }, opts.state) : null,
    opts.extra || null,
  ];
  return h(opts.tag || "span", attrs, body);
}

function faceDown(n, seatName) {
  if (!n) return h("p", { class: "small muted ga-plan-empty" }, "No card laid yet.");
  return h("div", { class: "ga-row ga-plan face-down", role: "img", "aria-label": `${seatName}: ${plural(n, "card")} laid face down` },
    Array.from({ length: n }, (_, i) => h("span", { class: "card ga-back", "aria-hidden": "true" }, h("span", {}, String(i + 1)))));
}

function chip(seat, seatName) { return h("span", { class: `chip p${seat % 8}` }, seatName(seat)); }

// Every living card a seat owns, wherever it lies (public: recruits and deaths happen in view).
function team(obs, seat) {
  const dead = new Set(obs.dead);
  return [...obs.reserve[seat], ...obs.discard[seat], ...obs.arena[seat]].filter((id) => !dead.has(id)).sort((a, b) => a - b);
}

// Who owns a card: found among the public zones (a card killed in an earlier round is in none).
function ownerOf(obs, id) {
  for (let s = 0; s < obs.players; s++) {
    if (obs.reserve[s].includes(id) || obs.discard[s].includes(id) || obs.arena[s].includes(id)) return s;
  }
  return null;
}

function countByName(data, ids) {
  const counts = new Map();
  for (const id of ids) { const c = info(data, id); counts.set(c.name, (counts.get(c.name) || 0) + 1); }
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
}

function phaseWords(obs) {
  if (obs.phase === "plan") return "Planning";
  if (obs.phase === "exec") return `Reveal, position ${obs.slot + 1}`;
  if (obs.phase === "over") return "Game over";
  return "Drawing";
}

function optionsOf(ctx) {
  const o = (ctx.view && ctx.view.table && ctx.view.table.options) || {};
  return { targets: o["attack-targets"] || o.attack_targets || "bout" };
}

// The acting card (seat, id) and what its choice means, in one sentence.
function choiceSentence(data, obs, ctx) {
  const seatName = ctx.seatName;
  if (obs.phase === "over") return `The game is over: every living gladiator scored its points, and every ${data.coins_per_point || 3} coins one more.`;
  if (obs.phase === "plan") {
    const mine = obs.seat !== null && ctx.live && ctx.view.to_move.includes(obs.seat);
    if (mine) return `Your choice: which card of your hand goes face down next, at position ${obs.plan.length + 1} of your plan. Position 1 acts first, and a card's strength is its bid against the cards at the same position.`;
    const waiting = ctx.live ? ctx.view.to_move.map(seatName) : [];
    return `Everyone lays the cards of their hand face down, in the order they will act${waiting.length ? `; waiting for ${waiting.join(", ")}` : ""}.`;
  }
  if (obs.phase === "exec" && obs.pending) {
    const [seat, id] = obs.pending;
    const c = info(data, id);
    const who = obs.seat === seat ? "Your" : `${seatName(seat)}'s`;
    const can = (c.actions || []).map((a) => (a === "attack" ? (optionsOf(ctx).targets === "bout" ? "attack a rival gladiator at this position" : "attack a rival gladiator")
      : a === "recruit" ? "recruit from the market" : a === "income" ? `take ${data.income || 2} coins` : "guard")).join(", or ");
    return `${obs.seat === seat ? "Your choice: " : "Now "}${who} ${c.name} (strength ${c.strength}) at position ${obs.slot + 1} may ${can}, or pass.`;
  }
  if (obs.phase === "draw" && obs.draws.length && obs.draws[0][1] === "market") {
    const [seat, , left] = obs.draws[0];
    const mine = obs.seat === seat;
    return `${mine ? "Your" : `${seatName(seat)}'s`} hand is empty after drawing: ${mine ? "take" : "they take"} a gladiator from the market, free (${left} still to take).`;
  }
  return "The revealed cards are carried out position by position: the strongest card at each position acts first.";
}

// The log lines the latest choice set off (and everything carried out automatically after it).
function latest(obs, seatName) {
  const lines = obs.step_events ? obs.events.slice(-obs.step_events) : [];
  return h("section", { class: "ga-latest panel", id: "ga-latest", "aria-labelledby": "ga-latest-title", "aria-live": "polite" },
    h("h3", { id: "ga-latest-title" }, "What just happened"),
    lines.length ? h("ul", { class: "ga-events" }, lines.map((e) => eventLine(e, obs, seatName)))
      : h("p", { class: "small muted" }, obs.round === 1 && obs.phase === "plan" ? "The game has just begun: nothing has happened yet." : "Nothing new since the last choice."));
}

function eventLine(text, obs, seatName) {
  const words = named(text, obs, seatName).replace(/^— (.*) —$/, "$1");
  const kind = /: killed$/.test(text) ? "ko" : / wins with strength /.test(text) ? "winner" : /^— Round /.test(text) ? "round" : /tie at strength/.test(text) ? "tie" : "";
  const label = { ko: "killed", winner: "auction won", round: "new round", tie: "tie" }[kind];
  return h("li", { class: kind ? `ga-ev ${kind}` : "ga-ev" }, words, label ? h("span", { class: `log-mark ${kind}`, "data-mark": kind }, label) : null);
}

// The events of the current round (from its "Round N" line), or the last few.
function roundEvents(obs, seatName) {
  let from = -1;
  obs.events.forEach((e, i) => { if (/^— Round /.test(e)) from = i; });
  const lines = from >= 0 ? obs.events.slice(from) : obs.events.slice(-12);
  return h("details", { class: "ga-round-events", id: "ga-round-events", open: obs.phase === "exec" || obs.phase === "over" },
    h("summary", {}, `Round ${obs.round}, step by step (${plural(lines.length, "line")})`),
    // it scrolls when long: focusable, so a keyboard can scroll it too
    h("ol", { class: "ga-events", tabindex: 0, "aria-label": `Round ${obs.round}, step by step` }, lines.map((e) => eventLine(e, obs, seatName))));
}

function legalBy(ctx) {
  const by = { place: new Map(), recruit: new Map(), attack: new Map() };
  if (!ctx.live || !ctx.view) return by;
  for (const m of ctx.view.legal) {
    const a = m.action;
    if (a.do === "place") by.place.set(a.card, m);
    else if (a.do === "recruit") by.recruit.set(a.card, m);
    else if (a.do === "attack") by.attack.set(a.target, m);
  }
  return by;
}

function arenaCard(data, obs, seat, id, pos, by, ctx) {
  const dead = obs.dead.includes(id);
  const acting = obs.pending && obs.pending[1] === id;
  const acted = obs.acted.includes(id);
  const state = dead ? "✗ killed" : acting ? "▶ acting now" : acted ? "✓ has acted" : obs.phase === "exec" && pos < obs.slot ? "did not act" : obs.phase === "exec" && pos === obs.slot ? "at this position" : "waiting";
  const target = by.attack.get(id);
  const cls = `${dead ? "dead" : ""} ${acting ? "acting" : ""} ${acted ? "acted" : ""} ${pos === obs.slot ? "current" : ""} ${target ? "playable target" : ""}`;
  const extra = h("span", { class: "ga-pos" }, `position ${pos + 1}`);
  if (target) {
    return cardFace(data, id, { tag: "button", class: cls, state, extra,
      attrs: { type: "button", disabled: ctx.pending, "aria-label": `${target.label.split(" #")[0]} of ${ctx.seatName(seat)} (position ${pos + 1})`,
        onclick: () => ctx.act(target.action) } });
  }
  return cardFace(data, id, { class: cls, state, extra });
}

function seatPanel(data, obs, seat, ctx, by) {
  const seatName = ctx.seatName;
  const you = obs.seat === seat;
  const arena = obs.arena[seat] || [];
  const shield = obs.shield[seat];
  const living = team(obs, seat);
  const glads = living.filter((id) => info(data, id).gladiator);
  const acts = living.filter((id) => !info(data, id).gladiator);
  let plan;
  if (obs.phase === "plan") {
    plan = you ? [h("h4", {}, "Your plan, face up to you only"),
      obs.plan.length ? h("div", { class: "ga-row ga-plan face-up" }, obs.plan.map((id, i) => cardFace(data, id, { extra: h("span", { class: "ga-pos" }, `position ${i + 1}`) })))
        : h("p", { class: "small muted" }, "No card laid yet.")]
      : [h("h4", {}, `Plan: ${plural(obs.planned[seat], "card")} face down`, obs.ready[seat] ? " — ready ✓" : " — still planning"), faceDown(obs.planned[seat], seatName(seat))];
  } else if (arena.length) {
    plan = [h("h4", {}, "In the arena this round (the revealed plan)"),
      h("div", { class: "ga-row ga-arena" }, arena.map((id, pos) => arenaCard(data, obs, seat, id, pos, by, ctx)))];
  } else plan = [h("p", { class: "small muted" }, obs.phase === "over" ? "" : "Nothing in the arena this round.")];
  return h("section", { class: `ga-seat ${you ? "you" : ""} ${obs.start === seat ? "starts" : ""}`, id: `ga-seat-${seat}`, "aria-label": seatName(seat) },
    h("h3", {}, chip(seat, seatName), you ? h("span", { class: "badge" }, "you") : null,
      obs.start === seat ? h("span", { class: "badge", title: "Acts first on a tie this round" }, "starts") : null),
    h("p", { class: "ga-facts" },
      h("span", { class: "ga-coins coins" }, `${plural(obs.coins[seat], "coin")}`), " · ",
      h("span", { class: "ga-points" }, `${plural(obs.scores[seat], "point")} now`), " · ",
      h("span", {}, `hand ${obs.held[seat]} · draw pile ${obs.deck_count[seat]} · discard ${obs.discard[seat].length}`),
      shield ? [" · ", h("strong", { class: "ga-guard" }, `guarded: defence at least ${shield}`)] : null),
    plan,
    h("p", { class: "small ga-team" }, h("strong", {}, "Team: "), glads.length ? countByName(data, glads) : "no living gladiator",
      acts.length ? [h("br"), h("strong", {}, "Action cards: "), countByName(data, acts)] : null));
}

function handView(data, obs, ctx, by) {
  if (obs.seat === null || obs.seat === undefined || obs.seat >= obs.players) return null;
  const planning = obs.phase === "plan" && ctx.live && by.place.size > 0;
  const cards = obs.hand.map((id) => {
    const c = info(data, id);
    const move = by.place.get(c.key);
    if (planning && move) {
      return cardFace(data, id, { tag: "button", class: "playable", attrs: { type: "button", disabled: ctx.pending,
        "aria-label": `Lay ${c.name} face down at position ${obs.plan.length + 1} (strength ${c.strength}, ${(c.actions || []).join(" or ")})`,
        onclick: () => ctx.act(move.action), onkeydown: arrowKeys } });
    }
    return cardFace(data, id);
  });
  return h("section", { id: "hand", class: "ga-hand", "aria-label": "Your hand" },
    h("h3", {}, `Your hand (${plural(obs.hand.length, "card")}, at most ${data.hand_limit || 5})`),
    planning ? h("p", { class: "small muted" }, "Choose the card to lay next: click it, or use the buttons under “Your moves”. Arrow keys move between cards.") : null,
    cards.length ? h("div", { class: "ga-row", id: "hand-cards" }, cards) : h("p", { class: "small muted" }, "Your hand is empty."));
}

let marketOpen = null;  // the player's own choice to fold or unfold the market, once made

function marketView(data, obs, ctx, by) {
  const groups = new Map();
  for (const id of obs.market) {
    const c = info(data, id);
    if (!groups.has(c.key)) groups.set(c.key, { id, n: 0 });
    groups.get(c.key).n += 1;
  }
  const faces = (wantGlad) => [...groups.values()].filter(({ id }) => info(data, id).gladiator === wantGlad).map(({ id, n }) => {
    const c = info(data, id);
    const move = by.recruit.get(c.key);
    const left = h("span", { class: "ga-left" }, `${n} left`);
    if (move) {
      return cardFace(data, id, { tag: "button", class: "playable", extra: left, attrs: { type: "button", disabled: ctx.pending,
        "aria-label": `Recruit ${c.name} for ${plural(c.cost, "coin")}`, onclick: () => ctx.act(move.action) } });
    }
    return cardFace(data, id, { extra: left });
  });
  const glads = faces(true);
  const armoury = faces(false);
  // On a phone the market is long: folded unless a recruit is being chosen (or the player opened it).
  const open = by.recruit.size > 0 || (marketOpen ?? !window.matchMedia("(max-width: 480px)").matches);
  return h("details", { id: "market", class: "ga-market panel", open,
    ontoggle: (event) => { if (!by.recruit.size) marketOpen = event.currentTarget.open; } },
    h("summary", {}, h("strong", {}, `Market: ${plural(obs.market.length, "card")} to recruit`)),
    h("p", { class: "small muted" }, "A recruit action buys one of these at its cost; it joins the recruiter's hand."),
    glads.length ? h("div", { class: "ga-row" }, glads) : h("p", { class: "muted" }, "No gladiator left."),
    armoury.length ? [h("h4", {}, "Armoury (action cards)"), h("div", { class: "ga-row" }, armoury)] : null);
}

function legend() {
  return h("p", { class: "small muted ga-legend" }, "On each card: the name, its strength (the number in the corner: its bid in the auction), what it can do, and cost · defence · points. ",
    h("span", { "aria-hidden": "true" }, "✱"), " marks values that are ours: the source text does not give them.");
}

function table(root, data, obs, ctx) {
  const by = legalBy(ctx);
  const order = Array.from({ length: obs.players }, (_, i) => (obs.start + i) % obs.players);
  const planningNow = obs.phase === "plan" && obs.hand && obs.hand.length > 0;
  replaceChildren(root,
    h("h2", { id: "ga-round" }, `Round ${obs.round} of ${obs.rounds} — ${phaseWords(obs)}`),
    h("p", { id: "ga-choice", class: "ga-choice" }, choiceSentence(data, obs, ctx)),
    obs.phase === "over" ? null : h("p", { class: "small muted", id: "ga-turn-order" },
      `Turn order this round (it settles ties): ${order.map(ctx.seatName).join(" → ")}.`),
    // while planning, the hand is what the player works with: right under the sentence
    planningNow ? handView(data, obs, ctx, by) : null,
    latest(obs, ctx.seatName),
    h("div", { class: "ga-seats", id: "players" }, Array.from({ length: obs.players }, (_, seat) => seatPanel(data, obs, seat, ctx, by))),
    planningNow ? null : handView(data, obs, ctx, by),
    marketView(data, obs, ctx, by),
    roundEvents(obs, ctx.seatName),
    legend());
}

function arrowKeys(event) {
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
  const cards = [...document.querySelectorAll("#hand button.card")];
  const i = cards.indexOf(event.currentTarget);
  let j;
  if (event.key === "Home") j = 0;
  else if (event.key === "End") j = cards.length - 1;
  else j = (i + (event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : 1) + cards.length) % cards.length;
  event.preventDefault();
  cards[j].focus();
}

// The move buttons, each saying what the move does (and, for an attack, whether it can kill).
function moveLabel(data, obs, ctx, m) {
  const a = m.action;
  if (a.do === "place") {
    const c = (data.cards || []).find((k) => k.key === a.card) || { name: a.card, strength: "?", actions: [] };
    return `Lay ${c.name} at position ${obs.plan.length + 1} (strength ${c.strength}: ${(c.actions || []).map((x) => ACTION_WORDS[x]).join(" or ")})`;
  }
  if (a.do === "done") return "Finish the plan (keep the other cards in hand)";
  const acting = obs.pending ? info(data, obs.pending[1]) : null;
  if (a.do === "attack") {
    const t = info(data, a.target);
    const owner = ownerOf(obs, a.target);
    const guard = Math.max(t.defence, owner !== null ? obs.shield[owner] : 0);
    const kills = acting && acting.strength > guard;
    return `Attack ${owner !== null ? `${ctx.seatName(owner)}'s ` : ""}${t.name} (defence ${guard}): ${kills ? "kills it" : `fails, strength ${acting ? acting.strength : "?"} is not above ${guard}`}`;
  }
  if (a.do === "recruit") {
    const c = (data.cards || []).find((k) => k.key === a.card) || { name: a.card, cost: "?" };
    return `Recruit ${c.name} for ${plural(c.cost, "coin")} (${c.points ?? 0} points, strength ${c.strength})`;
  }
  if (a.do === "income") return `Take income: +${data.income || 2} coins`;
  if (a.do === "pass") return "Pass: this card does nothing";
  if (a.do === "pick") {
    const c = (data.cards || []).find((k) => k.key === a.card) || { name: a.card };
    return `Take ${c.name} from the market, free: your hand is empty (${c.points ?? 0} points, strength ${c.strength})`;
  }
  return withSeatNames(m.label, names(obs, ctx.seatName));
}

// Round breaks in the move log: a planning move that follows anything else starts a round.
const planning = (entry) => entry[1] === "hidden" ? entry[0] >= 0 : ["place", "done"].includes(entry[1] && entry[1].do);
const roundCache = new WeakMap();
function roundStarts(history) {
  let starts = roundCache.get(history);
  if (!starts) {
    starts = new Map();
    let round = 0;
    let inPlan = false;
    history.forEach((entry, i) => {
      const p = planning(entry);
      if (p && !inPlan) starts.set(i, ++round);
      inPlan = p;
    });
    roundCache.set(history, starts);
  }
  return starts;
}

// An attack killed its target when the target is dead now and no later attack aimed at it
// (a dead gladiator cannot be attacked again, and only attacks kill).
function killed(ctx, index, target) {
  const obs = ctx.view.observation;
  if (!obs.dead.includes(target)) return false;
  return !ctx.history.slice(index + 1).some((e) => e[1] && e[1].do === "attack" && e[1].target === target);
}

export default {
  board(root, ctx) {
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    table(root, ctx.data, ctx.view.observation, ctx);
    if (focused !== null && focused !== undefined) {
      const again = root.querySelector(`button[data-card="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus();
    }
  },
  frame(root, obs, ctx) { table(root, ctx.data, obs, { ...ctx, live: false, view: null }); },
  moves(root, ctx) {
    const view = ctx.view;
    if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return true; }
    const obs = view.observation;
    root.classList.remove("hidden");
    replaceChildren(root, h("h2", {}, "Your moves"),
      h("p", { class: "small", id: "move-prompt" }, choiceSentence(ctx.data, obs, ctx)),
      h("div", { class: "legal-list ga-moves" }, view.legal.map((m) => h("button", { type: "button", class: `move ${m.action.do === "pass" ? "secondary" : ""}`,
        disabled: ctx.pending, "data-do": m.action.do, onclick: () => ctx.act(m.action) }, moveLabel(ctx.data, obs, ctx, m)))));
    return true;
  },
  focusMoves(root) {
    const active = document.activeElement;
    if (active && active !== document.body && active.closest && (active.closest("#hand") || active.closest("#moves") || active.closest("#market"))) return;
    const first = root.querySelector("#hand button.playable:enabled") || document.querySelector("#moves button.move:enabled");
    if (first && (!active || active === document.body)) first.focus();
  },
  logLine(entry, ctx, index) {
    const [actor, action, label] = entry;
    const round = roundStarts(ctx.history).get(index);
    const breakBefore = round ? `Round ${round}` : null;
    const who = actor >= 0 ? ctx.seatName(actor) : "";
    let text = null;
    const marks = [];
    if (action === "hidden") text = actor >= 0 ? `${who} lays a card face down` : null;
    else if (action.do === "place") {
      const c = (ctx.data.cards || []).find((k) => k.key === action.card);
      text = `${who} plans ${c ? c.name : action.card}`;
    } else if (action.do === "done") text = `${who} finishes the plan`;
    else if (action.do === "attack") {
      const t = info(ctx.data, action.target);
      const owner = ownerOf(ctx.view.observation, action.target);
      text = `${who} attacks ${owner === null ? "" : `${ctx.seatName(owner)}'s `}${t.name}`;
      if (killed(ctx, index, action.target)) marks.push({ kind: "ko", label: `${t.name} killed` });
      else marks.push({ kind: "fail", label: "failed" });
    } else if (action.do === "recruit") {
      const c = (ctx.data.cards || []).find((k) => k.key === action.card);
      text = `${who} recruits ${c ? c.name : action.card}`;
    } else if (action.do === "income") text = `${who} takes income`;
    else if (action.do === "pass") text = `${who} passes`;
    else if (action.do === "pick") {
      const c = (ctx.data.cards || []).find((k) => k.key === action.card);
      text = `${who} takes ${c ? c.name : action.card} from the market (empty hand)`;
    } else if (action.do === "market-draw") text = withSeatNames(label, ctx.names || []);
    else if (action.do === "draw") text = `You draw ${info(ctx.data, action.card).name}`;
    else text = actor >= 0 ? `${who}: ${label}` : label;
    if (text === null && !breakBefore) return null;
    return { text, marks, breakBefore };
  },
  summary(root, ctx) {
    const obs = ctx.view.observation;
    const per = obs.coins.map((coins, s) => {
      const glads = team(obs, s).filter((id) => info(ctx.data, id).gladiator);
      return { s, glads, gladPoints: glads.reduce((t, id) => t + info(ctx.data, id).points, 0), coins,
        coinPoints: Math.floor(coins / (ctx.data.coins_per_point || 3)) };
    });
    replaceChildren(root, h("h2", { id: "game-over-title" }, "Game over"),
      h("table", { class: "plain ga-scoring", id: "ga-scoring" },
        h("caption", { class: "small muted" }, `How the points were made: living gladiators, plus 1 point per ${ctx.data.coins_per_point || 3} coins`),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Living gladiators"),
          h("th", { scope: "col" }, "Coins"), h("th", { scope: "col" }, "Total"))),
        h("tbody", {}, per.map((p) => h("tr", {}, h("th", { scope: "row" }, ctx.seatName(p.s)),
          h("td", {}, `${plural(p.gladPoints, "point")} (${p.glads.length ? countByName(ctx.data, p.glads) : "none"})`),
          h("td", {}, `${p.coins} → ${plural(p.coinPoints, "point")}`), h("td", {}, String(obs.scores[p.s])))))));
    return true;
  },
  summaries(ctx) {
    const obs = ctx.view.observation;
    const out = [];
    // the last round ends the game: the game-over dialog is its summary
    for (let r = 1; r < obs.round; r++) {
      out.push({ id: `round-${r}`, title: `Round ${r} of ${obs.rounds} is over`, body: roundSummary(ctx, obs, r) });
    }
    return out;
  },
};

// A round's summary: what happened (from the round's log lines, when still in the view) and
// where everyone stands now.
function roundSummary(ctx, obs, round) {
  const seatName = ctx.seatName;
  let from = -1, to = obs.events.length;
  obs.events.forEach((e, i) => {
    if (e.startsWith(`— Round ${round} of`)) from = i;
    else if (from >= 0 && to === obs.events.length && i > from && /^— Round /.test(e)) to = i;
  });
  const lines = from >= 0 ? obs.events.slice(from + 1, to).filter((e) => /: killed$| wins with strength |tie at strength| recruits /.test(e)) : [];
  const order = Array.from({ length: obs.players }, (_, s) => s).sort((a, b) => obs.scores[b] - obs.scores[a]);
  return [
    round === obs.round - 1 && obs.phase !== "over" ? h("p", {}, `Round ${round + 1} begins with ${seatName(obs.start)} starting: everyone plans again.`) : null,
    lines.length ? [h("h3", {}, "Auctions, recruits and kills"), h("ul", { class: "ga-events" }, lines.map((e) => eventLine(e, obs, seatName)))]
      : h("p", { class: "small muted" }, from >= 0 ? "No auction was won, nobody recruited and nobody was killed." : "This round's lines are no longer in the view; the move log keeps its moves."),
    h("table", { class: "plain ga-standing" },
      h("caption", { class: "small muted" }, "Standing now (points: living gladiators, plus 1 per 3 coins)"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Points"), h("th", { scope: "col" }, "Coins"), h("th", { scope: "col" }, "Gladiators"))),
      h("tbody", {}, order.map((s) => h("tr", {}, h("th", { scope: "row" }, seatName(s)), h("td", {}, String(obs.scores[s])), h("td", {}, String(obs.coins[s])),
        h("td", {}, String(team(obs, s).filter((id) => info(ctx.data, id).gladiator).length)))))),
  ];
}
