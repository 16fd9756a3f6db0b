// Gorus Arena as a card table: the round, the phase and what the current choice means in one
// sentence; what the latest choice set off; each player with coins, points, the plan (face up
// for you, face down for the others: only how many cards) or, once revealed, the arena card by
// card; your hand and the market as cards with strength and effect; the round's events by name.
// Values the source text does not give are marked as ours on every card (data/cards.toml,
// `printed`). Moves: one button per legal move, each saying what it does; hand cards (planning),
// market cards (recruit) and rival cards (attack) are buttons for the same moves.
// Every word is in the reader's language: the page's own through t()/tn(), the card names as
// page_data() gives them (already translated by the server), and the round's events worded here
// from the observation's event_codes (a kind and its seats, cards and numbers), never from the
// engine's English sentences (`events`, shown only for a line that has no code).
import { formatList, formatNumber, h, isolate, lang, N_, replaceChildren, t, tf, tn, withSeatNames } from "/static/common.js";
import { dir } from "/static/i18n.js";

const n = formatNumber;
// The four actions: as a card's effect names them ("Attack: kills …"), and as a card's short
// label does ("income 2", the terminal's words).
const ACTION_WORDS = { attack: N_("Attack"), defence: N_("Guard"), recruit: N_("Recruit"), income: N_("Income") };
const ACTION_SHORT = { attack: N_("attack"), defence: N_("defence"), recruit: N_("recruit"), income: N_("income") };
const FIELD_WORDS = { name: N_("name"), cost: N_("cost"), defence: N_("defence"), points: N_("points"), strength: N_("strength"), actions: N_("action") };
// The marks of the round's events that matter most (styled, and found by the tests: [data-mark=kind]).
const EVENT_MARKS = { ko: N_("killed"), winner: N_("auction won"), round: N_("new round"), tie: N_("tie") };

function info(data, id) {
  return (data.cards || [])[id] || { name: t("Card {number}", { number: id }), actions: [], strength: 0, cost: 0, defence: 0, points: 0, printed: [], gladiator: true };
}

function kindInfo(data, key) { return (data.cards || []).find((k) => k.key === key) || null; }
function kindName(data, key) { const k = kindInfo(data, key); return k ? k.name : key; }

const coinsText = (count) => tn("{count} coin", "{count} coins", count, { count });
const pointsText = (count) => tn("{count} point", "{count} points", count, { count });
const names = (obs, seatName) => Array.from({ length: obs.players }, (_, s) => seatName(s));
// Players' names inside right-to-left sentences keep their own direction (first-strong isolates):
// a Latin name followed by a number ("Livia: ۶") would otherwise pull the number into its run.
function speak(ctx) {
  if (dir !== "rtl" || !ctx || !ctx.seatName) return ctx;
  const seatName = ctx.seatName;
  return { ...ctx, seatName: (s) => `\u2068${seatName(s)}\u2069` };
}
const arrow = () => (dir === "rtl" ? "←" : "→");  // the way the text goes
const actionList = (c) => formatList((c.actions || []).map((a) => t(ACTION_SHORT[a] || a)), "disjunction");

// What one action of a card does, in a few words (the action's name first, in bold).
function effectWords(data, c, action) {
  if (action === "attack") return t("kills a rival gladiator whose defence is below {strength}", { strength: c.strength });
  if (action === "defence") return t("your gladiators count as defence {strength} or more this round", { strength: c.strength });
  if (action === "recruit") return t("buy a card from the market into your hand");
  const income = data.income || 2;
  return tn("take {count} coin", "take {count} coins", income, { count: income });
}

function effect(data, c, action) {
  const name = ACTION_WORDS[action] ? t(ACTION_WORDS[action]) : action;
  return tf("{action}: {effect}", { action: h("b", {}, name), effect: effectWords(data, c, action) });
}

// The small "ours" mark: which of the card's values the source text does not give.
function oursMark(c) {
  const fields = c.gladiator ? ["name", "cost", "defence", "points", "strength", "actions"] : ["name", "cost", "strength", "actions"];
  const ours = fields.filter((f) => !(c.printed || []).includes(f)).map((f) => t(FIELD_WORDS[f]));
  if (!ours.length) return null;
  const given = fields.filter((f) => (c.printed || []).includes(f)).map((f) => t(FIELD_WORDS[f]));
  const said = { fields: formatList(ours, "unit"), given: formatList(given) };
  const tip = given.length
    ? tn("Our value: {fields}. The source text does not give it; it gives only the {given}.",
      "Our values: {fields}. The source text does not give them; it gives only the {given}.", ours.length, said)
    : tn("Our value: {fields}. The source text does not give it; it gives nothing for this card.",
      "Our values: {fields}. The source text does not give them; it gives nothing for this card.", ours.length, said);
  return h("span", { class: "ga-ours", title: tip }, h("span", { "aria-hidden": "true" }, "✱"), h("span", { class: "visually-hidden" }, ` (${tip})`));
}

