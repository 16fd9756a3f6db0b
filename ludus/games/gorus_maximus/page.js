// Gorus Maximus: your troupe by school (icon and colour), each card with its Crowd Favour as the
// printed cards show it, the bout, the initiating and preferred schools, the previous bout, Crowd
// Support (and, when the table chose memory aids, each side's Crowd Favour so far), a summary of
// each round, and a log that marks bout winners, Challenges and round breaks. Every card in your
// troupe is a button: a playable one is played, any other is sent too so the server can say why
// it is refused. The numbers come from the server: the observation carries the CF table THIS
// table scores with, and the running Favour only when the table allows it.
import { formatList, formatNumber, h, isolate, replaceChildren, svg, t, tf, tn } from "/static/common.js";

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
  const rank = Number(card.slice(2));
  // TRANSLATORS: a card: its school's colour word and its rank ("Blue 7")
  return { code, rank, school: s, label: t("{school} {rank}", { school: s.short, rank }) };
}

// ---------------------------------------------------------------- Crowd Favour on the cards
const signed = (v) => isolate(v > 0 ? `+${formatNumber(v)}` : v < 0 ? `−${formatNumber(-v)}` : formatNumber(0));

// Where a value not printed in the rulebook comes from (the table's per-rank `origins`, the same
// marks the terminal and `ludus games` read), for the mark's tooltip and screen readers.
function originNote(cf, rank) {
  if (cf.own_table) return t("From this table's own Crowd Favour table (the cf-table option), not the rulebook.");
  const origin = (cf.origins || [])[rank];
  return origin === "example"
    ? t("Not printed in the rulebook: it follows from one of its worked examples, as the Gorus Maximus rules page explains. A table may use its own Crowd Favour table (the cf-table option).")
    : t("Not printed in the rulebook: our choice, explained on the Gorus Maximus rules page. A table may use its own Crowd Favour table (the cf-table option).");
}

// The same in a few words, after a card's spoken name.
function originWords(cf, rank) {
  let words;
  if (cf.own_table) words = t("(this table's own value)");
  else if ((cf.origins || [])[rank] === "example") words = t("(not printed in the rulebook; follows from one of its examples)");
  else words = t("(our value, not printed in the rulebook)");
  return ` ${words}`;
}

// The CF a card shows, as printed cards do: only where it is not 0, the 0s with the 5 they are
// worth if their school is preferred at the end of the round. `spoken` goes into aria-labels.
function cardFavour(cf, rank) {
  if (!cf) return null;
  const ours = cf.own_table || cf.ours.includes(rank);
  if (rank === 0) {
    const worth = { value: cf.preferred_zero, zero: 0 };
    return { text: isolate(`★${formatNumber(cf.preferred_zero)}`), kind: "cf-zero", ours,
      spoken: t("worth {value} Crowd Favour if its school is preferred at the end of the round, else {zero}", worth),
      title: t("Worth {value} Crowd Favour if its school is the preferred one when the round ends; otherwise {zero}.", worth) };
  }
  const value = cf.by_rank[rank];
  if (value === 0 && !ours) return null;
  return { text: signed(value), kind: value > 0 ? "cf-plus" : value < 0 ? "cf-minus" : "cf-none", ours,
    spoken: t("Crowd Favour {value}", { value: signed(value) }),
    title: t("Crowd Favour {value} when collected.", { value: signed(value) }) };
}

function favourBadge(cf, rank) {
  const f = cardFavour(cf, rank);
  if (!f) return null;
  return h("span", { class: `cf ${f.kind}`, title: f.title, "data-cf": f.text },
    h("span", { "aria-hidden": "true" }, f.text),
    f.ours ? h("span", { class: "cf-ours", title: originNote(cf, rank), "data-ours": "true" },
      h("span", { "aria-hidden": "true" }, "*"), h("span", { class: "visually-hidden" }, ` (${originNote(cf, rank)})`)) : null);
}

// A card in words; `withOrigin` false where the mark's own hidden text says where the value comes from.
function spokenCard(cf, c, withOrigin = true) {
  const f = cardFavour(cf, c.rank);
  if (!f) return c.label;
  const said = t("{card}, {favour}", { card: c.label, favour: f.spoken });
  return f.ours && withOrigin ? said + originWords(cf, c.rank) : said;
}

