// Gladius: both fighters' hit points, the last exchange in words, the card to answer, your hand
// with what each card does and, for every card you cannot use now, why (the rules' reason, sent
// in the observation as hand_reasons: a code and params), and the end of the game: who won and how.
// Moves: the legal-move buttons, followed by the cards that are not among them and why.
import { formatList, formatNumber, h, lang, replaceChildren, t, tn } from "/static/common.js";

function info(data, key) {
  return (data.cards || {})[key] || { name: String(key).split("/").pop(), effect: "" };
}

function cardName(data, key) { return key ? info(data, key).name : "—"; }

// A fighter type's name as the observation gives it ("Thracian", "Thracian 2" in a mirror match),
// in the reader's language (page_data's fighter_names).
let pageData = {};  // the page data of the table being drawn (set by each entry point below)

function typeWord(name) {
  const words = pageData.fighter_names || {};
  const m = /^(.*) (\d+)$/.exec(String(name));
  if (m && words[m[1]]) return `${words[m[1]]} ${formatNumber(Number(m[2]))}`;
  return words[name] || name;
}

// A move as the page says it (the server's label is English): "Attack: Gladius (Thracian)".
function moveWords(data, action, label) {
  const a = action || {};
  const named = (key) => (info(data, key).label || cardName(data, key));
  if ("attack" in a) return a.attack === null ? t("No attack") : t("Attack: {card}", { card: named(a.attack) });
  if ("defend" in a) return a.defend === null ? t("No defence") : t("Defend: {card}", { card: named(a.defend) });
  if ("discard" in a) return t("Discard {card}", { card: named(a.discard) });
  return label;
}

// The mark on a card or fighter the rulebook does not print (the Lion, Ludus's own example): the
// reason in a tooltip, and in words for screen readers.
function oursMark(why) {
  if (!why) return null;
  const text = t("not in the rulebook: {why}", { why });
  return h("span", { class: "gl-ours", "data-source": "ours", title: text },
    h("span", { "aria-hidden": "true" }, "✱"), h("span", { class: "visually-hidden" }, ` (${text})`));
}

function card(data, key, extra) {
  if (!key) return h("span", { class: "muted" }, "—");
  const c = info(data, key);
  return h("span", { class: "gcard", "data-card": key }, h("strong", {}, c.name), oursMark(c.ours),
    c.effect ? h("span", { class: "effect" }, c.effect) : null, extra || null);
}

// A fighter by the player's name and the fighter type; in solo the second fighter is the automated opponent.
function who(obs, seat, seatName) {
  if (obs.solo && seat === 1) return t("the automated {fighter}", { fighter: typeWord(obs.names[1]) });
  return seatName(seat);
}