// A card's strength in its corner: the number shown, the words around it for screen readers only.
function strengthBadge(c) {
  const parts = tf("strength {value}", { value: h("span", {}, n(c.strength)) })
    .map((p) => (typeof p === "string" ? h("span", { class: "visually-hidden" }, p) : p));
  return h("span", { class: "ga-str", title: t("Strength: the card's bid in the auction") }, parts);
}

// One card face. `opts.tag` makes it a button; `opts.state` adds a line (killed, acting now...).
function cardFace(data, id, opts = {}) {
  const c = info(data, id);
  const acts = c.actions || [];
  const orWord = t("or");
  const or = ` ${orWord} `;
  const stats = c.gladiator
    ? tn("cost {cost} · defence {defence} · {count} point", "cost {cost} · defence {defence} · {count} points", c.points,
      { cost: c.cost, defence: c.defence, count: c.points })
    : t("cost {cost} · action card: never attacked, no points", { cost: c.cost });
  // "gcard": the shared card class (tests/web/test_pages.py finds hand cards by it)
  const attrs = { class: `card gcard ga-card ${c.gladiator ? "glad" : "act"} ${opts.class || ""}`, "data-card": id, "data-kind": c.key, ...(opts.attrs || {}) };
  const body = [
    h("span", { class: "ga-top" }, h("span", { class: "ga-name" }, c.name), oursMark(c), strengthBadge(c)),
    h("span", { class: "ga-effect" }, acts.map((a, i) => [i ? h("span", { class: "ga-or" }, or) : null, effect(data, c, a)])),
    h("span", { class: "ga-stats" }, stats),
    opts.state ? h("span", { class: "ga-state" }, opts.state) : null,
    opts.extra || null,
  ];
  return h(opts.tag || "span", attrs, body);
}

function faceDown(count, seatName) {
  if (!count) return h("p", { class: "small muted ga-plan-empty" }, t("No card laid yet."));
  const label = tn("{player}: {count} card laid face down", "{player}: {count} cards laid face down", count, { player: seatName, count });
  return h("div", { class: "ga-row ga-plan face-down", role: "img", "aria-label": label },
    Array.from({ length: count }, (_, i) => h("span", { class: "card ga-back", "aria-hidden": "true" }, h("span", {}, n(i + 1)))));
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
  return formatList([...counts].map(([name, k]) => (k > 1 ? `${name} ×${n(k)}` : name)), "unit");
}

function phaseWords(obs) {
  if (obs.phase === "plan") return t("Planning");
  if (obs.phase === "exec") return t("Reveal, position {number}", { number: obs.slot + 1 });
  if (obs.phase === "over") return t("Game over");
  return t("Drawing");
}

function optionsOf(ctx) {
  const o = (ctx.view && ctx.view.table && ctx.view.table.options) || {};
  return { targets: o["attack-targets"] || o.attack_targets || "bout" };
}

// What the card acting now may do, one phrase per action ("recruit from the market").
function canWords(data, c, ctx) {
  const income = data.income || 2;
  return (c.actions || []).map((a) => {
    if (a === "attack") return optionsOf(ctx).targets === "bout" ? t("attack a rival gladiator at this position") : t("attack a rival gladiator");
    if (a === "recruit") return t("recruit from the market");
    if (a === "income") return tn("take {count} coin", "take {count} coins", income, { count: income });
    return t("guard");
  });
}

// The acting card (seat, id) and what its choice means, in one sentence.
function choiceSentence(data, obs, ctx) {
  const seatName = ctx.seatName;
  if (obs.phase === "over") {
    const every = data.coins_per_point || 3;
    return tn("The game is over: every living gladiator scored its points, and every {count} coin one more.",
      "The game is over: every living gladiator scored its points, and every {count} coins one more.", every, { count: every });
  }
  if (obs.phase === "plan") {
    const mine = obs.seat !== null && ctx.live && ctx.view.to_move.includes(obs.seat);
    if (mine) {
      return t("Your choice: which card of your hand goes face down next, at position {position} of your plan. Position {first} acts first, and a card's strength is its bid against the cards at the same position.",
        { position: obs.plan.length + 1, first: 1 });
    }
    const waiting = ctx.live ? ctx.view.to_move.map(seatName) : [];
    return waiting.length
      ? t("Everyone lays the cards of their hand face down, in the order they will act; waiting for {players}.", { players: formatList(waiting) })
      : t("Everyone lays the cards of their hand face down, in the order they will act.");
  }
  if (obs.phase === "exec" && obs.pending) {
    const [seat, id] = obs.pending;
    const c = info(data, id);
    const said = { player: seatName(seat), card: c.name, strength: c.strength, position: obs.slot + 1,
      actions: formatList(canWords(data, c, ctx), "disjunction") };
    return obs.seat === seat
      ? t("Your choice: your {card} (strength {strength}) at position {position} may {actions}, or pass.", said)
      : t("Now {player}'s {card} (strength {strength}) at position {position} may {actions}, or pass.", said);
  }
  if (obs.phase === "draw" && obs.draws.length && obs.draws[0][1] === "market") {
    const [seat, , left] = obs.draws[0];
    return obs.seat === seat
      ? t("Your hand is empty after drawing: take a gladiator from the market, free ({count} still to take).", { count: left })
      : t("{player}'s hand is empty after drawing: they take a gladiator from the market, free ({count} still to take).",
        { player: seatName(seat), count: left });
  }
  return t("The revealed cards are carried out position by position: the strongest card at each position acts first.");
}