function cardFace(data, cf, card) {
  const c = parse(data, card);
  return h("span", { class: `card gm-card s-${c.school.colour}`, title: t("{school} {rank}", { school: c.school.name, rank: c.rank }),
    "data-face": card },
    h("span", { class: "visually-hidden" }, spokenCard(cf, c, false)),
    h("span", { class: "face", "aria-hidden": "true" }, icon(c.code), h("span", { class: "rank" }, formatNumber(c.rank))),
    favourBadge(cf, c.rank));
}

// ---------------------------------------------------------------- sides
function sideName(obs, side, seatName) {
  if (obs.solo) return side === 0 ? t("You") : t("Contenders");
  const seats = obs.side_of_seat.map((s, i) => [s, i]).filter(([s]) => s === side).map(([, i]) => seatName(i));
  return obs.side_names.length === obs.players ? seats[0]
    : t("{team} ({players})", { team: teamName(obs.side_names[side]), players: formatList(seats, "unit") });
}

// A team's name as the engine gives it ("Team A"), in the reader's language.
function teamName(name) {
  const m = /^Team (\S+)$/.exec(String(name));
  return m ? t("Team {letter}", { letter: m[1] }) : name;
}

function actorName(actor, seatName) { return actor === -2 ? t("The contenders") : seatName(actor); }

function boutView(data, obs, bout, seatName, label) {
  if (!bout.length) return h("p", { class: "muted" }, t("No gladiator has entered yet."));
  return h("div", { class: "bout", role: "list", "aria-label": label }, bout.map(([actor, card], i) => {
    const challenge = i > 0 && Number(bout[i - 1][1].slice(2)) === Number(card.slice(2));
    return h("figure", { role: "listitem" }, cardFace(data, obs.cf_table, card), h("figcaption", {}, actorName(actor, seatName)),
      challenge ? h("span", { class: "challenge" }, t("Challenge!")) : null);
  }));
}

// Crowd Support per side, the gladiators each side has won this round, and only with the table's
// memory aids each side's Crowd Favour so far (the server sends it only then).
function sidesTable(obs, seatName) {
  const aids = Array.isArray(obs.favour_so_far);
  return h("table", { class: "plain", id: "sides" },
    h("caption", { class: "small muted" }, aids
      ? t("Crowd Support (the target to win), Crowd Favour so far this round (a memory aid this table shows everyone), gladiators won this round")
      : t("Crowd Support (the target to win) and gladiators won this round")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Side")), h("th", { scope: "col" }, t("Support")),
      aids ? h("th", { scope: "col", id: "favour-so-far" }, t("Favour so far")) : null,
      h("th", { scope: "col" }, t("Gladiators won")))),
    h("tbody", {}, obs.support.map((support, side) => h("tr", {},
      h("th", { scope: "row" }, sideName(obs, side, seatName)),
      h("td", {}, t("{support} of {target}", { support, target: obs.targets[side] })),
      aids ? h("td", { "data-favour": side }, signed(obs.favour_so_far[side])) : null,
      h("td", {}, formatNumber(obs.collected_counts[side]))))));
}

// ---------------------------------------------------------------- the end of a round, in words
function listNames(names) { return formatList(names); }

function roundWinners(obs, lr, seatName) {
  return lr.support_gained.map((g, side) => [g, side]).filter(([g]) => g > 0).map(([, side]) => sideName(obs, side, seatName));
}

function roundTitle(obs, lr, seatName) {
  const won = roundWinners(obs, lr, seatName);
  const one = won.length === 1 && !obs.solo;  // "You win", "Contenders win"
  return one ? t("Round {number}: {names} wins the crowd", { number: lr.round, names: listNames(won) })
    : t("Round {number}: {names} win the crowd", { number: lr.round, names: listNames(won) });
}