function Who(obs, seat, seatName) {
  const s = who(obs, seat, seatName);
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function sentence(text) {
  const t = String(text);
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// The rules' reason a card cannot be used: from its code and params (the observation's
// hand_reasons) in the reader's language; in English, or for a code this page does not know, the
// observation's English sentence (marked as English in a page of another language).
function ruleWords(data, note) {
  const said = lang === "en" ? null : reasonText(data, note.reason);
  if (said) return sentence(said);
  return lang === "en" ? sentence(note.text) : h("span", { lang: "en", dir: "ltr" }, sentence(note.text));
}

function reasonText(data, reason) {
  if (!reason || !reason.code) return null;
  const p = reason.params || {};
  const label = p.card ? (info(data, p.card).label || cardName(data, p.card)) : "";
  const name = p.card ? cardName(data, p.card) : "";
  const fighter = ((data.fighters || {})[p.fighter] || {}).name || p.fighter;
  switch (reason.code) {
    case "gladius.not-an-attack": return t("{card} is a defence card, not an attack", { card: label });
    case "gladius.not-a-defence": return t("{card} is an attack card; to defend play a Block or an Evade", { card: label });
    case "gladius.evaded-last-turn": return t("you may not attack this turn: you evaded with {card} last turn", { card: name });
    case "gladius.costs-next-attack": return t("you may not attack this turn: a {card} costs your next attack", { card: name });
    case "gladius.block-cannot-stop": return t("a Block cannot stop {card}, which immobilizes; only an Evade can", { card: name });
    case "gladius.shared-not-usable": return t("{card} is a shared card, but a {fighter} cannot use it", { card: label, fighter });
    case "gladius.not-usable": {
      const owner = ((data.fighters || {})[p.owner] || {}).name || p.owner;
      return t("{card} is a {owner} card; a {fighter} cannot use it", { card: label, owner, fighter });
    }
    default: return null;
  }
}

// Another fighter type's card (not the seat's own type, not a shared card).
function notYours(data, obs, key) {
  const owner = info(data, key).set || String(key).split("/")[0];
  return obs.seat !== null && owner !== "both" && owner !== obs.fighters[obs.seat];
}

function fighter(obs, seat, seatName, data) {
  const hp = obs.hit_points[seat], max = obs.max_hit_points[seat];
  const flags = [];
  if (obs.skip && obs.skip[seat]) flags.push(t("immobilized: loses the next turn"));
  if (obs.locked && obs.locked[seat]) flags.push(t("may not attack on the next turn (after {card})", { card: cardName(data, obs.locked[seat]) }));
  if (obs.barred && obs.active === seat && obs.phase === "attack") {
    flags.push(t("may not attack this turn (after {card} last turn)", { card: cardName(data, obs.barred) }));
  }
  const you = obs.seat === seat;
  const inHand = tn("{count} card in hand", "{count} cards in hand", obs.hand_sizes[seat], { count: obs.hand_sizes[seat] });
  return h("div", { class: `fighter ${obs.active === seat && !obs.end ? "active" : ""}`, id: `fighter-${seat}` },
    h("h3", {}, `${Who(obs, seat, seatName)} — ${typeWord(obs.names[seat])}`,
      oursMark(((data.fighters || {})[obs.fighters[seat]] || {}).ours), you ? h("span", { class: "badge" }, t("you")) : null),
    h("meter", { min: 0, max, value: hp, low: Math.ceil(max / 3), optimum: max,
      "aria-label": t("{fighter}: hit points", { fighter: who(obs, seat, seatName) }) }),
    h("p", {}, h("strong", { class: "hp" }, t("{hp} / {max} hit points", { hp, max })),
      obs.solo && seat === 1 ? null : ` · ${inHand}`),
    flags.length ? h("p", { class: "small gl-flags" }, flags.join(" · ")) : null,
    obs.active === seat && !obs.end ? h("p", { class: "small" }, t("This fighter's turn")) : null);
}

// The last exchange in words: who attacked whom with what, and what came of it.
export function exchangeText(data, obs, seatName) {
  const last = obs.last_attack, result = obs.last_result;
  if (result === "skipped") {
    const s = obs.end ? null : 1 - obs.active;
    return s === null ? t("An immobilized fighter lost the turn.") : t("{fighter} was immobilized and lost the turn.", { fighter: Who(obs, s, seatName) });
  }
  if (!last) return null;
  const [a, key] = last;
  const d = 1 - a;
  const A = Who(obs, a, seatName), D = who(obs, d, seatName);
  if (key === null || result === "no attack") return t("{fighter} did not attack.", { fighter: A });
  const atk = info(data, key);
  const opening = t("{attacker} attacked {defender} with {card}", { attacker: A, defender: D, card: atk.name });
  const parts = [];
  if (!result) {  // the attack is on the table, waiting for the defence
    parts.push(t("{opening}. {defender} must answer: a defence card, or no defence.", { opening, defender: sentence(D) }));
  } else if (result === "hit") {
    const dmg = atk.damage ? t("{defender} takes {count} damage", { defender: D, count: atk.damage }) : "";
    const imm = atk.immobilize ? t("{defender} is immobilized and loses the next turn", { defender: D }) : "";
    const what = [dmg, imm].filter(Boolean).join(t("; ")) || t("the attack lands");
    parts.push(t("{opening}. No defence: {what}.", { opening, what }));
    if (obs.hit_points[d] === 0) parts.push(t("{defender} has no hit points left.", { defender: sentence(D) }));
  } else if (result === "blocked") {
    const def = obs.last_defence && obs.last_defence[1];
    parts.push(def ? t("{opening}. {defender} blocked it with {card}: no damage.", { opening, defender: sentence(D), card: cardName(data, def) })
      : t("{opening}. {defender} blocked it: no damage.", { opening, defender: sentence(D) }));
  } else if (result === "evaded") {
    const def = obs.last_defence && obs.last_defence[1];
    const said = { opening, defender: sentence(D), card: def ? cardName(data, def) : "" };
    let line = def ? t("{opening}. {defender} evaded with {card}: no damage", said) : t("{opening}. {defender} evaded: no damage", said);
    // the engine's own lock on the evader (still pending, or already barring this turn's attack)
    if (def && ((obs.locked && obs.locked[d] === def) || (obs.active === d && obs.barred === def))) {
      line = obs.active === d ? t("{line}, but {defender} may not attack this turn", { line, defender: D })
        : t("{line}, but {defender} may not attack on the next turn", { line, defender: D });
    }
    parts.push(t("{line}.", { line }));
  } else {
    parts.push(t("{line}.", { line: opening }));
  }
  if (atk.no_attack_next_turn && obs.locked && obs.locked[a] === key) {
    parts.push(t("{fighter} may not attack on the next turn ({card}).", { fighter: A, card: atk.name }));
  }
  return parts.join(" ");
}

// Who won and how, from the observation's end reason and winners (sides).
export function winnerText(obs, seatName) {
  if (!obs.end) return null;
  const [a, b] = obs.hit_points;
  const score = t("{first} {a} — {second} {b} hit points", { first: who(obs, 0, seatName), a, second: who(obs, 1, seatName), b });
  const winners = obs.winners || [];
  const tie = winners.length !== 1;
  const w = tie ? null : winners[0];
  const winner = tie ? "" : t("{fighter} ({type}) wins", { fighter: Who(obs, w, seatName), type: typeWord(obs.names[w]) });
  if (obs.end === "knockout") {
    const loser = tie ? null : 1 - w;
    return tie ? t("Both fighters fell at once: a draw ({score}).", { score })
      : t("{winner}: {loser}'s hit points fell to zero ({score}).", { winner, loser: who(obs, loser, seatName), score });
  }
  const how = obs.end === "turn-limit" ? t("The turn limit ({count} turns) was reached", { count: obs.turn_limit })
    : obs.end === "deck" ? t("The deck ran out and the discards are not reshuffled") : t("The game ended");
  return tie ? t("{how} with equal hit points: a draw ({score}).", { how, score })
    : t("{how}: {winner} with more hit points ({score}).", { how, winner, score });
}

// Per card of the hand that cannot be used now: the rules' reason (English text, and its code).
function notes(obs) {
  const out = new Map();
  (obs.hand || []).forEach((key, i) => {
    const text = (obs.hand_notes || [])[i];
    if (text && !out.has(key)) out.set(key, { text, reason: (obs.hand_reasons || [])[i] });
  });
  return out;
}

function handView(data, obs) {
  if (obs.seat === null || !obs.hand) return null;
  const why = notes(obs);
  const cards = obs.hand.map((key) => {
    const reason = why.get(key);
    if (!reason) return h("li", { class: "gl-card" }, card(data, key));
    const tag = notYours(data, obs, key) ? t("Not yours") : t("Can't use now");
    return h("li", { class: "gl-card gl-unusable" }, card(data, key,
      h("span", { class: "gl-why" }, h("span", { class: "gl-tag" }, `✗ ${tag}: `), ruleWords(data, reason))));
  });
  return [h("h3", {}, t("Your hand ({count} of at most {limit})", { count: obs.hand.length, limit: obs.hand_limit })),
    obs.hand.length ? h("ul", { id: "hand-cards", class: "gl-hand" }, cards)
      : h("p", { id: "hand-cards", class: "muted" }, t("Your hand is empty."))];
}

function board(root, data, obs, seatName, live) {
  const you = obs.seat;
  const endsAfter = t("the game ends after turn {number}", { number: obs.turn_limit });
  const exchange = exchangeText(data, obs, seatName);
  const end = live ? null : winnerText(obs, seatName);  // a live table says it in the summary box
  replaceChildren(root,
    h("h2", {}, obs.end ? t("The arena — the fight is over after turn {number}", { number: obs.turn })
      : t("The arena — turn {number}", { number: obs.turn })),
    end ? h("p", { class: "leader gl-winner", id: "winner" }, end) : null,
    h("div", { class: "fighters" }, obs.hit_points.map((_, seat) => fighter(obs, seat, seatName, data))),
    h("h3", {}, t("Last exchange")),
    h("div", { id: "last-exchange" }, exchange ? h("p", { id: "exchange-text" }, exchange) : h("p", { class: "muted" }, t("No attack yet."))),
    obs.table ? h("p", {}, t("Attack to answer:"), " ", card(data, obs.table)) : null,
    handView(data, obs),
    you !== null && obs.opponent_known && !obs.solo ? h("p", { class: "small" }, t("Cards you have seen in {fighter}'s hand: {cards} ({count} unknown to you).", {
      fighter: who(obs, 1 - you, seatName), count: obs.opponent_unknown,
      cards: obs.opponent_known.length ? formatList(obs.opponent_known.map((k) => cardName(data, k)), "unit") : t("none") })) : null,
    obs.solo && obs.mini_hand && obs.mini_hand.length ? h("p", { class: "small" },
      t("The opponent's mini-hand: {cards}", { cards: formatList(obs.mini_hand.map((k) => cardName(data, k)), "unit") })) : null,
    h("p", { class: "small muted" }, t("Draw pile {count} · discards {discards}", { count: obs.draw_pile,
      discards: (obs.discard || []).reduce((n, [, c]) => n + c, 0) })
      + (obs.turn_limit ? ` · ${endsAfter}` : "")),
    oursLegend(data, obs));
}

// One visible line explaining the mark, when a fighter at this table is not in the rulebook.
function oursLegend(data, obs) {
  const marked = (obs.fighters || []).filter((id) => ((data.fighters || {})[id] || {}).ours);
  if (!marked.length) return null;
  return h("p", { class: "small muted", id: "ours-legend" }, h("span", { class: "gl-ours", "aria-hidden": "true" }, "✱"),
    " ", t("Not in the rulebook: this fighter and its cards are Ludus's own (the Rules panel lists their values)."));
}

function prompt(data, obs, legal) {
  if (obs.phase === "attack" && obs.barred) {
    const b = info(data, obs.barred);
    return b.defence === "evade" ? t("You may not attack this turn: you evaded with {card} last turn.", { card: b.name })
      : t("You may not attack this turn: your {card} last turn costs this attack.", { card: b.name });
  }
  // with the option attack = compulsory (the rulebook's reading) the server offers no "No attack"
  // while the fighter holds an attack card it can play
  const mayPass = (legal || []).some((m) => m.action && "attack" in m.action && m.action.attack === null);
  if (obs.phase === "attack" && !mayPass) {
    return t("Your attack: play one of your attack cards. No attack is not allowed: attacking is compulsory while you hold an attack card you can play.");
  }
  if (obs.phase === "attack") return t("Your attack: play an attack card, or no attack.");
  if (obs.phase === "defend") return t("You are attacked: answer with a defence card, or take the blow.");
  if (obs.phase === "discard") return t("Too many cards: discard down to {count}.", { count: obs.hand_limit });
  return null;
}

function moveLabel(data, m) {
  const a = m.action || {};
  const key = a.attack || a.defend || a.discard;
  const said = moveWords(data, m.action, m.label);
  if (!key) return said;
  const c = info(data, key);
  return c.effect ? `${said} — ${c.effect}` : said;
}

function moves(root, ctx) {
  const view = ctx.view, obs = view.observation;
  if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return true; }
  root.classList.remove("hidden");
  const why = notes(obs);
  const blocked = [...why.entries()].map(([key, reason]) =>
    h("li", { "data-card": key }, h("strong", {}, cardName(ctx.data, key)), " — ", ruleWords(ctx.data, reason)));
  replaceChildren(root, h("h2", {}, t("Your moves")),
    prompt(ctx.data, obs, view.legal) ? h("p", { id: "move-prompt" }, prompt(ctx.data, obs, view.legal)) : null,
    h("div", { class: "legal-list" }, view.legal.map((m) => h("button", { type: "button", class: "move",
      disabled: ctx.pending, onclick: () => ctx.act(m.action) }, moveLabel(ctx.data, m)))),
    blocked.length && obs.phase !== "discard" ? [h("h3", { class: "small" }, t("Not possible now")),
      h("ul", { id: "blocked-moves", class: "small gl-blocked" }, blocked)] : null);
  return true;
}

// The last answer to an attack in the log (a player's, or the solo opponent's).
function lastDefence(history) {
  for (let i = history.length - 1; i >= 0; i--) {
    const a = history[i][1];
    if (a && typeof a === "object" && ("defend" in a || "adversary_defend" in a)) return i;
  }
  return -1;
}

// Each answer to an attack settles an exchange: no defence lets the blow land (the attacker wins
// it), a defence card stops it (the defender wins it); the legal moves only offer a defence that
// works against that attack. The blow that ends the game by knock-out is marked as such.
function logLine([actor, action, label], ctx, index) {
  const obs = ctx.view && ctx.view.observation;
  const name = (s) => (obs ? who(obs, s, ctx.seatName) : ctx.seatName(s));
  if (action === "hidden") return actor === -1 ? null : t("{player}: (hidden)", { player: ctx.seatName(actor) });
  if (action && typeof action === "object") {
    if ("first" in action) return t("{fighter} moves first", { fighter: sentence(name(action.first)) });
    if ("skip" in action) return t("{fighter} is immobilized and loses the turn", { fighter: sentence(name(action.skip)) });
    if ("draw" in action) return t("{fighter} draws {card}", { fighter: sentence(name(action.seat)), card: cardName(ctx.data, action.draw) });
    const solo = "adversary_defend" in action;
    if (("defend" in action && actor >= 0) || solo) {
      const defender = solo ? 1 : actor;
      const card = solo ? action.adversary_defend : action.defend;
      const winner = card === null ? 1 - defender : defender;
      const marks = [{ kind: "winner", label: card === null ? t("{fighter} lands the blow", { fighter: sentence(name(winner)) })
        : t("{fighter} stops the attack", { fighter: sentence(name(winner)) }) }];
      if (obs && obs.end === "knockout" && card === null && obs.hit_points[defender] === 0
          && index === lastDefence(ctx.history || [])) marks.push({ kind: "ko", label: t("Knock-out") });
      const said = moveWords(ctx.data, action, label);
      return { text: actor === -1 ? said : t("{player}: {move}", { player: ctx.seatName(actor), move: said }), marks };
    }
  }
  const said = moveWords(ctx.data, action, label);
  return actor === -1 ? said : t("{player}: {move}", { player: ctx.seatName(actor), move: said });
}

function summary(root, ctx) {
  const obs = ctx.view.observation;
  replaceChildren(root, h("h2", {}, t("Game over")), h("p", { class: "leader", id: "champions" }, winnerText(obs, ctx.seatName)));
  return true;
}

export default {
  board(root, ctx) { pageData = ctx.data || {}; board(root, ctx.data, ctx.view.observation, ctx.seatName, true); },
  frame(root, obs, ctx) { pageData = ctx.data || {}; board(root, ctx.data, obs, ctx.seatName, false); },
  moves(root, ctx) { pageData = ctx.data || {}; return moves(root, ctx); },
  logLine(entry, ctx, index) { pageData = ctx.data || {}; return logLine(entry, ctx, index); },
  summary(root, ctx) { pageData = ctx.data || {}; return summary(root, ctx); },
  moveLabel(move, ctx) { pageData = ctx.data || {}; return moveWords(ctx.data, move.action, move.label); },
  focusMoves() {
    const active = document.activeElement;
    if (active && active !== document.body && active.closest && active.closest("#moves")) return;
    const first = document.querySelector("#moves button.move");
    if (first && (!active || active === document.body)) first.focus();
  },
};