// ---------------------------------------------------------------- the round's events
// The observation's log lines, each with its code: [kind, ...values] (seats, card ids, numbers), or
// null for a line that came as text only (a position read back from JSON).
function eventsOf(obs) {
  const codes = obs.event_codes || [];
  return (obs.events || []).map((text, i) => ({ text, code: codes[i] || null }));
}

function eventKind(ev) {
  const code = ev.code;
  if (!code) return "";
  if (code[0] === "attack") return code[6] ? "ko" : "";
  return { auction: "winner", round: "round", tie: "tie" }[code[0]] || "";
}

// A card with its action(s) and strength ("Tired Fighter (income 2)"), as the reveal lines name it.
function cardLabel(data, id) {
  const c = info(data, id);
  const actions = (c.actions || []).map((a) => t(ACTION_SHORT[a] || a)).join("/");
  return t("{card} ({actions} {strength})", { card: c.name, actions, strength: c.strength });
}

// One log line in the reader's language, from its code; a line without a code is the engine's
// English (marked so in another language).
function eventWords(ev, obs, data, seatName) {
  const code = ev.code;
  if (!code) {
    const text = withSeatNames(ev.text, names(obs, seatName));
    return lang === "en" ? text : h("span", { lang: "en", dir: "ltr" }, text);
  }
  const [kind, ...v] = code;
  const own = (s, id) => ({ player: seatName(s), card: info(data, id).name });
  switch (kind) {
    case "round":
      return t("Round {round} of {rounds}: {player} starts", { round: v[0], rounds: v[1], player: seatName(v[2]) });
    case "reveal": {
      const cards = formatList((v[1] || []).map((id) => cardLabel(data, id)), "unit");
      return (v[1] || []).length ? t("{player} reveals: {cards}", { player: seatName(v[0]), cards })
        : t("{player} reveals: nothing", { player: seatName(v[0]) });
    }
    case "guarded":
      return t("{player}'s gladiators are guarded: defence at least {shield}", { player: seatName(v[0]), shield: v[1] });
    case "auction":
      return v[0] ? t("Auction {number}: {player} wins with strength {strength}", { number: v[0], player: seatName(v[1]), strength: v[2] })
        : t("Auction: {player} wins with strength {strength}", { player: seatName(v[1]), strength: v[2] });
    case "tie":
      return v[0] ? t("Auction {number}: tie at strength {strength}, nobody wins; turn order", { number: v[0], strength: v[1] })
        : t("Auction: tie at strength {strength}, nobody wins; turn order", { strength: v[1] });
    case "down":
      return t("{player}'s {card} is down but still acts: the auction was tied", own(v[0], v[1]));
    case "income": {
      const count = data.income || 2;
      return tn("{player}'s {card}: income, {amount} coin", "{player}'s {card}: income, {amount} coins", count,
        { ...own(v[0], v[1]), amount: isolate(`+${n(count)}`) });
    }
    case "guards":
      return t("{player}'s {card} guards: defence at least {shield} for the rest of the round", { ...own(v[0], v[1]), shield: v[2] });
    case "no-recruit":
      return v[2] ? t("{player}'s {card}: no recruit (hand full)", own(v[0], v[1]))
        : t("{player}'s {card}: no recruit (cannot afford anything)", own(v[0], v[1]));
    case "no-attack":
      return t("{player}'s {card}: nobody to attack", own(v[0], v[1]));
    case "game-over": {
      const each = (v[0] || []).map((score, s) => t("{player} {score}", { player: seatName(s), score }));
      return t("Game over: {scores}", { scores: formatList(each, "unit") });
    }
    case "reshuffle":
      return t("{player} turns the discard pile into a new draw pile", { player: seatName(v[0]) });
    case "draws":
      return tn("{player} draws {count} card", "{player} draws {count} cards", v[1], { player: seatName(v[0]), count: v[1] });
    case "market":
      return v[2] ? t("{player}'s hand is empty: picks {card} from the market", own(v[0], v[1]))
        : t("{player}'s hand is empty: takes {card} from the market", own(v[0], v[1]));
    case "recruits":
      return tn("{player}'s {card} recruits {kind} for {count} coin", "{player}'s {card} recruits {kind} for {count} coins", v[3],
        { ...own(v[0], v[1]), kind: kindName(data, v[2]), count: v[3] });
    case "passes":
      return t("{player}'s {card} passes", own(v[0], v[1]));
    case "attack": {
      const [s, card, victim, target, guard, killed] = v;
      const said = { ...own(s, card), strength: info(data, card).strength, victim: seatName(victim), target: info(data, target).name, guard };
      return killed ? t("{player}'s {card} (strength {strength}) attacks {victim}'s {target} (defence {guard}): killed", said)
        : t("{player}'s {card} (strength {strength}) attacks {victim}'s {target} (defence {guard}): the attack fails", said);
    }
    default: {
      const text = withSeatNames(ev.text, names(obs, seatName));
      return lang === "en" ? text : h("span", { lang: "en", dir: "ltr" }, text);
    }
  }
}

