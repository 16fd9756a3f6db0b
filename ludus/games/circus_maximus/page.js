// Circus Maximus: a drawn board. The five locations (Caesar's Villa, the Forum Romanum and the
// three venues) each with what lies there and the line of trader tokens queued beside it, front
// first; a legend; a panel per player; the day, the phase and what the current choice means in
// one sentence; moves grouped and labelled in words; day summaries and a readable log.
// Everything here is public in this game; the page shows only what the server sends.
// Every word is in the reader's language: the page's own through t()/tn(), the names and
// sentences of the data (locations, visitors, seats, favour cards and their effects, colours, the
// marks' reasons) as page_data() gives them, already translated by the server.
import { formatList, formatNumber, h, isolate, lang, N_, replaceChildren, svg, t, tf, tn } from "/static/common.js";
import { dir } from "/static/i18n.js";

const PHASE_LINES = { 1: [0], 2: [1], 3: [2, 3, 4] };
const ROMAN = ["", "I", "II", "III"];
const CAESAR_NOTE = N_("Caesar buys nothing; while he is at a venue, the first trader there may sell a favour card as a seat beside him.");
const n = formatNumber;
const arrow = () => (dir === "rtl" ? "←" : "→");  // "sold to": the way the text goes

// ---------------------------------------------------------------- small pieces
function seatColour(data, seat) { return ((data.colours || [])[seat] || t("Player {number}", { number: seat + 1 })); }
function lineInfo(data, i) {
  return (data.lines || [])[i] || { key: `line${i}`, name: t("Line {number}", { number: i + 1 }), role: "" };
}
function lineIndex(data, key) { return (data.lines || []).findIndex((l) => l.key === key); }
function venueName(data, key) { const l = (data.lines || []).find((x) => x.key === key); return l ? l.name : key; }
// A location as a sentence names it: "Caesar's Villa", "the Colosseum" (the villa's name already says whose it is)
function theName(data, key) {
  const l = (data.lines || []).find((x) => x.key === key);
  if (l && l.at) return l.at;
  return key === "villa" ? venueName(data, key) : `the ${venueName(data, key)}`;
}
function ticketInfo(data, key) {
  const t = (data.tickets || {})[key];
  if (t) return t;
  const [venue, seat] = String(key).split(":");
  return { venue, seat: seat || "", seat_name: (seat || "ticket").replace(/^./, (c) => c.toUpperCase()), coins: 0, marks: {} };
}
// A seat kind inside a sentence: as named on the ticket in English ("a Colosseum Box ticket"),
// the plain word in other languages ("una entrada de palco").
function seatWord(tk) { return lang === "en" ? tk.seat_name : (tk.seat_word || tk.seat_name); }
function visitorInfo(data, key) { return (data.visitors || {})[key] || { name: key, coins: 0, caesar: false, marks: {} }; }
function favourInfo(data, key) { return (data.favours || {})[key] || { name: key, coins: 0, effect: "", marks: {} }; }
function favourName(data, key) { return favourInfo(data, key).name; }
function coinsText(count) { return tn("{count} coin", "{count} coins", count, { count }); }
function coins(count) { return h("span", { class: "cm-coins" }, coinIcon(), coinsText(count)); }
// The mark after one value the rulebook does not print (° ours, * from its worked example), per
// value as the card file says: the reason in a tooltip, and in words for screen readers.
function mark(data, item, field) {
  const m = ((item || {}).marks || {})[field];
  if (!m) return null;
  const symbol = (data.marks || {})[m.source] || "°";
  return h("span", { class: "cm-ours-wrap", "data-source": m.source, "data-field": field },
    h("span", { class: `cm-ours ${m.source}`, title: m.text, "aria-hidden": "true" }, symbol),
    h("span", { class: "visually-hidden" }, ` (${m.text})`));
}

const SEAT_ICONS = {  // seat kinds as small line drawings, so they differ by shape as well as by name
  box: ["M4 10h16v9H4z", "M4 10l3-5h10l3 5", "M8 19v-5h8v5"],
  arena: ["M3 13a9 5 0 1 0 18 0a9 5 0 1 0-18 0", "M8 13a4 2 0 1 0 8 0a4 2 0 1 0-8 0"],
  balcony: ["M3 20h18", "M4 20v-4h5v-4h5V8h6", "M4 16h16"],
};
function icon(paths, cls) {
  return svg("svg", { viewBox: "0 0 24 24", class: cls, "aria-hidden": "true", focusable: "false" },
    ...paths.map((d) => svg("path", { d, fill: "none", stroke: "currentColor", "stroke-width": 2, "stroke-linecap": "round",
      "stroke-linejoin": "round" })));
}
function coinIcon() {
  return svg("svg", { viewBox: "0 0 24 24", class: "cm-coin", "aria-hidden": "true", focusable: "false" },
    svg("circle", { cx: 12, cy: 12, r: 8, fill: "#e3b505", stroke: "#8a6d00", "stroke-width": 2 }));
}
const PERSON = ["M12 11a3.5 3.5 0 1 0 0-7a3.5 3.5 0 0 0 0 7z", "M5 21c0-4 3-7 7-7s7 3 7 7"];