function roundBody(data, obs, lr, seatName) {
  const won = roundWinners(obs, lr, seatName);
  const best = Math.max(...lr.crowd_favour);
  const preferred = schoolInfo(data, lr.preferred);
  let how;
  const gain = { count: 1, favour: signed(best) };
  if (lr.no_eight) how = t("You collected no 8 this round: the crowd suspects a fix, so the round goes to the contenders whatever the Favour.");
  else if (won.length > 1) how = t("{names} tied on the most Crowd Favour ({favour}); each gains {count} Crowd Support.", { ...gain, names: listNames(won) });
  else if (obs.solo && lr.support_gained[0] > 0) how = t("You had the most Crowd Favour ({favour}) and gain {count} Crowd Support.", gain);
  else if (obs.solo) how = t("The contenders had the most Crowd Favour ({favour}) and gain {count} Crowd Support.", gain);
  else how = t("{name} had the most Crowd Favour ({favour}) and gains {count} Crowd Support.", { ...gain, name: won[0] });
  const zeroValue = obs.cf_table ? obs.cf_table.preferred_zero : 5;
  const zeroCard = t("{school} {rank}", { school: preferred.short, rank: 0 });
  const zero = lr.preferred_zero_side === null ? t("Nobody collected the {card}.", { card: zeroCard })
    : t("{side} collected the {card}, which counts {value} because {school} was preferred at the end.",
      { side: sideName(obs, lr.preferred_zero_side, seatName), card: zeroCard, value: zeroValue, school: preferred.short });
  const supportNow = (s, side) => t("{side} {support} of {target}", { side: sideName(obs, side, seatName), support: s, target: obs.targets[side] });
  return h("div", { class: "round-summary", "data-round": lr.round },
    h("p", { class: "leader" }, how),
    h("p", {}, tf("Preferred school at the end: {school}.", { school: schoolChip(data, lr.preferred) }), ` ${zero}`),
    h("table", { class: "plain" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Side")), h("th", { scope: "col" }, t("Crowd Favour")),
        h("th", { scope: "col" }, t("Gladiators won")), h("th", { scope: "col" }, t("Support gained")), h("th", { scope: "col" }, t("Support now")))),
      h("tbody", {}, lr.crowd_favour.map((cf, side) => h("tr", { class: lr.support_gained[side] ? "winner" : "" },
        h("th", { scope: "row" }, sideName(obs, side, seatName)),
        h("td", {}, lr.preferred_zero_side === side
          ? t("{favour} (with the {card}: {value})", { favour: signed(cf), card: zeroCard, value: signed(zeroValue) }) : signed(cf)),
        h("td", {}, formatNumber(lr.collected_counts[side])),
        h("td", {}, lr.support_gained[side] ? signed(1) : "—"),
        h("td", {}, t("{support} of {target}", { support: obs.support[side], target: obs.targets[side] })))))),
    h("p", { class: "small muted" }, t("Crowd Support now: {sides}.", { sides: obs.support.map(supportNow).join(" · ") })));
}

function markers(data, obs, seatName) {
  return h("div", { class: "markers" },
    h("div", {}, h("strong", {}, t("Round {number}", { number: obs.round })),
      obs.solo ? null : h("span", { class: "muted" }, t("dealer {name}", { name: seatName(obs.dealer) }))),
    h("div", { id: "preferred" }, t("Preferred:"), schoolChip(data, obs.preferred)),
    h("div", { id: "initiating" }, t("Initiating:"), schoolChip(data, obs.initiating)),
    obs.stock_size ? h("div", {}, obs.solo ? t("Contender stack: {count}", { count: obs.stock_size })
      : t("Draw pile: {count}", { count: obs.stock_size })) : null);
}

function legend(obs) {
  const cf = obs.cf_table;
  if (!cf) return null;
  const star = { mark: isolate(`★${formatNumber(cf.preferred_zero)}`), value: cf.preferred_zero, zero: 0 };
  return h("p", { class: "small muted cf-legend" },
    t("Numbers under a card are its Crowd Favour when collected;"), " ",
    t("{mark} on a {zero}: worth {value} if its school is preferred when the round ends.", star), " ",
    cf.own_table ? t("* marks a value from this table's own Crowd Favour table.")
      : t("* marks a value not printed in the rulebook (our choice, or worked out from one of its examples; hover a * to see which)."));
}