function eventLine(ev, obs, data, seatName) {
  const kind = eventKind(ev);
  const label = kind ? t(EVENT_MARKS[kind]) : null;
  return h("li", { class: kind ? `ga-ev ${kind}` : "ga-ev" }, eventWords(ev, obs, data, seatName),
    label ? h("span", { class: `log-mark ${kind}`, "data-mark": kind }, label) : null);
}

// The log lines the latest choice set off (and everything carried out automatically after it).
function latest(data, obs, seatName) {
  const all = eventsOf(obs);
  const lines = obs.step_events ? all.slice(-obs.step_events) : [];
  const quiet = obs.round === 1 && obs.phase === "plan" ? t("The game has just begun: nothing has happened yet.") : t("Nothing new since the last choice.");
  return h("section", { class: "ga-latest panel", id: "ga-latest", "aria-labelledby": "ga-latest-title", "aria-live": "polite" },
    h("h3", { id: "ga-latest-title" }, t("What just happened")),
    lines.length ? h("ul", { class: "ga-events" }, lines.map((e) => eventLine(e, obs, data, seatName)))
      : h("p", { class: "small muted" }, quiet));
}

// The events of the current round (from its "Round N" line), or the last few.
function roundEvents(data, obs, seatName) {
  const all = eventsOf(obs);
  let from = -1;
  all.forEach((e, i) => { if (e.code && e.code[0] === "round") from = i; });
  const lines = from >= 0 ? all.slice(from) : all.slice(-12);
  const title = t("Round {round}, step by step", { round: obs.round });
  const heading = tn("Round {round}, step by step ({count} line)", "Round {round}, step by step ({count} lines)", lines.length,
    { round: obs.round, count: lines.length });
  return h("details", { class: "ga-round-events", id: "ga-round-events", open: obs.phase === "exec" || obs.phase === "over" },
    h("summary", {}, heading),
    // it scrolls when long: focusable, so a keyboard can scroll it too
    h("ol", { class: "ga-events", tabindex: 0, "aria-label": title }, lines.map((e) => eventLine(e, obs, data, seatName))));
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

const STATE_WORDS = { dead: N_("killed"), acting: N_("acting now"), acted: N_("has acted"), missed: N_("did not act"),
  here: N_("at this position"), waiting: N_("waiting") };
const STATE_MARKS = { dead: "✗ ", acting: "▶ ", acted: "✓ " };

function arenaCard(data, obs, seat, id, pos, by, ctx) {
  const dead = obs.dead.includes(id);
  const acting = obs.pending && obs.pending[1] === id;
  const acted = obs.acted.includes(id);
  const key = dead ? "dead" : acting ? "acting" : acted ? "acted" : obs.phase === "exec" && pos < obs.slot ? "missed"
    : obs.phase === "exec" && pos === obs.slot ? "here" : "waiting";
  const mark = key === "acting" && dir === "rtl" ? "◀ " : (STATE_MARKS[key] || "");
  const words = t(STATE_WORDS[key]);
  const state = `${mark}${words}`;
  const target = by.attack.get(id);
  const cls = `${dead ? "dead" : ""} ${acting ? "acting" : ""} ${acted ? "acted" : ""} ${pos === obs.slot ? "current" : ""} ${target ? "playable target" : ""}`;
  const extra = h("span", { class: "ga-pos" }, t("position {number}", { number: pos + 1 }));
  if (target) {
    // "attack Tired Fighter of Marcus (position 1)": tests/web/test_learn_page.py finds the control by it
    const label = t("attack {card} of {player} (position {position})", { card: info(data, id).name, player: ctx.seatName(seat), position: pos + 1 });
    return cardFace(data, id, { tag: "button", class: cls, state, extra,
      attrs: { type: "button", disabled: ctx.pending, "aria-label": label, onclick: () => ctx.act(target.action) } });
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
    if (you) {
      plan = [h("h4", {}, t("Your plan, face up to you only")),
        obs.plan.length ? h("div", { class: "ga-row ga-plan face-up" }, obs.plan.map((id, i) => cardFace(data, id,
          { extra: h("span", { class: "ga-pos" }, t("position {number}", { number: i + 1 })) })))
          : h("p", { class: "small muted" }, t("No card laid yet."))];
    } else {
      const count = obs.planned[seat];
      const heading = obs.ready[seat]
        ? tn("Plan: {count} card face down — ready ✓", "Plan: {count} cards face down — ready ✓", count, { count })
        : tn("Plan: {count} card face down — still planning", "Plan: {count} cards face down — still planning", count, { count });
      plan = [h("h4", {}, heading), faceDown(count, seatName(seat))];
    }
  } else if (arena.length) {
    plan = [h("h4", {}, t("In the arena this round (the revealed plan)")),
      h("div", { class: "ga-row ga-arena" }, arena.map((id, pos) => arenaCard(data, obs, seat, id, pos, by, ctx)))];
  } else plan = [h("p", { class: "small muted" }, obs.phase === "over" ? "" : t("Nothing in the arena this round."))];
  const piles = t("hand {hand} · draw pile {deck} · discard {discard}", { hand: obs.held[seat], deck: obs.deck_count[seat], discard: obs.discard[seat].length });
  const points = tn("{count} point now", "{count} points now", obs.scores[seat], { count: obs.scores[seat] });
  const guarded = shield ? t("guarded: defence at least {shield}", { shield }) : null;
  const sep = t(" · ");  // between the facts (a Persian comma in Persian, where a dot reads as a zero)
  return h("section", { class: `ga-seat ${you ? "you" : ""} ${obs.start === seat ? "starts" : ""}`, id: `ga-seat-${seat}`, "aria-label": seatName(seat) },
    h("h3", {}, chip(seat, seatName), you ? h("span", { class: "badge" }, t("you")) : null,
      obs.start === seat ? h("span", { class: "badge", title: t("Acts first on a tie this round") }, t("starts")) : null),
    h("p", { class: "ga-facts" },
      h("span", { class: "ga-coins coins" }, coinsText(obs.coins[seat])), sep,
      h("span", { class: "ga-points" }, points), sep,
      h("span", {}, piles),
      guarded ? [sep, h("strong", { class: "ga-guard" }, guarded)] : null),
    plan,
    h("p", { class: "small ga-team" }, h("strong", {}, t("Team:")), " ", glads.length ? countByName(data, glads) : t("no living gladiator"),
      acts.length ? [h("br"), h("strong", {}, t("Action cards:")), " ", countByName(data, acts)] : null));
}

function handView(data, obs, ctx, by) {
  if (obs.seat === null || obs.seat === undefined || obs.seat >= obs.players) return null;
  const planning = obs.phase === "plan" && ctx.live && by.place.size > 0;
  const cards = obs.hand.map((id) => {
    const c = info(data, id);
    const move = by.place.get(c.key);
    if (planning && move) {
      const label = t("Lay {card} face down at position {position} (strength {strength}, {actions})",
        { card: c.name, position: obs.plan.length + 1, strength: c.strength, actions: actionList(c) });
      return cardFace(data, id, { tag: "button", class: "playable", attrs: { type: "button", disabled: ctx.pending,
        "aria-label": label, onclick: () => ctx.act(move.action), onkeydown: arrowKeys } });
    }
    return cardFace(data, id);
  });
  const limit = data.hand_limit || 5;
  const heading = tn("Your hand ({count} card, at most {limit})", "Your hand ({count} cards, at most {limit})", obs.hand.length,
    { count: obs.hand.length, limit });
  return h("section", { id: "hand", class: "ga-hand", "aria-label": t("Your hand") },
    h("h3", {}, heading),
    planning ? h("p", { class: "small muted" }, t("Choose the card to lay next: click it, or use the buttons under “Your moves”. Arrow keys move between cards.")) : null,
    cards.length ? h("div", { class: "ga-row", id: "hand-cards" }, cards) : h("p", { class: "small muted" }, t("Your hand is empty.")));
}

let marketOpen = null;  // the player's own choice to fold or unfold the market, once made

function marketView(data, obs, ctx, by) {
  const groups = new Map();
  for (const id of obs.market) {
    const c = info(data, id);
    if (!groups.has(c.key)) groups.set(c.key, { id, count: 0 });
    groups.get(c.key).count += 1;
  }
  const faces = (wantGlad) => [...groups.values()].filter(({ id }) => info(data, id).gladiator === wantGlad).map(({ id, count }) => {
    const c = info(data, id);
    const move = by.recruit.get(c.key);
    const left = h("span", { class: "ga-left" }, tn("{count} left", "{count} left", count, { count }));
    if (move) {
      const label = tn("Recruit {card} for {count} coin", "Recruit {card} for {count} coins", c.cost, { card: c.name, count: c.cost });
      return cardFace(data, id, { tag: "button", class: "playable", extra: left, attrs: { type: "button", disabled: ctx.pending,
        "aria-label": label, onclick: () => ctx.act(move.action) } });
    }
    return cardFace(data, id, { extra: left });
  });
  const glads = faces(true);
  const armoury = faces(false);
  // On a phone the market is long: folded unless a recruit is being chosen (or the player opened it).
  const open = by.recruit.size > 0 || (marketOpen ?? !window.matchMedia("(max-width: 480px)").matches);
  const title = tn("Market: {count} card to recruit", "Market: {count} cards to recruit", obs.market.length, { count: obs.market.length });
  return h("details", { id: "market", class: "ga-market panel", open,
    ontoggle: (event) => { if (!by.recruit.size) marketOpen = event.currentTarget.open; } },
  h("summary", {}, h("strong", {}, title)),
  h("p", { class: "small muted" }, t("A recruit action buys one of these at its cost; it joins the recruiter's hand.")),
  glads.length ? h("div", { class: "ga-row" }, glads) : h("p", { class: "muted" }, t("No gladiator left.")),
  armoury.length ? [h("h4", {}, t("Armoury (action cards)")), h("div", { class: "ga-row" }, armoury)] : null);
}

function legend() {
  return h("p", { class: "small muted ga-legend" },
    tf("On each card: the name, its strength (the number in the corner: its bid in the auction), what it can do, and cost · defence · points. {mark} marks values that are ours: the source text does not give them.",
      { mark: h("span", { "aria-hidden": "true" }, "✱") }));
}

function table(root, data, obs, ctx) {
  const by = legalBy(ctx);
  const order = Array.from({ length: obs.players }, (_, i) => (obs.start + i) % obs.players);
  const planningNow = obs.phase === "plan" && obs.hand && obs.hand.length > 0;
  const turnOrder = t("Turn order this round (it settles ties): {players}.", { players: order.map(ctx.seatName).join(` ${arrow()} `) });
  replaceChildren(root,
    h("h2", { id: "ga-round" }, t("Round {round} of {rounds} — {phase}", { round: obs.round, rounds: obs.rounds, phase: phaseWords(obs) })),
    h("p", { id: "ga-choice", class: "ga-choice" }, choiceSentence(data, obs, ctx)),
    obs.phase === "over" ? null : h("p", { class: "small muted", id: "ga-turn-order" }, turnOrder),
    // while planning, the hand is what the player works with: right under the sentence
    planningNow ? handView(data, obs, ctx, by) : null,
    latest(data, obs, ctx.seatName),
    h("div", { class: "ga-seats", id: "players" }, Array.from({ length: obs.players }, (_, seat) => seatPanel(data, obs, seat, ctx, by))),
    planningNow ? null : handView(data, obs, ctx, by),
    marketView(data, obs, ctx, by),
    roundEvents(data, obs, ctx.seatName),
    legend());
}

function arrowKeys(event) {
  if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(event.key)) return;
  const cards = [...document.querySelectorAll("#hand button.card")];
  const i = cards.indexOf(event.currentTarget);
  // the arrow that points the way the text goes moves on (right to left in Persian)
  const back = event.key === "ArrowUp" || event.key === (dir === "rtl" ? "ArrowRight" : "ArrowLeft");
  let j;
  if (event.key === "Home") j = 0;
  else if (event.key === "End") j = cards.length - 1;
  else j = (i + (back ? -1 : 1) + cards.length) % cards.length;
  event.preventDefault();
  cards[j].focus();
}