// A ticket: its seat kind drawn and named, its venue when the context does not say it, its coins.
function ticket(data, key, withVenue = true) {
  const tk = ticketInfo(data, key);
  const title = tn("{seat} ticket for {venue}: worth {count} coin when sold", "{seat} ticket for {venue}: worth {count} coins when sold",
    tk.coins, { seat: tk.seat_name, venue: theName(data, tk.venue), count: tk.coins });
  return h("span", { class: `cm-ticket v-${tk.venue}`, "data-ticket": key, title },
    icon(SEAT_ICONS[tk.seat] || SEAT_ICONS.box, "cm-seat-icon"),
    h("span", { class: "cm-seat", "data-seat": tk.seat }, tk.seat_name),
    withVenue ? h("span", { class: "cm-venue small" }, venueName(data, tk.venue)) : null,
    h("span", { class: "cm-val" }, n(tk.coins), mark(data, tk, "coins")));
}

function visitor(data, key, bonus = 0) {
  const v = visitorInfo(data, key);
  const title = v.caesar ? t(CAESAR_NOTE)
    : tn("{visitor}: pays {count} coin for a ticket", "{visitor}: pays {count} coins for a ticket", v.coins + bonus,
      { visitor: v.name, count: v.coins + bonus });
  const pays = t("pays {count}", { count: v.coins + bonus });
  const more = bonus ? ` (${isolate(`+${n(bonus)}`)})` : null;
  return h("span", { class: `cm-visitor${v.caesar ? " caesar" : ""}`, "data-visitor": key, title },
    icon(PERSON, "cm-person"), h("span", { class: "cm-name" }, v.name), mark(data, v, "name"),
    v.caesar ? h("span", { class: "small" }, t("buys nothing")) :
      h("span", { class: "cm-pays" }, pays, mark(data, v, "coins"), more ? h("span", { class: "cm-bonus-mark" }, more) : null));
}

// A favour card: name, coins at the end and effect in words; compact (another player's card) keeps
// the effect in its tooltip, the full card is on the Villa and in your own panel.
function favour(data, key, compact = false) {
  const f = favourInfo(data, key);
  const worth = tf("worth {coins} at the end", { coins: h("span", {}, n(f.coins), mark(data, f, "coins")) });
  return h("span", { class: `cm-favour${compact ? " compact" : ""}`, "data-favour": key, title: compact ? f.effect : null },
    h("span", { class: "cm-fav-name" }, f.name),
    h("span", { class: "cm-fav-worth small" }, worth),
    f.effect && !compact ? h("span", { class: "cm-effect" }, f.effect) : null);
}

function shortName(name) { return String(name).length > 7 ? `${String(name).slice(0, 6)}…` : String(name); }

// A trader token: the owner's colour and name, the printed rank, and the rank it counts as when different.
// In a line it is an item of the line's list; anywhere else a picture with the same words.
function token(data, seat, rank, eff, seatName, extra = {}) {
  const changed = eff !== rank;
  const what = changed ? t("{player}'s trader, rank {rank}, counts as {eff} in this line", { player: seatName(seat), rank, eff })
    : t("{player}'s trader, rank {rank}", { player: seatName(seat), rank });
  return h("span", { class: `cm-token c${seat % 5}${changed ? " changed" : ""}${extra.now ? " now" : ""}`,
    "data-seat": seat, "data-rank": rank, "data-eff": eff, role: extra.inList ? "listitem" : "img", "aria-label": what, title: what },
  h("span", { class: "cm-disc" }, h("span", { class: "cm-rank" }, n(rank)),
    changed ? h("span", { class: "cm-eff" }, `→${n(eff)}`) : null),
  h("span", { class: "cm-owner" }, shortName(seatName(seat))),
  extra.now ? h("span", { class: "cm-now-tag" }, t("picking")) : null);
}

// ---------------------------------------------------------------- what is happening, in words
function decision(obs) {
  if (obs.phase === 4) return "over";
  if (obs.phase === 0) return "dealing";
  if (obs.pending_visitor) return "visitor";
  if (obs.resolving) return obs.resolving_line === "villa" ? "villa" : obs.resolving_line === "forum" ? "forum" : "venue";
  return "place";
}

const PHASE_NAMES = { 1: N_("Caesar's favour (the Villa)"), 2: N_("Tickets (the Forum)"), 3: N_("Events (the three venues)") };

function phaseTitle(obs) {
  if (obs.phase === 4) return t("The table at the end of the game");
  if (obs.phase === 0) return t("Day {day} of {days} · dealing the day's cards", { day: obs.day, days: 3 });
  const said = { day: obs.day, days: 3, phase: ROMAN[obs.phase], name: t(PHASE_NAMES[obs.phase]) };
  return obs.resolving ? t("Day {day} of {days} · Phase {phase} of III: {name} · picking in line order", said)
    : t("Day {day} of {days} · Phase {phase} of III: {name} · placing traders", said);
}

// Where a trader may go in each placing phase, as the choice sentence says it.
const PLACE_LINES = {
  1: N_("Caesar's Villa, where the front traders take favour cards"),
  2: N_("the Forum Romanum, where the front traders take tickets"),
  3: N_("one of the three venues, where a trader sells a ticket its owner holds for that venue"),
};

