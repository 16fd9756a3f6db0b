// Gladius: both fighters' hit points, the last exchange, the card to answer, your hand with
// what each card does, and what each side knows of the other's hand. Moves: the legal-move buttons.
import { h, replaceChildren } from "/static/common.js";

function card(data, key) {
  if (!key) return h("span", { class: "muted" }, "—");
  const c = (data.cards || {})[key] || { name: String(key).split("/").pop(), effect: "" };
  return h("span", { class: "gcard" }, h("strong", {}, c.name), c.effect ? h("span", { class: "effect" }, c.effect) : null);
}

function fighter(obs, seat, seatName) {
  const hp = obs.hit_points[seat], max = obs.max_hit_points[seat];
  const flags = [];
  if (obs.locked && obs.locked[seat]) flags.push(`immobilized (${obs.locked[seat]})`);
  if (obs.skip && obs.skip[seat]) flags.push("skips a turn");
  return h("div", { class: `fighter ${obs.active === seat ? "active" : ""}`, id: `fighter-${seat}` },
    h("h3", {}, `${obs.names[seat]} — ${seatName(seat)}`),
    h("meter", { min: 0, max, value: hp, low: Math.ceil(max / 3), optimum: max, "aria-label": `${obs.names[seat]} hit points` }),
    h("p", {}, h("strong", { class: "hp" }, `${hp} / ${max} hit points`), ` · ${obs.hand_sizes[seat]} card(s) in hand`),
    flags.length ? h("p", { class: "small" }, flags.join(" · ")) : null,
    obs.active === seat ? h("p", { class: "small" }, "attacking this turn") : null);
}

function board(root, data, obs, seatName) {
  const you = obs.seat;
  const last = obs.last_attack;
  replaceChildren(root,
    h("h2", {}, `The arena — turn ${obs.turn}`),
    h("div", { class: "fighters" }, obs.hit_points.map((_, seat) => fighter(obs, seat, seatName))),
    h("h3", {}, "Last exchange"),
    h("div", { id: "last-exchange" },
      last ? h("p", {}, `${seatName(last[0])} attacked with `, card(data, last[1]),
        obs.last_defence && obs.last_defence[1] ? [" — defended with ", card(data, obs.last_defence[1])] : " — no defence") : h("p", { class: "muted" }, "No attack yet."),
      obs.last_result ? h("p", {}, obs.last_result) : null),
    obs.table ? h("p", {}, "On the table: ", card(data, obs.table)) : null,
    obs.hand ? [h("h3", {}, `Your hand (${obs.hand.length} of at most ${obs.hand_limit})`),
      h("div", { id: "hand-cards" }, obs.hand.length ? obs.hand.map((k) => card(data, k)) : h("span", { class: "muted" }, "empty"))] : null,
    you !== null && obs.opponent_known ? h("p", { class: "small" },
      `Known cards in your opponent's hand: ${obs.opponent_known.length ? obs.opponent_known.map((k) => ((data.cards || {})[k] || { name: k }).name).join(", ") : "none"}`
      + ` (${obs.opponent_unknown} unknown).`) : null,
    h("p", { class: "small muted" }, `Draw pile ${obs.draw_pile} · discards ${(obs.discard || []).reduce((n, [, c]) => n + c, 0)}`),
    obs.end ? h("p", { class: "leader" }, obs.end) : null);
}

export default {
  board(root, ctx) { board(root, ctx.data, ctx.view.observation, ctx.seatName); },
  frame(root, obs, ctx) { board(root, ctx.data, obs, ctx.seatName); },
};