// ---------------------------------------------------------------- moves in words
// A move as its button says it, with what it does (and, for an attack, whether it can kill); a
// move that is not legal now (the learn page's wrong move) is named without a promise.
function moveText(data, obs, ctx, action, legal = true) {
  const a = action || {};
  if (a.do === "place") {
    const c = kindInfo(data, a.card) || { name: a.card, strength: 0, actions: [] };
    return t("Lay {card} at position {position} (strength {strength}: {actions})",
      { card: c.name, position: obs.plan.length + 1, strength: c.strength, actions: actionList(c) });
  }
  if (a.do === "done") return t("Finish the plan (keep the other cards in hand)");
  if (a.do === "attack") {
    const target = info(data, a.target);
    const owner = ownerOf(obs, a.target);
    const acting = obs.pending ? info(data, obs.pending[1]) : null;
    const guard = Math.max(target.defence, owner !== null ? obs.shield[owner] : 0);
    const said = { player: owner !== null ? ctx.seatName(owner) : "", card: target.name, defence: guard, strength: acting ? acting.strength : "?" };
    if (!legal || !acting) return owner !== null ? t("Attack {player}'s {card}", said) : t("Attack {card}", said);
    if (acting.strength > guard) {
      return owner !== null ? t("Attack {player}'s {card} (defence {defence}): kills it", said) : t("Attack {card} (defence {defence}): kills it", said);
    }
    return owner !== null ? t("Attack {player}'s {card} (defence {defence}): fails, strength {strength} is not above {defence}", said)
      : t("Attack {card} (defence {defence}): fails, strength {strength} is not above {defence}", said);
  }
  if (a.do === "recruit") {
    const c = kindInfo(data, a.card) || { name: a.card, cost: 0, points: 0, strength: 0 };
    return t("Recruit {card} for {coins} ({points}, strength {strength})",
      { card: c.name, coins: coinsText(c.cost), points: pointsText(c.points ?? 0), strength: c.strength });
  }
  if (a.do === "income") {
    const income = data.income || 2;
    return tn("Take income: {amount} coin", "Take income: {amount} coins", income, { amount: isolate(`+${n(income)}`) });
  }
  if (a.do === "pass") return t("Pass: this card does nothing");
  if (a.do === "pick") {
    const c = kindInfo(data, a.card) || { name: a.card, points: 0, strength: 0 };
    return t("Take {card} from the market, free: your hand is empty ({points}, strength {strength})",
      { card: c.name, points: pointsText(c.points ?? 0), strength: c.strength });
  }
  return null;
}