// What the seat to move is choosing now, as a clause for that seat ("your trader 3, ...") or for
// everyone else ("their trader 3, ...").
function choiceClause(data, obs, mine) {
  const kind = decision(obs);
  const picking = obs.resolving ? (obs.lines[lineIndex(data, obs.resolving_line)] || [])[obs.resolving_index] : null;
  let trader;
  if (picking) trader = mine ? t("your trader {rank}", { rank: picking[1] }) : t("their trader {rank}", { rank: picking[1] });
  else trader = mine ? t("your trader") : t("their trader");
  const again = !!obs.second_pick;
  switch (kind) {
    case "visitor": {
      const v = visitorInfo(data, obs.pending_visitor);
      return v.caesar ? t("choose the venue where the drawn visitor, {visitor}, goes.", { visitor: v.name })
        : t("choose the venue where the drawn visitor, a {visitor} (pays {count}), goes.", { visitor: v.name, count: v.coins });
    }
    case "villa": {
      const unchosen = obs.start_card === "instead" && obs.start_card_at_villa;
      if (again) {
        return unchosen ? t("{trader}, at the front of Caesar's Villa, picks a second time (favour card) a favour card or the starting-player card (its holder begins the next phases); if nobody chooses that card, the first trader in line gets it.", { trader })
          : t("{trader}, at the front of Caesar's Villa, picks a second time (favour card) a favour card or the starting-player card (its holder begins the next phases).", { trader });
      }
      return unchosen ? t("{trader}, at the front of Caesar's Villa, picks a favour card or the starting-player card (its holder begins the next phases); if nobody chooses that card, the first trader in line gets it.", { trader })
        : t("{trader}, at the front of Caesar's Villa, picks a favour card or the starting-player card (its holder begins the next phases).", { trader });
    }
    case "forum":
      return again ? t("{trader}, at the front of the Forum Romanum, picks a second time (favour card) one ticket; a ticket earns coins only once it is sold at its venue in phase III.", { trader })
        : t("{trader}, at the front of the Forum Romanum, picks one ticket; a ticket earns coins only once it is sold at its venue in phase III.", { trader });
    case "venue": {
      const venue = theName(data, obs.resolving_line);
      return again ? t("{trader} at {venue} sells a second time (favour card): which ticket for this venue goes to which visitor (the ticket's coins plus what the visitor pays).", { trader, venue })
        : t("{trader} at {venue} sells: which ticket for this venue goes to which visitor (the ticket's coins plus what the visitor pays).", { trader, venue });
    }
    default: break;
  }
  const extra = favourName(data, "extra_trader");
  if (obs.extra_traders) {
    return mine ? t("place your second trader now ({favour} favour card), or end the turn.", { favour: extra })
      : t("place their second trader now ({favour} favour card), or end the turn.", { favour: extra });
  }
  const line = t(PLACE_LINES[obs.phase] || PLACE_LINES[1]);
  return mine ? t("choose a line for your trader: {line} (higher ranks stand further forward), or play a favour card, or pass for the rest of this phase.", { line })
    : t("choose a line for their trader: {line} (higher ranks stand further forward), or play a favour card, or pass for the rest of this phase.", { line });
}

// One sentence: what the seat to move is choosing now, for that seat ("Your turn: ...") and for
// everyone else ("Waiting for Ann: ...").
function choiceSentence(data, obs, you, seatName) {
  const kind = decision(obs);
  if (kind === "over") return t("The game is over: coins from the three days and the favour cards in hand decide.");
  if (kind === "dealing") return t("The day's favour cards, tickets and visitors are being dealt.");
  const seat = obs.to_act[0];
  const mine = you !== null && you !== undefined && obs.to_act.includes(you);
  const choice = choiceClause(data, obs, mine);
  return mine ? t("Your turn: {choice}", { choice }) : t("Waiting for {player}: {choice}", { player: seatName(seat), choice });
}

// ---------------------------------------------------------------- the board
function locationOffer(data, obs, i, seatName) {
  if (i === 0) {
    const cards = (obs.favour_display || []).map((k) => favour(data, k));
    if (obs.start_card_at_villa) {
      cards.push(h("span", { class: "cm-start-card", "data-start-card": "" }, h("span", { class: "cm-fav-name" }, t("Starting-player card")),
        h("span", { class: "cm-effect" }, t("Its taker begins the next phases and the next day."))));
    }
    return cards.length ? cards : [h("span", { class: "muted" }, t("Nothing left to take here."))];
  }
  if (i === 1) {
    const tickets = (obs.forum || []).map((k) => ticket(data, k));
    return tickets.length ? tickets : [h("span", { class: "muted" }, t("No tickets left here."))];
  }
  const v = i - 2;
  const key = lineInfo(data, i).key;
  const bonus = (obs.bonus || [])[v] || 0;
  const kinds = Object.entries(data.tickets || {}).filter(([, tk]) => tk.venue === key);
  const held = [];
  (obs.tickets || []).forEach((list, seat) => list.forEach((tk) => {
    if (ticketInfo(data, tk).venue === key) {
      held.push(h("span", { class: "cm-held" }, h("span", { class: `cm-dot c${seat % 5}`, "aria-hidden": "true" }),
        tf("{player}: {ticket}", { player: seatName(seat), ticket: ticket(data, tk, false) })));
    }
  }));
  const visitors = (obs.venues[v] || []).map((vk) => visitor(data, vk, bonus));
  const event = tn("Special event: every visitor here pays {count} coin more today.",
    "Special event: every visitor here pays {count} coins more today.", bonus, { count: bonus });
  return [
    h("div", { class: "cm-kinds", role: "group", "aria-label": t("Seat kinds of this venue's tickets, with what each is worth") },
      h("span", { class: "small muted" }, t("Tickets:")), kinds.map(([k]) => ticket(data, k, false))),
    bonus ? h("div", { class: "cm-bonus", "data-bonus": bonus }, event) : null,
    h("div", { class: "cm-visitors" }, h("span", { class: "small muted" }, t("Visitors:")),
      visitors.length ? visitors : h("span", { class: "muted" }, t("none"))),
    held.length ? h("div", { class: "cm-held-list" }, h("span", { class: "small muted" }, t("Unsold tickets held:")), held) : null,
  ];
}