function table(root, data, obs, seatName, hand, openRound) {
  const prevWinner = obs.previous_winner;
  replaceChildren(root,
    h("h2", {}, t("The arena")),
    markers(data, obs, seatName),
    h("h3", {}, t("Bout")),
    boutView(data, obs, obs.bout, seatName, t("Current bout")),
    hand,
    h("details", { id: "previous-bout", open: obs.previous_bout.length > 0 },
      h("summary", {}, prevWinner === null ? t("Previous bout (none yet this round)")
        : t("Previous bout — won by {name}", { name: actorName(prevWinner, seatName) })),
      boutView(data, obs, obs.previous_bout, seatName, t("Previous bout"))),
    sidesTable(obs, seatName),
    legend(obs),
    obs.last_round ? h("details", { class: "panel", id: "round-summary", open: openRound },
      h("summary", {}, roundTitle(obs, obs.last_round, seatName)), roundBody(data, obs, obs.last_round, seatName)) : null);
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
  const cf = obs.cf_table;
  const rows = (data.schools || []).filter((s) => bySchool.has(s.code)).map((s) => h("div", { class: "hand-row", role: "group",
    "aria-label": s.name }, schoolChip(data, s.code), bySchool.get(s.code).map((card) => {
    const c = parse(data, card);
    if (!ctx.live) return cardFace(data, cf, card);
    const playable = legal.has(card);
    return h("button", { type: "button", class: `card gm-card s-${s.colour} ${playable ? "playable" : "unplayable"}`,
      "data-card": card, "aria-label": playable ? spokenCard(cf, c) : t("{card} (not playable now)", { card: spokenCard(cf, c) }),
      disabled: ctx.pending,
      onclick: () => ctx.act({ play: card }), onkeydown: arrowKeys },
    h("span", { class: "face" }, icon(s.code), h("span", { class: "rank" }, formatNumber(c.rank))), favourBadge(cf, c.rank));
  })));
  const mine = ctx.live && ctx.view.to_move.includes(ctx.you);
  return h("section", { id: "hand", "aria-label": t("Your troupe") },
    h("h3", {}, t("Your troupe ({count})", { count: obs.hand.length })),
    ctx.live ? h("p", { class: "small muted" }, mine ? t("Your turn: highlighted gladiators may enter the bout. Arrow keys go from card to card.")
      : t("Not your turn yet.")) : null,
    rows.length ? rows : h("p", { class: "muted" }, t("Your troupe is empty.")));
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

// ---------------------------------------------------------------- the log: bouts, Challenges, rounds
// Every card is played face up, so the log alone tells where each bout and round ends: a bout is
// one card per seat (three in solo play: contender, you, contender), and every card of the deck
// is played each round. Who won a bout follows the rules: the highest card of the preferred
// school, else the highest of the initiating school; a card of the same rank as the one just
// before it is a Challenge and makes its school preferred.
const logNotes = { history: null, length: 0, byIndex: new Map() };

function annotate(ctx) {
  const history = ctx.history || [];
  if (logNotes.history === history && logNotes.length === history.length) return logNotes.byIndex;
  const obs = ctx.view.observation;
  const boutSize = obs.solo ? 3 : obs.players;
  const roundSize = Number((ctx.data.deck_size || {})[String(obs.players)]) || 0;
  const byIndex = new Map();
  let round = 0;
  let played = 0;
  let preferred = null;
  let initiating = null;
  let bout = [];
  history.forEach(([actor, action], i) => {
    if (!action || typeof action !== "object") return;
    const card = action.play || action.reveal;
    if (!card) return;
    const who = action.reveal ? -2 : actor;
    const code = card.slice(0, 2);
    const rank = Number(card.slice(2));
    const note = { marks: [] };
    if (played === 0) {
      round += 1;
      preferred = null;
      note.breakBefore = t("Round {number}", { number: round });
    }
    if (!bout.length) {
      initiating = code;
      if (preferred === null) preferred = code;
    } else if (bout[bout.length - 1].rank === rank) {
      const changed = code !== preferred;
      preferred = code;
      const school = schoolInfo(ctx.data, code);
      const name = school ? school.name : code;
      note.marks.push({ kind: "challenge", label: changed ? t("Challenge: {school} now preferred", { school: name })
        : t("Challenge ({school} stays preferred)", { school: name }) });
    }
    bout.push({ who, code, rank });
    if (bout.length === boutSize) {
      const best = (school) => bout.filter((b) => b.code === school).sort((a, b) => b.rank - a.rank)[0];
      const winner = best(preferred) || best(initiating);
      note.marks.push({ kind: "winner", label: winner.who === -2 ? t("The contenders win the bout")
        : t("{name} wins the bout", { name: ctx.seatName(winner.who) }) });
      bout = [];
    }
    played += 1;
    if (roundSize && played === roundSize) played = 0;
    byIndex.set(i, note);
  });
  logNotes.history = history;
  logNotes.length = history.length;
  logNotes.byIndex = byIndex;
  return byIndex;
}

function withNotes(text, note) {
  if (!note) return text;
  return { text, marks: note.marks, breakBefore: note.breakBefore };
}

export default {
  board(root, ctx) {
    const obs = ctx.view.observation;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    // the dialog (summaries) shows a round's end when it happens; here it stays folded
    table(root, ctx.data, obs, ctx.seatName, handView(ctx.data, obs, ctx), false);
    if (focused) {
      const again = root.querySelector(`button[data-card="${focused}"]`);
      if (again) again.focus();
    }
  },
  moves(root) { replaceChildren(root); root.classList.add("hidden"); return true; },  // the troupe is the move list
  // a move's name in the hint box: the card, in the reader's language
  moveLabel(move, ctx) { return move.action && move.action.play ? cardLabel(ctx.data, move.action.play) : move.label; },
  focusMoves(root) {
    if (document.activeElement && document.activeElement.closest && document.activeElement.closest("#hand")) return;
    const first = root.querySelector("#hand button.playable");
    if (first && document.activeElement === document.body) first.focus();
  },
  frame(root, obs, ctx) {
    const fresh = !!obs.last_round && obs.last_round.round === obs.round - 1 && !obs.previous_bout.length && !obs.bout.length;
    table(root, ctx.data, obs, ctx.seatName, handView(ctx.data, obs, { ...ctx, live: false }), fresh || obs.winners.length > 0);
  },
  logLine([actor, action], ctx, index) {
    if (action === "hidden") return null;  // other seats' deals
    const note = annotate(ctx).get(index);
    if (action.reveal) return withNotes(t("Contender plays {card}", { card: cardLabel(ctx.data, action.reveal) }), note);
    if (action.play) return withNotes(t("{name} plays {card}", { name: ctx.seatName(actor), card: cardLabel(ctx.data, action.play) }), note);
    if (action.schools) {
      const names = action.schools.map((code) => (schoolInfo(ctx.data, code) || { name: code }).name);
      return t("schools in play: {schools}", { schools: formatList(names, "unit") });
    }
    return null;  // your own deals would flood the log
  },
  // One summary per round end, while the game goes on; the last round is part of the game-over view.
  summaries(ctx) {
    const obs = ctx.view.observation;
    const lr = obs.last_round;
    if (!lr || ctx.view.terminal) return [];
    return [{ id: `round-${lr.round}`, title: roundTitle(obs, lr, ctx.seatName), body: roundBody(ctx.data, obs, lr, ctx.seatName) }];
  },
  summary(root, ctx) {
    const obs = ctx.view.observation;
    const names = formatList(obs.winners.map(ctx.seatName), "unit");
    const champions = obs.solo ? (obs.winners.length ? t("You are the Champion of Gorus Maximus!") : t("The contenders win the crowd."))
      : tn("Champion of Gorus Maximus: {names}", "Champions of Gorus Maximus: {names}", obs.winners.length, { names });
    const lr = obs.last_round;
    const support = (s, side) => t("{side} {support} of {target}", { side: sideName(obs, side, ctx.seatName), support: s, target: obs.targets[side] });
    replaceChildren(root, h("h2", {}, t("Game over")), h("p", { class: "leader", id: "champions" }, champions),
      h("p", {}, t("Final Crowd Support: {sides}", { sides: obs.support.map(support).join(" · ") })),
      lr ? h("h3", {}, t("The last round ({number})", { number: lr.round })) : null,
      lr ? roundBody(ctx.data, obs, lr, ctx.seatName) : null);
    return true;
  },
};