const sameAction = (x, y) => JSON.stringify(x) === JSON.stringify(y);

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
    table(root, ctx.data, ctx.view.observation, speak(ctx));
    if (focused !== null && focused !== undefined) {
      const again = root.querySelector(`button[data-card="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus();
    }
  },
  frame(root, obs, ctx) { table(root, ctx.data, obs, { ...speak(ctx), live: false, view: null }); },
  moves(root, context) {
    const ctx = speak(context);
    const view = ctx.view;
    if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return true; }
    const obs = view.observation;
    root.classList.remove("hidden");
    const label = (m) => moveText(ctx.data, obs, ctx, m.action) || withSeatNames(m.label, names(obs, ctx.seatName));
    replaceChildren(root, h("h2", {}, t("Your moves")),
      h("p", { class: "small", id: "move-prompt" }, choiceSentence(ctx.data, obs, ctx)),
      h("div", { class: "legal-list ga-moves" }, view.legal.map((m) => h("button", { type: "button", class: `move ${m.action.do === "pass" ? "secondary" : ""}`,
        disabled: ctx.pending, "data-do": m.action.do, onclick: () => ctx.act(m.action) }, label(m)))));
    return true;
  },
  // A move in words for the table's hint box and forced-move note, and the learn page (docs/server.md).
  moveLabel(move, context) {
    const ctx = speak(context);
    const view = ctx && ctx.view;
    const obs = view && view.observation;
    if (!obs || !move || !move.action) return null;
    const legal = (view.legal || []).some((m) => sameAction(m.action, move.action));
    return moveText((ctx && ctx.data) || {}, obs, ctx, move.action, legal);
  },
  focusMoves(root) {
    const active = document.activeElement;
    if (active && active !== document.body && active.closest && (active.closest("#hand") || active.closest("#moves") || active.closest("#market"))) return;
    const first = root.querySelector("#hand button.playable:enabled") || document.querySelector("#moves button.move:enabled");
    if (first && (!active || active === document.body)) first.focus();
  },
  logLine(entry, context, index) {
    const ctx = speak(context);
    const [actor, action, label] = entry;
    const round = roundStarts(ctx.history).get(index);
    const breakBefore = round ? t("Round {number}", { number: round }) : null;
    const player = actor >= 0 ? ctx.seatName(actor) : "";
    const cardOf = (key) => kindName(ctx.data, key);
    let text = null;
    const marks = [];
    if (action === "hidden") text = actor >= 0 ? t("{player} lays a card face down", { player }) : null;
    else if (action.do === "place") text = t("{player} plans {card}", { player, card: cardOf(action.card) });
    else if (action.do === "done") text = t("{player} finishes the plan", { player });
    else if (action.do === "attack") {
      const card = info(ctx.data, action.target).name;
      const owner = ownerOf(ctx.view.observation, action.target);
      text = owner === null ? t("{player} attacks {card}", { player, card })
        : t("{player} attacks {owner}'s {card}", { player, owner: ctx.seatName(owner), card });
      if (killed(ctx, index, action.target)) marks.push({ kind: "ko", label: t("{card} killed", { card }) });
      else marks.push({ kind: "fail", label: t("failed") });
    } else if (action.do === "recruit") text = t("{player} recruits {card}", { player, card: cardOf(action.card) });
    else if (action.do === "income") text = t("{player} takes income", { player });
    else if (action.do === "pass") text = t("{player} passes", { player });
    else if (action.do === "pick") text = t("{player} takes {card} from the market (empty hand)", { player, card: cardOf(action.card) });
    else if (action.do === "market-draw") {
      text = t("{player} takes {card} from the market", { player: ctx.seatName(action.seat), card: info(ctx.data, action.card).name });
    } else if (action.do === "draw") text = t("You draw {card}", { card: info(ctx.data, action.card).name });
    else text = actor >= 0 ? `${player}: ${label}` : label;
    if (text === null && !breakBefore) return null;
    return { text, marks, breakBefore };
  },
  summary(root, context) {
    const ctx = speak(context);
    const obs = ctx.view.observation;
    const every = ctx.data.coins_per_point || 3;
    const per = obs.coins.map((coins, s) => {
      const glads = team(obs, s).filter((id) => info(ctx.data, id).gladiator);
      return { s, glads, gladPoints: glads.reduce((sum, id) => sum + info(ctx.data, id).points, 0), coins,
        coinPoints: Math.floor(coins / every) };
    });
    const caption = tn("How the points were made: living gladiators, plus one point per {count} coin",
      "How the points were made: living gladiators, plus one point per {count} coins", every, { count: every });
    const none = t("none");
    replaceChildren(root, h("h2", { id: "game-over-title" }, t("Game over")),
      h("table", { class: "plain ga-scoring", id: "ga-scoring" },
        h("caption", { class: "small muted" }, caption),
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Living gladiators")),
          h("th", { scope: "col" }, t("Coins")), h("th", { scope: "col" }, t("Total")))),
        h("tbody", {}, per.map((p) => h("tr", {}, h("th", { scope: "row" }, ctx.seatName(p.s)),
          h("td", {}, `${pointsText(p.gladPoints)} (${p.glads.length ? countByName(ctx.data, p.glads) : none})`),
          h("td", {}, `${n(p.coins)} ${arrow()} ${pointsText(p.coinPoints)}`), h("td", {}, n(obs.scores[p.s])))))));
    return true;
  },
  summaries(context) {
    const ctx = speak(context);
    const obs = ctx.view.observation;
    const out = [];
    // the last round ends the game: the game-over dialog is its summary
    for (let r = 1; r < obs.round; r++) {
      out.push({ id: `round-${r}`, title: t("Round {round} of {rounds} is over", { round: r, rounds: obs.rounds }), body: roundSummary(ctx, obs, r) });
    }
    return out;
  },
};

// A round's summary: what happened (from the round's log lines, when still in the view) and
// where everyone stands now.
function roundSummary(ctx, obs, round) {
  const seatName = ctx.seatName;
  const all = eventsOf(obs);
  let from = -1, to = all.length;
  all.forEach((e, i) => {
    const isRound = e.code && e.code[0] === "round";
    if (isRound && e.code[1] === round) from = i;
    else if (isRound && from >= 0 && to === all.length && i > from) to = i;
  });
  const counted = (e) => e.code && (["auction", "tie", "recruits"].includes(e.code[0]) || (e.code[0] === "attack" && e.code[6]));
  const lines = from >= 0 ? all.slice(from + 1, to).filter(counted) : [];
  const order = Array.from({ length: obs.players }, (_, s) => s).sort((a, b) => obs.scores[b] - obs.scores[a]);
  const every = ctx.data.coins_per_point || 3;
  const next = round === obs.round - 1 && obs.phase !== "over"
    ? t("Round {round} begins with {player} starting: everyone plans again.", { round: round + 1, player: seatName(obs.start) }) : null;
  const caption = tn("Standing now (points: living gladiators, plus one per {count} coin)",
    "Standing now (points: living gladiators, plus one per {count} coins)", every, { count: every });
  return [
    next ? h("p", {}, next) : null,
    lines.length ? [h("h3", {}, t("Auctions, recruits and kills")), h("ul", { class: "ga-events" }, lines.map((e) => eventLine(e, obs, ctx.data, seatName)))]
      : h("p", { class: "small muted" }, from >= 0 ? t("No auction was won, nobody recruited and nobody was killed.")
        : t("This round's lines are no longer in the view; the move log keeps its moves.")),
    h("table", { class: "plain ga-standing" },
      h("caption", { class: "small muted" }, caption),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Points")), h("th", { scope: "col" }, t("Coins")),
        h("th", { scope: "col" }, t("Gladiators")))),
      h("tbody", {}, order.map((s) => h("tr", {}, h("th", { scope: "row" }, seatName(s)), h("td", {}, n(obs.scores[s])), h("td", {}, n(obs.coins[s])),
        h("td", {}, n(team(obs, s).filter((id) => info(ctx.data, id).gladiator).length)))))),
  ];
}