function locations(data, obs, seatName) {
  const active = PHASE_LINES[obs.phase] || [];
  const resolvingAt = obs.resolving ? lineIndex(data, obs.resolving_line) : -1;
  return h("div", { class: "lines", id: "lines" }, obs.lines.map((line, i) => {
    const info = lineInfo(data, i);
    const now = active.includes(i);
    const tag = t("Phase {phase}", { phase: i === 0 ? "I" : i === 1 ? "II" : "III" });
    const state = resolvingAt === i ? t("picking now") : obs.resolving ? t("done") : t("this phase");
    return h("div", { class: `cm-loc${now ? " active" : ""}`, "data-line": i, "data-key": info.key },
      h("div", { class: "cm-loc-head" },
        h("h3", {}, info.name),
        h("span", { class: "cm-phase-tag small" }, tag),
        now ? h("span", { class: "cm-now small" }, state) : null),
      h("p", { class: "cm-role small muted" }, info.role),
      h("div", { class: "cm-offer" }, locationOffer(data, obs, i, seatName)),
      h("div", { class: "cm-line-wrap" },
        h("span", { class: "cm-front small muted", "aria-hidden": "true" }, t("front ▸")),
        line.length ? h("div", { class: "cm-line", role: "list", "aria-label": t("Line at {line}, front first", { line: info.name }) },
          line.map(([seat, rank, eff], pos) => token(data, seat, rank, eff, seatName, { inList: true, now: resolvingAt === i && pos === obs.resolving_index })))
          : h("span", { class: "muted small" }, t("no traders in line"))));
  }));
}

let legendOpen = typeof window === "undefined" || window.innerWidth > 600;  // folded on a phone, where space is short
function legend(data, seatName, obs) {
  const owner = () => t("owner");
  const kinds = ["box", "arena", "balcony"].map((s) => {
    const k = Object.keys(data.tickets || {}).find((key) => ticketInfo(data, key).seat === s);
    return k ? ticket(data, k, false) : null;
  });
  const traderNote = t("A trader: the number is its rank ({low}–{high}), the colour and name its owner. Higher ranks join a line further forward; equal ranks queue in arrival order. The line is worked off from the front: each trader gives its owner one pick.", { low: 1, high: 8 });
  const rankNote = t("Rank →{high}: this trader counts as another rank in this line only ({boost} makes a {low} count as {high}; {ahead} takes the overtaken trader's rank). Placed again later, it has its printed rank.",
    { low: 1, high: 8, boost: favourName(data, "rank_boost"), ahead: favourName(data, "move_ahead") });
  const visitorNote = t("A visitor at a venue and the coins he pays; a special event makes every visitor there pay more that day.");
  const coinsNote = t("Coins win the game: each day, sold tickets plus their visitors' pay, plus the coins of traders left in hand; at the end, the favour cards in hand.");
  const box = h("details", { id: "legend", class: "cm-legend", open: legendOpen, ontoggle: (e) => { legendOpen = e.currentTarget.open; } },
    h("summary", {}, t("Legend: how to read the board")),
    h("ul", {},
      h("li", {}, token(data, 0, 5, 5, owner), ` ${traderNote}`),
      h("li", {}, token(data, 0, 1, 8, owner), ` ${rankNote}`),
      h("li", {}, tf("Ticket seat kinds: {tickets} — the number is what the ticket earns when sold; the visitor pays on top.", { tickets: h("span", { class: "cm-kinds-legend" }, kinds) })),
      h("li", {}, visitor(data, "senator"), ` ${visitorNote}`),
      h("li", {}, coins(1), ` ${coinsNote}`),
      h("li", {}, tf("{ours} Our value: the rulebook does not print it, so Ludus chose it. {example} Not printed either, but it follows from the rulebook's scoring example. Point at a mark to see why. How many cards of each kind there are is ours too (the rulebook gives only the totals).", {
        ours: h("span", { class: "cm-ours ours" }, (data.marks || {}).ours || "°"),
        example: h("span", { class: "cm-ours example" }, (data.marks || {}).example || "*") })),
      obs && obs.caesar_variant ? h("li", {}, visitor(data, "caesar"), ` ${t(CAESAR_NOTE)}`) : null));
  return box;
}

function soldLine(data, [what, vis, paid]) {
  const thing = what.startsWith("favour:")
    ? h("span", {}, t("{favour} (favour card as a seat)", { favour: favourName(data, what.slice(7)) })) : ticket(data, what);
  return h("li", {}, thing, ` ${arrow()} `, visitorInfo(data, vis).name, t(": "), coins(paid));
}

