// Gladius: both fighters' hit points, the last exchange in words, the card to answer, your hand
// with what each card does and, for every card you cannot use now, why (the rules' own reason,
// sent in the observation as hand_notes), and the end of the game: who won and how.
// Moves: the legal-move buttons, followed by the cards that are not among them and why.
import { h, replaceChildren } from "/static/common.js";

function info(data, key) {
  return (data.cards || {})[key] || { name: String(key).split("/").pop(), effect: "" };
}

function cardName(data, key) { return key ? info(data, key).name : "—"; }

// The mark on a card or fighter the rulebook does not print (the Lion, Ludus's own example): the
// reason in a tooltip, and in words for screen readers.
function oursMark(why) {
  if (!why) return null;
  const text = `not in the rulebook: ${why}`;
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
  if (obs.solo && seat === 1) return `the automated ${obs.names[1]}`;
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

// Another fighter type's card (not the seat's own type, not a shared card).
function notYours(data, obs, key) {
  const owner = info(data, key).set || String(key).split("/")[0];
  return obs.seat !== null && owner !== "both" && owner !== obs.fighters[obs.seat];
}

function fighter(obs, seat, seatName, data) {
  const hp = obs.hit_points[seat], max = obs.max_hit_points[seat];
  const flags = [];
  if (obs.skip && obs.skip[seat]) flags.push("immobilized: loses the next turn");
  if (obs.locked && obs.locked[seat]) flags.push(`may not attack on the next turn (after ${cardName(data, obs.locked[seat])})`);
  if (obs.barred && obs.active === seat && obs.phase === "attack") flags.push(`may not attack this turn (after ${cardName(data, obs.barred)} last turn)`);
  const you = obs.seat === seat;
  return h("div", { class: `fighter ${obs.active === seat && !obs.end ? "active" : ""}`, id: `fighter-${seat}` },
    h("h3", {}, `${Who(obs, seat, seatName)} — ${obs.names[seat]}`,
      oursMark(((data.fighters || {})[obs.fighters[seat]] || {}).ours), you ? h("span", { class: "badge" }, "you") : null),
    h("meter", { min: 0, max, value: hp, low: Math.ceil(max / 3), optimum: max, "aria-label": `${who(obs, seat, seatName)}: hit points` }),
    h("p", {}, h("strong", { class: "hp" }, `${hp} / ${max} hit points`),
      obs.solo && seat === 1 ? null : ` · ${obs.hand_sizes[seat]} card${obs.hand_sizes[seat] === 1 ? "" : "s"} in hand`),
    flags.length ? h("p", { class: "small gl-flags" }, flags.join(" · ")) : null,
    obs.active === seat && !obs.end ? h("p", { class: "small" }, "This fighter's turn") : null);
}

// The last exchange in words: who attacked whom with what, and what came of it.
export function exchangeText(data, obs, seatName) {
  const last = obs.last_attack, result = obs.last_result;
  if (result === "skipped") {
    const s = obs.end ? null : 1 - obs.active;
    return s === null ? "An immobilized fighter lost the turn." : `${Who(obs, s, seatName)} was immobilized and lost the turn.`;
  }
  if (!last) return null;
  const [a, key] = last;
  const d = 1 - a;
  const A = Who(obs, a, seatName), D = who(obs, d, seatName);
  if (key === null || result === "no attack") return `${A} did not attack.`;
  const atk = info(data, key);
  const opening = `${A} attacked ${D} with ${atk.name}`;
  const parts = [];
  if (!result) {  // the attack is on the table, waiting for the defence
    parts.push(`${opening}. ${sentence(D)} must answer: a defence card, or no defence.`);
  } else if (result === "hit") {
    const hurt = [];
    if (atk.damage) hurt.push(`${atk.damage} damage`);
    const dmg = hurt.length ? `${D} takes ${hurt.join("")}` : "";
    const imm = atk.immobilize ? `${D} is immobilized and loses the next turn` : "";
    const what = [dmg, imm].filter(Boolean).join("; ") || "the attack lands";
    parts.push(`${opening}. No defence: ${what}.`);
    if (obs.hit_points[d] === 0) parts.push(`${sentence(D)} has no hit points left.`);
  } else if (result === "blocked") {
    const def = obs.last_defence && obs.last_defence[1];
    parts.push(`${opening}. ${sentence(D)} blocked it${def ? ` with ${cardName(data, def)}` : ""}: no damage.`);
  } else if (result === "evaded") {
    const def = obs.last_defence && obs.last_defence[1];
    let line = `${opening}. ${sentence(D)} evaded${def ? ` with ${cardName(data, def)}` : ""}: no damage`;
    // the engine's own lock on the evader (still pending, or already barring this turn's attack)
    if (def && ((obs.locked && obs.locked[d] === def) || (obs.active === d && obs.barred === def))) {
      line += `, but ${D} may not attack ${obs.active === d ? "this turn" : "on the next turn"}`;
    }
    parts.push(`${line}.`);
  } else {
    parts.push(`${opening}.`);
  }
  if (atk.no_attack_next_turn && obs.locked && obs.locked[a] === key) parts.push(`${A} may not attack on the next turn (${atk.name}).`);
  return parts.join(" ");
}

// Who won and how, from the observation's end reason and winners (sides).
export function winnerText(obs, seatName) {
  if (!obs.end) return null;
  const [a, b] = obs.hit_points;
  const score = `${who(obs, 0, seatName)} ${a} — ${who(obs, 1, seatName)} ${b} hit points`;
  const winners = obs.winners || [];
  const tie = winners.length !== 1;
  const w = tie ? null : winners[0];
  const winner = tie ? "" : `${Who(obs, w, seatName)} (${obs.names[w]}) wins`;
  if (obs.end === "knockout") {
    const loser = tie ? null : 1 - w;
    return tie ? `Both fighters fell at once: a draw (${score}).`
      : `${winner}: ${who(obs, loser, seatName)}'s hit points fell to zero (${score}).`;
  }
  const how = obs.end === "turn-limit" ? `The turn limit (${obs.turn_limit} turns) was reached`
    : obs.end === "deck" ? "The deck ran out and the discards are not reshuffled" : "The game ended";
  return tie ? `${how} with equal hit points: a draw (${score}).`
    : `${how}: ${winner} with more hit points (${score}).`;
}

function notes(obs) {
  const out = new Map();
  (obs.hand || []).forEach((key, i) => {
    const why = (obs.hand_notes || [])[i];
    if (why && !out.has(key)) out.set(key, why);
  });
  return out;
}

function handView(data, obs) {
  if (obs.seat === null || !obs.hand) return null;
  const why = notes(obs);
  const cards = obs.hand.map((key) => {
    const reason = why.get(key);
    if (!reason) return h("li", { class: "gl-card" }, card(data, key));
    const tag = notYours(data, obs, key) ? "Not yours" : "Can't use now";
    return h("li", { class: "gl-card gl-unusable" }, card(data, key,
      h("span", { class: "gl-why" }, h("span", { class: "gl-tag" }, `✗ ${tag}: `), sentence(reason))));
  });
  return [h("h3", {}, `Your hand (${obs.hand.length} of at most ${obs.hand_limit})`),
    obs.hand.length ? h("ul", { id: "hand-cards", class: "gl-hand" }, cards)
      : h("p", { id: "hand-cards", class: "muted" }, "Your hand is empty.")];
}

function board(root, data, obs, seatName, live) {
  const you = obs.seat;
  const exchange = exchangeText(data, obs, seatName);
  const end = live ? null : winnerText(obs, seatName);  // a live table says it in the summary box
  replaceChildren(root,
    h("h2", {}, obs.end ? `The arena — the fight is over after turn ${obs.turn}` : `The arena — turn ${obs.turn}`),
    end ? h("p", { class: "leader gl-winner", id: "winner" }, end) : null,
    h("div", { class: "fighters" }, obs.hit_points.map((_, seat) => fighter(obs, seat, seatName, data))),
    h("h3", {}, "Last exchange"),
    h("div", { id: "last-exchange" }, exchange ? h("p", { id: "exchange-text" }, exchange) : h("p", { class: "muted" }, "No attack yet.")),
    obs.table ? h("p", {}, "Attack to answer: ", card(data, obs.table)) : null,
    handView(data, obs),
    you !== null && obs.opponent_known && !obs.solo ? h("p", { class: "small" },
      `Cards you have seen in ${who(obs, 1 - you, seatName)}'s hand: ${obs.opponent_known.length ? obs.opponent_known.map((k) => cardName(data, k)).join(", ") : "none"}`
      + ` (${obs.opponent_unknown} unknown to you).`) : null,
    obs.solo && obs.mini_hand && obs.mini_hand.length ? h("p", { class: "small" },
      `The opponent's mini-hand: ${obs.mini_hand.map((k) => cardName(data, k)).join(", ")}`) : null,
    h("p", { class: "small muted" }, `Draw pile ${obs.draw_pile} · discards ${(obs.discard || []).reduce((n, [, c]) => n + c, 0)}`
      + (obs.turn_limit ? ` · the game ends after turn ${obs.turn_limit}` : "")),
    oursLegend(data, obs));
}

// One visible line explaining the mark, when a fighter at this table is not in the rulebook.
function oursLegend(data, obs) {
  const marked = (obs.fighters || []).filter((id) => ((data.fighters || {})[id] || {}).ours);
  if (!marked.length) return null;
  return h("p", { class: "small muted", id: "ours-legend" }, h("span", { class: "gl-ours", "aria-hidden": "true" }, "✱"),
    " Not in the rulebook: this fighter and its cards are Ludus's own (the Rules panel lists their values).");
}

function prompt(data, obs, legal) {
  if (obs.phase === "attack" && obs.barred) {
    const b = info(data, obs.barred);
    return b.defence === "evade" ? `You may not attack this turn: you evaded with ${b.name} last turn.`
      : `You may not attack this turn: your ${b.name} last turn costs this attack.`;
  }
  // with the option attack = compulsory (the rulebook's reading) the server offers no "No attack"
  // while the fighter holds an attack card it can play
  const mayPass = (legal || []).some((m) => m.action && "attack" in m.action && m.action.attack === null);
  if (obs.phase === "attack" && !mayPass) {
    return "Your attack: play one of your attack cards. No attack is not allowed: attacking is compulsory "
      + "while you hold an attack card you can play.";
  }
  if (obs.phase === "attack") return "Your attack: play an attack card, or no attack.";
  if (obs.phase === "defend") return "You are attacked: answer with a defence card, or take the blow.";
  if (obs.phase === "discard") return `Too many cards: discard down to ${obs.hand_limit}.`;
  return null;
}

function moveLabel(data, m) {
  const a = m.action || {};
  const key = a.attack || a.defend || a.discard;
  if (!key) return m.label;
  const c = info(data, key);
  return c.effect ? `${m.label} — ${c.effect}` : m.label;
}

function moves(root, ctx) {
  const view = ctx.view, obs = view.observation;
  if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return true; }
  root.classList.remove("hidden");
  const why = notes(obs);
  const blocked = [...why.entries()].map(([key, reason]) =>
    h("li", { "data-card": key }, h("strong", {}, cardName(ctx.data, key)), ` — ${sentence(reason)}`));
  replaceChildren(root, h("h2", {}, "Your moves"),
    prompt(ctx.data, obs, view.legal) ? h("p", { id: "move-prompt" }, prompt(ctx.data, obs, view.legal)) : null,
    h("div", { class: "legal-list" }, view.legal.map((m) => h("button", { type: "button", class: "move",
      disabled: ctx.pending, onclick: () => ctx.act(m.action) }, moveLabel(ctx.data, m)))),
    blocked.length && obs.phase !== "discard" ? [h("h3", { class: "small" }, "Not possible now"),
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
  if (action === "hidden") return actor === -1 ? null : `${ctx.seatName(actor)}: (hidden)`;
  if (action && typeof action === "object") {
    if ("first" in action) return `${sentence(name(action.first))} moves first`;
    if ("skip" in action) return `${sentence(name(action.skip))} is immobilized and loses the turn`;
    if ("draw" in action) return `${sentence(name(action.seat))} draws ${cardName(ctx.data, action.draw)}`;
    const solo = "adversary_defend" in action;
    if (("defend" in action && actor >= 0) || solo) {
      const defender = solo ? 1 : actor;
      const card = solo ? action.adversary_defend : action.defend;
      const winner = card === null ? 1 - defender : defender;
      const marks = [{ kind: "winner", label: card === null ? `${sentence(name(winner))} lands the blow`
        : `${sentence(name(winner))} stops the attack` }];
      if (obs && obs.end === "knockout" && card === null && obs.hit_points[defender] === 0
          && index === lastDefence(ctx.history || [])) marks.push({ kind: "ko", label: "Knock-out" });
      return { text: actor === -1 ? label : `${ctx.seatName(actor)}: ${label}`, marks };
    }
  }
  return actor === -1 ? label : `${ctx.seatName(actor)}: ${label}`;
}

function summary(root, ctx) {
  const obs = ctx.view.observation;
  replaceChildren(root, h("h2", {}, "Game over"), h("p", { class: "leader", id: "champions" }, winnerText(obs, ctx.seatName)));
  return true;
}

export default {
  board(root, ctx) { board(root, ctx.data, ctx.view.observation, ctx.seatName, true); },
  frame(root, obs, ctx) { board(root, ctx.data, obs, ctx.seatName, false); },
  moves,
  logLine,
  summary,
  focusMoves() {
    const active = document.activeElement;
    if (active && active !== document.body && active.closest && active.closest("#moves")) return;
    const first = document.querySelector("#moves button.move");
    if (first && (!active || active === document.body)) first.focus();
  },
};