function playerPanels(data, obs, seatName, you) {
  return h("div", { id: "players", class: "cm-players" }, obs.hands.map((hand, seat) => {
    const traderCoins = hand.reduce((sum, r) => sum + (((data.traders || [])[r - 1] || {}).coins || 0), 0);
    const sold = (obs.sales || [])[seat] || [];
    const soldCoins = sold.reduce((sum, s) => sum + s[2], 0);
    const toAct = obs.to_act.includes(seat) && obs.phase !== 4;
    const passed = obs.passed && obs.passed[seat] && obs.phase >= 1 && obs.phase <= 3 && !obs.resolving;
    const byDay = obs.day_scores.map((d, i) => t("day {number}: {coins}", { number: i + 1, coins: d[seat] }));
    if (obs.favour_coins) byDay.push(t("favour cards: {coins}", { coins: obs.favour_coins[seat] }));
    const today = tn("Today so far: {count} coin from sales; traders still in hand would add {kept}.",
      "Today so far: {count} coins from sales; traders still in hand would add {kept}.", soldCoins, { count: soldCoins, kept: traderCoins });
    const none = () => h("span", { class: "muted" }, t("none"));
    return h("section", { class: `cm-player c${seat % 5}${seat === you ? " you" : ""}${toAct ? " to-act" : ""}`, "data-seat": seat,
      "aria-label": seat === you ? t("{player} (you)", { player: seatName(seat) }) : seatName(seat) },
    h("h3", {}, h("span", { class: `cm-dot c${seat % 5}`, "aria-hidden": "true" }), seatName(seat),
      h("span", { class: "small muted" }, ` · ${seatColour(data, seat)}`),
      seat === you ? h("span", { class: "badge" }, t("you")) : null,
      obs.starting === seat ? h("span", { class: "badge", title: t("Begins each phase") }, t("starting player")) : null,
      passed ? h("span", { class: "badge off" }, t("passed")) : null,
      toAct ? h("span", { class: "badge cm-to-act" }, t("choosing")) : null),
    h("p", { class: "cm-score" }, coins(obs.scores[seat]),
      byDay.length ? h("span", { class: "small muted" }, ` (${formatList(byDay, "unit")})`) : null),
    obs.phase !== 4 ? h("p", { class: "small muted cm-today" }, today) : null,
    h("div", { class: "cm-row" }, h("span", { class: "cm-label" }, t("Traders in hand")),
      hand.length ? h("span", { class: "cm-hand", role: "list" }, hand.map((r) => {
        const worth = (((data.traders || [])[r - 1] || {}).coins) || 0;
        return h("span", { class: "cm-mini", role: "listitem", title: t("Rank {rank}: earns {coins} if still in hand at scoring", { rank: r, coins: worth }) },
          token(data, seat, r, r, seatName), h("span", { class: "cm-mini-coins small" }, n(worth), mark(data, (data.traders || [])[r - 1], "coins")));
      })) : none()),
    h("div", { class: "cm-row" }, h("span", { class: "cm-label" }, t("Favour cards")),
      (obs.favours[seat] || []).length ? h("span", { class: "cm-favs" }, obs.favours[seat].map((k) => favour(data, k, seat !== you))) : none()),
    h("div", { class: "cm-row" }, h("span", { class: "cm-label" }, t("Tickets")),
      (obs.tickets[seat] || []).length ? h("span", { class: "cm-tks" }, obs.tickets[seat].map((k) => ticket(data, k))) : none()),
    sold.length ? h("div", { class: "cm-row" }, h("span", { class: "cm-label" }, obs.phase === 4 ? t("Sold on day {number}", { number: obs.day }) : t("Sold today")),
      h("ul", { class: "cm-sold" }, sold.map((s) => soldLine(data, s)))) : null);
  }));
}

function board(root, data, obs, seatName, you) {
  const starter = [h("span", { class: `cm-dot c${obs.starting % 5}`, "aria-hidden": "true" }), seatName(obs.starting)];
  let variant = "";
  if (obs.caesar_variant) {
    const said = obs.caesar_used ? t("Caesar variant (his seat has been sold today)") : t("Caesar variant");
    variant = ` · ${said}`;
  }
  replaceChildren(root,
    h("h2", { id: "cm-phase" }, phaseTitle(obs)),
    h("p", { id: "choice", class: "cm-choice" }, choiceSentence(data, obs, you, seatName)),
    obs.pending_visitor ? h("p", { class: "cm-pending" }, tf("Drawn with a favour card, waiting for a venue: {visitor}", { visitor: visitor(data, obs.pending_visitor) })) : null,
    h("p", { class: "small" }, tf("Starting player: {player}", { player: starter }), variant),
    locations(data, obs, seatName),
    legend(data, seatName, obs),
    h("h2", {}, t("Players")),
    playerPanels(data, obs, seatName, you));
}

// ---------------------------------------------------------------- moves
function ticketPhrase(data, key) {
  const tk = ticketInfo(data, key);
  return { venue: venueName(data, tk.venue), seat: seatWord(tk), coins: tk.coins };
}

// A sale's price in words: what the visitor pays, with Ticket→Legionnaire, with the special event.
function paysText(data, a, pays, bonus) {
  const legion = favourName(data, "legionnaire");
  if (a.legion) return bonus ? t("pays {pays} with {favour}, special event +{bonus} included", { pays, favour: legion, bonus })
    : t("pays {pays} with {favour}", { pays, favour: legion });
  return bonus ? t("pays {pays}, special event +{bonus} included", { pays, bonus }) : t("pays {pays}", { pays });
}

function moveText(data, obs, a) {
  if (!a || typeof a !== "object") return null;
  switch (a.type) {
    case "place": {
      const said = { rank: a.rank, line: venueName(data, a.line), high: 8, boost: favourName(data, "rank_boost"), extra: favourName(data, "extra_trader") };
      // the group's title says "to ..."
      if (a.boost && a.extra) return t("Trader {rank} → {line}, counting as {high} ({boost}), then one more trader ({extra})", said);
      if (a.boost) return t("Trader {rank} → {line}, counting as {high} ({boost})", said);
      if (a.extra) return t("Trader {rank} → {line}, then one more trader ({extra})", said);
      return t("Trader {rank} → {line}", said);
    }
    case "pass": return obs && obs.phase === 3 ? t("Pass: no more traders today (all three venues)") : t("Pass: no more traders this phase");
    case "done": return t("End the turn without a second trader");
    case "extra_visitor": return t("Play {favour}: draw a visitor and choose its venue", { favour: favourName(data, "extra_visitor") });
    case "place_visitor": return t("Send the visitor to {venue}", { venue: theName(data, a.venue) });
    case "replay_trader": return t("Play {favour}: trader {rank} leaves its earlier line and joins {line}",
      { favour: favourName(data, "replay_trader"), rank: a.rank, line: theName(data, a.line) });
    case "ticket_and_visitor": return t("Play {favour}: a ticket into your hand, a visitor to its venue", { favour: favourName(data, "ticket_and_visitor") });
    case "move_ahead": return t("Play {favour}: trader {rank} overtakes the trader in front of it", { favour: favourName(data, "move_ahead"), rank: a.rank });
    case "take_favour": {
      const f = favourInfo(data, a.favour);
      return t("Take {favour} (worth {coins} at the end): {effect}", { favour: f.name, coins: f.coins, effect: f.effect });
    }
    case "take_start": return t("Take the starting-player card: you begin the next phases and the next day");
    case "take_ticket": {
      const tk = ticketPhrase(data, a.ticket);
      const said = { ...tk, count: tk.coins, favour: favourName(data, "double_ticket") };
      return a.double ? tn("Take a {venue} {seat} ticket ({count} coin), then a second one ({favour})",
        "Take a {venue} {seat} ticket ({count} coins), then a second one ({favour})", tk.coins, said)
        : tn("Take a {venue} {seat} ticket ({count} coin)", "Take a {venue} {seat} ticket ({count} coins)", tk.coins, said);
    }
    case "sell": {
      const venue = PHASE_LINES[3].indexOf(lineIndex(data, obs ? obs.resolving_line : null));
      const bonus = venue >= 0 ? ((obs && obs.bonus) || [])[venue] || 0 : 0;
      const v = visitorInfo(data, a.visitor);
      const pays = (a.legion ? data.legionnaire_pays : v.coins) + bonus;
      const base = a.ticket ? ticketInfo(data, a.ticket).coins : favourInfo(data, a.favour).coins;
      const what = a.ticket ? t("your {seat} ticket ({coins})", { seat: seatWord(ticketInfo(data, a.ticket)), coins: base })
        : t("your favour card {favour} as a seat beside Caesar ({coins})", { favour: favourName(data, a.favour), coins: base });
      const said = { what, visitor: v.name, pays: paysText(data, a, pays, bonus), count: base + pays, favour: favourName(data, "double_sale") };
      return a.double ? tn("Sell {what} to a {visitor} ({pays}): {count} coin, then sell again ({favour})",
        "Sell {what} to a {visitor} ({pays}): {count} coins, then sell again ({favour})", base + pays, said)
        : tn("Sell {what} to a {visitor} ({pays}): {count} coin", "Sell {what} to a {visitor} ({pays}): {count} coins", base + pays, said);
    }
    case "skip": return t("Sell nothing here");
    default: return null;
  }
}

const GROUPS = {
  boosted: N_("A trader with a favour card"), favour: N_("Play a favour card instead of a trader"),
  villa: N_("Take one card from Caesar's Villa"), forum: N_("Take one ticket from the Forum"), sell: N_("Sell"),
  visitor: N_("Where the visitor goes"), pass: N_("Or pass"), end: N_("Or end your turn"),
};

function moveGroups(data, obs, legal) {
  const groups = new Map();
  const add = (title, m) => { if (!groups.has(title)) groups.set(title, []); groups.get(title).push(m); };
  for (const m of legal) {
    const a = m.action;
    if (a.type === "place" && !a.extra && !a.boost) add(t("Send a trader to {line}", { line: theName(data, a.line) }), m);
    else if (a.type === "place") add(t(GROUPS.boosted), m);
    else if (["extra_visitor", "replay_trader", "ticket_and_visitor", "move_ahead"].includes(a.type)) add(t(GROUPS.favour), m);
    else if (a.type === "take_favour" || a.type === "take_start") add(t(GROUPS.villa), m);
    else if (a.type === "take_ticket") add(t(GROUPS.forum), m);
    else if (a.type === "sell" || a.type === "skip") add(t(GROUPS.sell), m);
    else if (a.type === "place_visitor") add(t(GROUPS.visitor), m);
    else if (a.type === "pass") add(t(GROUPS.pass), m);
    else add(t(GROUPS.end), m);
  }
  return groups;
}

// The label of an action as it would show in English, marked so (lang="en") in another language.
function english(label) {
  return lang === "en" ? label : h("span", { lang: "en", dir: "ltr" }, String(label));
}

function moves(root, ctx) {
  const view = ctx.view;
  if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return true; }
  const obs = view.observation, data = ctx.data;
  root.classList.remove("hidden");
  const groups = moveGroups(data, obs, view.legal);
  replaceChildren(root, h("h2", {}, t("Your move")),
    h("p", { class: "small", id: "move-prompt" }, choiceSentence(data, obs, view.you, ctx.seatName)),
    [...groups.entries()].map(([title, list]) => h("div", { class: "cm-move-group", role: "group", "aria-label": title },
      h("h3", {}, title),
      h("div", { class: "legal-list" }, list.map((m) => {
        const said = moveText(data, obs, m.action);
        const text = said || m.label;
        const plain = m.action.type === "place" && !m.action.extra && !m.action.boost;
        return h("button", { type: "button", class: `move${plain ? " cm-place" : ""}${m.action.type === "pass" ? " secondary" : ""}`,
          disabled: ctx.pending, "aria-label": text, title: text, lang: said || lang === "en" ? null : "en", onclick: () => ctx.act(m.action) },
        plain ? [h("span", { class: `cm-disc c${view.you % 5}`, "aria-hidden": "true" }, h("span", { class: "cm-rank" }, n(m.action.rank))),
          h("span", {}, t("Trader {rank}", { rank: m.action.rank }))] : text);
      })))));
  return true;
}

// ---------------------------------------------------------------- the log
// Day breaks: a day's dealing starts with the favour cards turned up at the Villa, and favour
// cards are turned up at no other time, so a draw_favour after anything else begins a day.
const logCache = { history: null, length: -1, days: [], after: [] };
function annotate(history) {
  if (logCache.history === history && logCache.length === history.length) return logCache;
  const days = [], after = [];
  let day = 0, lastPlay = null;
  history.forEach(([actor, action], i) => {
    const prev = i > 0 ? history[i - 1][1] : null;
    const type = action && action.type;
    if (type === "draw_favour" && !(prev && prev.type === "draw_favour")) { day += 1; days[i] = day; }
    if (actor !== -1 && action && typeof action === "object") lastPlay = type;
    after[i] = lastPlay;  // the latest player's move so far: draws right after a favour card belong to it
  });
  Object.assign(logCache, { history, length: history.length, days, after });
  return logCache;
}

function logLine(entry, ctx, index) {
  const [actor, action, label] = entry;
  const data = ctx.data;
  const info = annotate(ctx.history || []);
  const breakBefore = info.days[index] ? t("Day {number}", { number: info.days[index] }) : null;
  if (action === "hidden" || !action || typeof action !== "object") {
    return { text: action === "hidden" || !label ? null : english(label), breakBefore };
  }
  const player = ctx.seatName(actor);
  const obs = ctx.view && ctx.view.observation;
  const replay = !ctx.act;  // the replay's step line names every step, the day's dealing too
  const marks = [];
  const favourMark = (key) => marks.push({ kind: "favour", label: favourName(data, key) });
  let text = null;
  switch (action.type) {
    case "draw_favour": case "draw_ticket": case "draw_visitor": {
      // the day's dealing is on the board; a draw caused by a favour card is worth a line
      const caused = ["extra_visitor", "ticket_and_visitor"].includes(info.after[index]);
      if (!replay && (action.type === "draw_favour" || !caused)) break;
      if (action.type === "draw_visitor") text = t("A {visitor} is drawn", { visitor: visitorInfo(data, action.visitor).name });
      else if (action.type === "draw_ticket") { const tk = ticketPhrase(data, action.ticket); text = t("A {venue} {seat} ticket is drawn", tk); }
      else text = t("The favour card {favour} is turned up at Caesar's Villa", { favour: favourName(data, action.favour) });
      break;
    }
    case "place":
      text = action.boost ? t("{player} sends trader {rank} to {line}, counting as {high}", { player, rank: action.rank, line: theName(data, action.line), high: 8 })
        : t("{player} sends trader {rank} to {line}", { player, rank: action.rank, line: theName(data, action.line) });
      if (action.boost) favourMark("rank_boost");
      if (action.extra) favourMark("extra_trader");
      break;
    case "pass": text = t("{player} passes", { player }); break;
    case "done": text = t("{player} ends the turn without a second trader", { player }); break;
    case "extra_visitor": text = t("{player} draws a visitor", { player }); favourMark("extra_visitor"); break;
    case "place_visitor": text = t("{player} sends the visitor to {venue}", { player, venue: theName(data, action.venue) }); break;
    case "replay_trader":
      text = t("{player} moves trader {rank} to {line}", { player, rank: action.rank, line: theName(data, action.line) });
      favourMark("replay_trader");
      break;
    case "ticket_and_visitor": text = t("{player} draws a ticket and a visitor", { player }); favourMark("ticket_and_visitor"); break;
    case "move_ahead": text = t("{player}'s trader {rank} overtakes the one in front", { player, rank: action.rank }); favourMark("move_ahead"); break;
    case "take_favour": text = t("{player} takes the favour card {favour}", { player, favour: favourName(data, action.favour) }); break;
    case "take_start": text = t("{player} takes the starting-player card", { player }); marks.push({ kind: "start", label: t("starting player") }); break;
    case "take_ticket": {
      text = t("{player} takes a {venue} {seat} ticket", { player, ...ticketPhrase(data, action.ticket) });
      if (action.double) favourMark("double_ticket");
      break;
    }
    case "sell": {
      const v = visitorInfo(data, action.visitor).name;
      text = action.ticket ? t("{player} sells a {seat} ticket to a {visitor}", { player, seat: seatWord(ticketInfo(data, action.ticket)), visitor: v })
        : t("{player} sells the favour card {favour} as a seat beside Caesar to a {visitor}", { player, favour: favourName(data, action.favour), visitor: v });
      marks.push({ kind: "sale", label: t("sold") });
      if (action.legion) favourMark("legionnaire");
      if (action.double) favourMark("double_sale");
      break;
    }
    case "skip": text = t("{player} sells nothing here", { player }); break;
    default: {
      const said = moveText(data, obs, action);
      if (said) text = actor === -1 ? said : t("{player}: {move}", { player, move: said });
      else if (label) text = actor === -1 ? english(label) : tf("{player}: {move}", { player, move: english(label) });
      if (Array.isArray(text)) text = h("span", {}, text);
    }
  }
  return { text, marks, breakBefore };
}

// ---------------------------------------------------------------- summaries
function earnings(data, obs, d, seatName) {
  const sales = obs.past_sales[d] || [];
  return h("table", { class: "plain cm-day-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")), h("th", { scope: "col" }, t("Sold")),
      h("th", { scope: "col" }, t("Traders kept")), h("th", { scope: "col" }, t("Day {number}", { number: d + 1 })))),
    h("tbody", {}, obs.day_scores[d].map((total, seat) => {
      const sold = sales[seat] || [];
      const soldCoins = sold.reduce((sum, s) => sum + s[2], 0);
      return h("tr", { "data-seat": seat },
        h("th", { scope: "row" }, h("span", { class: "cm-who" }, h("span", { class: `cm-dot c${seat % 5}`, "aria-hidden": "true" }), h("span", {}, seatName(seat)))),
        h("td", {}, sold.length ? h("ul", { class: "cm-sold" }, sold.map((s) => soldLine(data, s))) : t("nothing")),
        h("td", {}, n(total - soldCoins)),
        h("td", { class: "cm-day-total" }, n(total)));
    })));
}

function daySummaryBody(data, obs, d, seatName) {
  const scores = obs.day_scores[d];
  const best = Math.max(...scores);
  const top = scores.map((s, seat) => [s, seat]).filter(([s]) => s === best).map(([, seat]) => seatName(seat));
  const running = scores.map((_, seat) => obs.day_scores.slice(0, d + 1).reduce((sum, day) => sum + day[seat], 0));
  const players = lang === "en" ? top.join(" and ") : formatList(top);
  const leader = tn("{players} earned the most on day {day}: {count} coin.", "{players} earned the most on day {day}: {count} coins.",
    best, { players, day: d + 1, count: best });
  const list = running.map((c, seat) => t("{player} {coins}", { player: seatName(seat), coins: c })).join(" · ");
  return h("div", { class: "cm-day-summary", "data-day": d + 1 },
    h("p", { class: "leader" }, leader),
    earnings(data, obs, d, seatName),
    h("p", { class: "small" }, t("Coins so far: {list}.", { list })),
    h("p", { class: "small muted" }, t("A day earns the sold tickets' coins plus what their visitors paid, and the coins printed on traders left in hand. Unsold tickets earn nothing.")));
}

function summaries(ctx) {
  const view = ctx.view;
  if (!view) return [];
  const obs = view.observation;
  const out = [];
  obs.day_scores.forEach((_, d) => {
    if (view.terminal && d === obs.day_scores.length - 1) return;  // the last day is part of the game-over summary
    out.push({ id: `day-${d + 1}`, title: t("Day {number} is over: who earned what", { number: d + 1 }), body: daySummaryBody(ctx.data, obs, d, ctx.seatName) });
  });
  return out;
}

function summary(root, ctx) {
  const obs = ctx.view.observation, data = ctx.data;
  const last = obs.day_scores.length - 1;
  replaceChildren(root, h("h2", {}, t("Game over")),
    h("table", { class: "plain cm-final", id: "cm-final" },
      h("caption", { class: "small muted" }, t("Coins by day, and the favour cards left in hand at the end")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Player")),
        obs.day_scores.map((_, d) => h("th", { scope: "col" }, t("Day {number}", { number: d + 1 }))),
        h("th", { scope: "col" }, t("Favour cards")), h("th", { scope: "col" }, t("Total")))),
      h("tbody", {}, obs.scores.map((total, seat) => h("tr", {},
        h("th", { scope: "row" }, h("span", { class: "cm-who" }, h("span", { class: `cm-dot c${seat % 5}`, "aria-hidden": "true" }), h("span", {}, ctx.seatName(seat)))),
        obs.day_scores.map((d) => h("td", {}, n(d[seat]))),
        h("td", {}, obs.favour_coins ? n(obs.favour_coins[seat]) : "—"),
        h("td", {}, h("strong", {}, n(total))))))),
    last >= 0 ? h("details", { class: "cm-last-day" }, h("summary", {}, t("Day {number}: who earned what", { number: last + 1 })),
      earnings(data, obs, last, ctx.seatName)) : null);
  return true;
}

export default {
  board(root, ctx) {
    const focused = document.activeElement && root.contains(document.activeElement) && document.activeElement.id;
    board(root, ctx.data, ctx.view.observation, ctx.seatName, ctx.view.you);
    if (focused) { const again = document.getElementById(focused); if (again) again.focus(); }
  },
  frame(root, obs, ctx) { board(root, ctx.data, obs, ctx.seatName, null); },
  moves,
  // A move in words for the table's hint box, forced-move note and any list of moves (the
  // server's label is English): as the move buttons say it.
  moveLabel(move, ctx) {
    const obs = ctx && ctx.view ? ctx.view.observation : null;
    return moveText((ctx && ctx.data) || {}, obs, move && move.action) || move.label;
  },
  focusMoves() {
    const active = document.activeElement;
    if (active && active !== document.body && active.closest && active.closest("#moves")) return;
    const first = document.querySelector("#moves button.move:enabled");
    if (first && (!active || active === document.body)) first.focus();
  },
  logLine,
  summaries,
  summary,
};
