// Circus Maximus: a drawn board. The five locations (Caesar's Villa, the Forum Romanum and the
// three venues) each with what lies there and the line of trader tokens queued beside it, front
// first; a legend; a panel per player; the day, the phase and what the current choice means in
// one sentence; moves grouped and labelled in words; day summaries and a readable log.
// Everything here is public in this game; the page shows only what the server sends.
import { h, replaceChildren, svg } from "/static/common.js";

const PHASE_LINES = { 1: [0], 2: [1], 3: [2, 3, 4] };
const ROMAN = ["", "I", "II", "III"];
const CAESAR_NOTE = "Caesar buys nothing; while he is at a venue, the first trader there may sell a favour card as a seat beside him.";

// ---------------------------------------------------------------- small pieces
function seatColour(data, seat) { return ((data.colours || [])[seat] || `Player ${seat + 1}`); }
function lineInfo(data, i) { return (data.lines || [])[i] || { key: `line${i}`, name: `Line ${i + 1}`, role: "" }; }
function lineIndex(data, key) { return (data.lines || []).findIndex((l) => l.key === key); }
function venueName(data, key) { const l = (data.lines || []).find((x) => x.key === key); return l ? l.name : key; }
// "to Caesar's Villa", "to the Colosseum": the villa's name already says whose it is
function theName(data, key) { return key === "villa" ? venueName(data, key) : `the ${venueName(data, key)}`; }
function ticketInfo(data, key) {
  const t = (data.tickets || {})[key];
  if (t) return t;
  const [venue, seat] = String(key).split(":");
  return { venue, seat: seat || "", seat_name: (seat || "ticket").replace(/^./, (c) => c.toUpperCase()), coins: 0, marks: {} };
}
function visitorInfo(data, key) { return (data.visitors || {})[key] || { name: key, coins: 0, caesar: false, marks: {} }; }
function favourInfo(data, key) { return (data.favours || {})[key] || { name: key, coins: 0, effect: "", marks: {} }; }
function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }
function coins(n) { return h("span", { class: "cm-coins" }, coinIcon(), plural(n, "coin")); }
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
  const t = ticketInfo(data, key);
  return h("span", { class: `cm-ticket v-${t.venue}`, "data-ticket": key,
    title: `${t.seat_name} ticket for the ${venueName(data, t.venue)}: worth ${plural(t.coins, "coin")} when sold` },
  icon(SEAT_ICONS[t.seat] || SEAT_ICONS.box, "cm-seat-icon"),
  h("span", { class: "cm-seat", "data-seat": t.seat }, t.seat_name),
  withVenue ? h("span", { class: "cm-venue small" }, venueName(data, t.venue)) : null,
  h("span", { class: "cm-val" }, `${t.coins}`, mark(data, t, "coins")));
}

function visitor(data, key, bonus = 0) {
  const v = visitorInfo(data, key);
  return h("span", { class: `cm-visitor${v.caesar ? " caesar" : ""}`, "data-visitor": key,
    title: v.caesar ? CAESAR_NOTE : `${v.name}: pays ${plural(v.coins + bonus, "coin")} for a ticket` },
  icon(PERSON, "cm-person"), h("span", { class: "cm-name" }, v.name), mark(data, v, "name"),
  v.caesar ? h("span", { class: "small" }, "buys nothing") :
    h("span", { class: "cm-pays" }, `pays ${v.coins + bonus}`, mark(data, v, "coins"), bonus ? h("span", { class: "cm-bonus-mark" }, ` (+${bonus})`) : null));
}

// A favour card: name, coins at the end and effect in words; compact (another player's card) keeps
// the effect in its tooltip, the full card is on the Villa and in your own panel.
function favour(data, key, compact = false) {
  const f = favourInfo(data, key);
  return h("span", { class: `cm-favour${compact ? " compact" : ""}`, "data-favour": key, title: compact ? f.effect : null },
    h("span", { class: "cm-fav-name" }, f.name),
    h("span", { class: "cm-fav-worth small" }, `worth ${f.coins}`, mark(data, f, "coins"), " at the end"),
    f.effect && !compact ? h("span", { class: "cm-effect" }, f.effect) : null);
}

function shortName(name) { return String(name).length > 7 ? `${String(name).slice(0, 6)}…` : String(name); }

// A trader token: the owner's colour and name, the printed rank, and the rank it counts as when different.
// In a line it is an item of the line's list; anywhere else a picture with the same words.
function token(data, seat, rank, eff, seatName, extra = {}) {
  const changed = eff !== rank;
  const what = `${seatName(seat)}'s trader, rank ${rank}${changed ? `, counts as ${eff} in this line` : ""}`;
  return h("span", { class: `cm-token c${seat % 5}${changed ? " changed" : ""}${extra.now ? " now" : ""}`,
    "data-seat": seat, "data-rank": rank, "data-eff": eff, role: extra.inList ? "listitem" : "img", "aria-label": what, title: what },
  h("span", { class: "cm-disc" }, h("span", { class: "cm-rank" }, String(rank)),
    changed ? h("span", { class: "cm-eff" }, `→${eff}`) : null),
  h("span", { class: "cm-owner" }, shortName(seatName(seat))),
  extra.now ? h("span", { class: "cm-now-tag" }, "picking") : null);
}

// ---------------------------------------------------------------- what is happening, in words
function decision(obs) {
  if (obs.phase === 4) return "over";
  if (obs.phase === 0) return "dealing";
  if (obs.pending_visitor) return "visitor";
  if (obs.resolving) return obs.resolving_line === "villa" ? "villa" : obs.resolving_line === "forum" ? "forum" : "venue";
  return "place";
}

function phaseTitle(obs) {
  if (obs.phase === 4) return "The table at the end of the game";
  if (obs.phase === 0) return `Day ${obs.day} of 3 · dealing the day's cards`;
  const names = { 1: "Caesar's favour (the Villa)", 2: "Tickets (the Forum)", 3: "Events (the three venues)" };
  return `Day ${obs.day} of 3 · Phase ${ROMAN[obs.phase]} of III: ${names[obs.phase]}${obs.resolving ? " · picking in line order" : " · placing traders"}`;
}

// One sentence: what the seat to move is choosing now, for that seat ("Your turn: ...") and for
// everyone else ("Waiting for Ann: ...").
function choiceSentence(data, obs, you, seatName) {
  const kind = decision(obs);
  if (kind === "over") return "The game is over: coins from the three days and the favour cards in hand decide.";
  if (kind === "dealing") return "The day's favour cards, tickets and visitors are being dealt.";
  const seat = obs.to_act[0];
  const mine = you !== null && you !== undefined && obs.to_act.includes(you);
  const lead = mine ? "Your turn: " : `Waiting for ${seatName(seat)}: `;
  const their = mine ? "your" : "their";
  const picking = obs.resolving ? (obs.lines[lineIndex(data, obs.resolving_line)] || [])[obs.resolving_index] : null;
  const trader = picking ? `${their} trader ${picking[1]}` : `${their} trader`;
  const again = obs.second_pick ? " a second time (favour card)" : "";
  switch (kind) {
    case "visitor": {
      const v = visitorInfo(data, obs.pending_visitor);
      return `${lead}choose the venue where the drawn visitor, ${v.caesar ? "Caesar" : `a ${v.name} (pays ${v.coins})`}, goes.`;
    }
    case "villa":
      return `${lead}${trader}, at the front of Caesar's Villa, picks${again} a favour card or the starting-player card (its holder begins the next phases)${obs.start_card === "instead" && obs.start_card_at_villa ? "; if nobody chooses that card, the first trader in line gets it" : ""}.`;
    case "forum":
      return `${lead}${trader}, at the front of the Forum Romanum, picks${again} one ticket; a ticket earns coins only once it is sold at its venue in phase III.`;
    case "venue":
      return `${lead}${trader} at the ${venueName(data, obs.resolving_line)} sells${again}: which ticket for this venue goes to which visitor (the ticket's coins plus what the visitor pays).`;
    default: break;
  }
  if (obs.extra_traders) return `${lead}place ${their} second trader now (+Trader favour card), or end the turn.`;
  const line = { 1: "Caesar's Villa, where the front traders take favour cards", 2: "the Forum Romanum, where the front traders take tickets",
    3: "one of the three venues, where a trader sells a ticket its owner holds for that venue" }[obs.phase];
  return `${lead}choose a line for ${their} trader: ${line} (higher ranks stand further forward), or play a favour card, or pass for the rest of this phase.`;
}

// ---------------------------------------------------------------- the board
function locationOffer(data, obs, i, seatName) {
  if (i === 0) {
    const cards = (obs.favour_display || []).map((k) => favour(data, k));
    if (obs.start_card_at_villa) {
      cards.push(h("span", { class: "cm-start-card", "data-start-card": "" }, h("span", { class: "cm-fav-name" }, "Starting-player card"),
        h("span", { class: "cm-effect" }, "Its taker begins the next phases and the next day.")));
    }
    return cards.length ? cards : [h("span", { class: "muted" }, "Nothing left to take here.")];
  }
  if (i === 1) {
    const tickets = (obs.forum || []).map((k) => ticket(data, k));
    return tickets.length ? tickets : [h("span", { class: "muted" }, "No tickets left here.")];
  }
  const v = i - 2;
  const key = lineInfo(data, i).key;
  const bonus = (obs.bonus || [])[v] || 0;
  const kinds = Object.entries(data.tickets || {}).filter(([, t]) => t.venue === key);
  const held = [];
  (obs.tickets || []).forEach((list, seat) => list.forEach((tk) => {
    if (ticketInfo(data, tk).venue === key) held.push(h("span", { class: "cm-held" }, h("span", { class: `cm-dot c${seat % 5}`, "aria-hidden": "true" }), `${seatName(seat)}: `, ticket(data, tk, false)));
  }));
  const visitors = (obs.venues[v] || []).map((vk) => visitor(data, vk, bonus));
  return [
    h("div", { class: "cm-kinds", role: "group", "aria-label": "Seat kinds of this venue's tickets, with what each is worth" },
      h("span", { class: "small muted" }, "Tickets:"), kinds.map(([k]) => ticket(data, k, false))),
    bonus ? h("div", { class: "cm-bonus", "data-bonus": bonus }, `Special event: every visitor here pays ${plural(bonus, "coin")} more today.`) : null,
    h("div", { class: "cm-visitors" }, h("span", { class: "small muted" }, "Visitors:"),
      visitors.length ? visitors : h("span", { class: "muted" }, "none")),
    held.length ? h("div", { class: "cm-held-list" }, h("span", { class: "small muted" }, "Unsold tickets held:"), held) : null,
  ];
}

function locations(data, obs, seatName) {
  const active = PHASE_LINES[obs.phase] || [];
  const resolvingAt = obs.resolving ? lineIndex(data, obs.resolving_line) : -1;
  return h("div", { class: "lines", id: "lines" }, obs.lines.map((line, i) => {
    const info = lineInfo(data, i);
    const now = active.includes(i);
    return h("div", { class: `cm-loc${now ? " active" : ""}`, "data-line": i, "data-key": info.key },
      h("div", { class: "cm-loc-head" },
        h("h3", {}, info.name),
        h("span", { class: "cm-phase-tag small" }, i === 0 ? "Phase I" : i === 1 ? "Phase II" : "Phase III"),
        now ? h("span", { class: "cm-now small" }, resolvingAt === i ? "picking now" : obs.resolving ? "done" : "this phase") : null),
      h("p", { class: "cm-role small muted" }, info.role),
      h("div", { class: "cm-offer" }, locationOffer(data, obs, i, seatName)),
      h("div", { class: "cm-line-wrap" },
        h("span", { class: "cm-front small muted", "aria-hidden": "true" }, "front ▸"),
        line.length ? h("div", { class: "cm-line", role: "list", "aria-label": `Line at ${info.name}, front first` },
          line.map(([seat, rank, eff], pos) => token(data, seat, rank, eff, seatName, { inList: true, now: resolvingAt === i && pos === obs.resolving_index })))
          : h("span", { class: "muted small" }, "no traders in line")));
  }));
}

let legendOpen = typeof window === "undefined" || window.innerWidth > 600;  // folded on a phone, where space is short
function legend(data, seatName, obs) {
  const box = h("details", { id: "legend", class: "cm-legend", open: legendOpen, ontoggle: (e) => { legendOpen = e.currentTarget.open; } },
    h("summary", {}, "Legend: how to read the board"),
    h("ul", {},
      h("li", {}, token(data, 0, 5, 5, () => "owner"), " A trader: the number is its rank (1–8), the colour and name its owner. Higher ranks join a line further forward; equal ranks queue in arrival order. The line is worked off from the front: each trader gives its owner one pick."),
      h("li", {}, token(data, 0, 1, 8, () => "owner"), " Rank →8: this trader counts as another rank in this line only (Rank 1→8 makes a 1 count as 8; ← Trader takes the overtaken trader's rank). Placed again later, it has its printed rank."),
      h("li", {}, "Ticket seat kinds: ", ["box", "arena", "balcony"].map((s) => {
        const k = Object.keys(data.tickets || {}).find((key) => ticketInfo(data, key).seat === s);
        return k ? ticket(data, k, false) : null;
      }), " — the number is what the ticket earns when sold; the visitor pays on top."),
      h("li", {}, visitor(data, "senator"), " A visitor at a venue and the coins he pays; a special event makes every visitor there pay more that day."),
      h("li", {}, coins(1), " Coins win the game: each day, sold tickets plus their visitors' pay, plus the coins of traders left in hand; at the end, the favour cards in hand."),
      h("li", {}, h("span", { class: "cm-ours ours" }, (data.marks || {}).ours || "°"), " Our value: the rulebook does not print it, so Ludus chose it. ",
        h("span", { class: "cm-ours example" }, (data.marks || {}).example || "*"), " Not printed either, but it follows from the rulebook's scoring example. Point at a mark to see why. How many cards of each kind there are is ours too (the rulebook gives only the totals)."),
      obs && obs.caesar_variant ? h("li", {}, visitor(data, "caesar"), ` ${CAESAR_NOTE}`) : null));
  return box;
}

function soldLine(data, [what, vis, paid]) {
  const thing = what.startsWith("favour:") ? h("span", {}, favourInfo(data, what.slice(7)).name, " (favour card as a seat)") : ticket(data, what);
  return h("li", {}, thing, " → ", visitorInfo(data, vis).name, ": ", coins(paid));
}

function playerPanels(data, obs, seatName, you) {
  return h("div", { id: "players", class: "cm-players" }, obs.hands.map((hand, seat) => {
    const traderCoins = hand.reduce((sum, r) => sum + (((data.traders || [])[r - 1] || {}).coins || 0), 0);
    const sold = (obs.sales || [])[seat] || [];
    const soldCoins = sold.reduce((sum, s) => sum + s[2], 0);
    const toAct = obs.to_act.includes(seat) && obs.phase !== 4;
    const passed = obs.passed && obs.passed[seat] && obs.phase >= 1 && obs.phase <= 3 && !obs.resolving;
    return h("section", { class: `cm-player c${seat % 5}${seat === you ? " you" : ""}${toAct ? " to-act" : ""}`, "data-seat": seat,
      "aria-label": `${seatName(seat)}${seat === you ? " (you)" : ""}` },
    h("h3", {}, h("span", { class: `cm-dot c${seat % 5}`, "aria-hidden": "true" }), seatName(seat),
      h("span", { class: "small muted" }, ` · ${seatColour(data, seat)}`),
      seat === you ? h("span", { class: "badge" }, "you") : null,
      obs.starting === seat ? h("span", { class: "badge", title: "Begins each phase" }, "starting player") : null,
      passed ? h("span", { class: "badge off" }, "passed") : null,
      toAct ? h("span", { class: "badge cm-to-act" }, "choosing") : null),
    h("p", { class: "cm-score" }, coins(obs.scores[seat]),
      obs.day_scores.length ? h("span", { class: "small muted" }, ` (${obs.day_scores.map((d, i) => `day ${i + 1}: ${d[seat]}`).join(", ")}${obs.favour_coins ? `, favour cards: ${obs.favour_coins[seat]}` : ""})`) : null),
    obs.phase !== 4 ? h("p", { class: "small muted cm-today" }, `Today so far: ${plural(soldCoins, "coin")} from sales; traders still in hand would add ${traderCoins}.`) : null,
    h("div", { class: "cm-row" }, h("span", { class: "cm-label" }, "Traders in hand"),
      hand.length ? h("span", { class: "cm-hand", role: "list" }, hand.map((r) => h("span", { class: "cm-mini", role: "listitem",
        title: `Rank ${r}: earns ${(((data.traders || [])[r - 1] || {}).coins) || 0} if still in hand at scoring` },
      token(data, seat, r, r, seatName), h("span", { class: "cm-mini-coins small" }, `${(((data.traders || [])[r - 1] || {}).coins) || 0}`, mark(data, (data.traders || [])[r - 1], "coins")))))
        : h("span", { class: "muted" }, "none")),
    h("div", { class: "cm-row" }, h("span", { class: "cm-label" }, "Favour cards"),
      (obs.favours[seat] || []).length ? h("span", { class: "cm-favs" }, obs.favours[seat].map((k) => favour(data, k, seat !== you))) : h("span", { class: "muted" }, "none")),
    h("div", { class: "cm-row" }, h("span", { class: "cm-label" }, "Tickets"),
      (obs.tickets[seat] || []).length ? h("span", { class: "cm-tks" }, obs.tickets[seat].map((k) => ticket(data, k))) : h("span", { class: "muted" }, "none")),
    sold.length ? h("div", { class: "cm-row" }, h("span", { class: "cm-label" }, obs.phase === 4 ? `Sold on day ${obs.day}` : "Sold today"), h("ul", { class: "cm-sold" }, sold.map((s) => soldLine(data, s)))) : null);
  }));
}

function board(root, data, obs, seatName, you) {
  replaceChildren(root,
    h("h2", { id: "cm-phase" }, phaseTitle(obs)),
    h("p", { id: "choice", class: "cm-choice" }, choiceSentence(data, obs, you, seatName)),
    obs.pending_visitor ? h("p", { class: "cm-pending" }, "Drawn with a favour card, waiting for a venue: ", visitor(data, obs.pending_visitor)) : null,
    h("p", { class: "small" }, "Starting player: ", h("span", { class: `cm-dot c${obs.starting % 5}`, "aria-hidden": "true" }), seatName(obs.starting),
      obs.caesar_variant ? ` · Caesar variant${obs.caesar_used ? " (his seat has been sold today)" : ""}` : ""),
    locations(data, obs, seatName),
    legend(data, seatName, obs),
    h("h2", {}, "Players"),
    playerPanels(data, obs, seatName, you));
}

// ---------------------------------------------------------------- moves
function moveText(data, obs, a) {
  switch (a.type) {
    case "place": {
      const where = venueName(data, a.line);
      let text = `Trader ${a.rank} → ${where}`;  // the group's title says "to ..."
      if (a.boost) text += ", counting as 8 (Rank 1→8)";
      if (a.extra) text += ", then one more trader (+Trader)";
      return text;
    }
    case "pass": return obs.phase === 3 ? "Pass: no more traders today (all three venues)" : "Pass: no more traders this phase";
    case "done": return "End the turn without a second trader";
    case "extra_visitor": return "Play +Visitor: draw a visitor and choose its venue";
    case "place_visitor": return `Send the visitor to the ${venueName(data, a.venue)}`;
    case "replay_trader": return `Play ↓ Trader: trader ${a.rank} leaves its earlier line and joins ${theName(data, a.line)}`;
    case "ticket_and_visitor": return "Play II +Ticket +Visitor: a ticket into your hand, a visitor to its venue";
    case "move_ahead": return `Play ← Trader: trader ${a.rank} overtakes the trader in front of it`;
    case "take_favour": { const f = favourInfo(data, a.favour); return `Take ${f.name} (worth ${f.coins} at the end): ${f.effect}`; }
    case "take_start": return "Take the starting-player card: you begin the next phases and the next day";
    case "take_ticket": {
      const t = ticketInfo(data, a.ticket);
      return `Take a ${venueName(data, t.venue)} ${t.seat_name} ticket (${plural(t.coins, "coin")})${a.double ? ", then a second one (II +Ticket)" : ""}`;
    }
    case "sell": {
      const venue = PHASE_LINES[3].indexOf(lineIndex(data, obs.resolving_line));
      const bonus = venue >= 0 ? (obs.bonus || [])[venue] || 0 : 0;
      const v = visitorInfo(data, a.visitor);
      const pays = (a.legion ? data.legionnaire_pays : v.coins) + bonus;
      const base = a.ticket ? ticketInfo(data, a.ticket).coins : favourInfo(data, a.favour).coins;
      const what = a.ticket ? `your ${ticketInfo(data, a.ticket).seat_name} ticket (${base})` : `your favour card ${favourInfo(data, a.favour).name} as a seat beside Caesar (${base})`;
      let text = `Sell ${what} to a ${v.name} (pays ${pays}${a.legion ? " with Ticket→Legionnaire" : ""}${bonus ? `, special event +${bonus} included` : ""}): ${plural(base + pays, "coin")}`;
      if (a.double) text += ", then sell again (III +Ticket)";
      return text;
    }
    case "skip": return "Sell nothing here";
    default: return null;
  }
}

function moveGroups(data, obs, legal) {
  const groups = new Map();
  const add = (title, m) => { if (!groups.has(title)) groups.set(title, []); groups.get(title).push(m); };
  for (const m of legal) {
    const a = m.action;
    if (a.type === "place" && !a.extra && !a.boost) add(`Send a trader to ${theName(data, a.line)}`, m);
    else if (a.type === "place") add("A trader with a favour card", m);
    else if (["extra_visitor", "replay_trader", "ticket_and_visitor", "move_ahead"].includes(a.type)) add("Play a favour card instead of a trader", m);
    else if (a.type === "take_favour" || a.type === "take_start") add("Take one card from Caesar's Villa", m);
    else if (a.type === "take_ticket") add("Take one ticket from the Forum", m);
    else if (a.type === "sell" || a.type === "skip") add("Sell", m);
    else if (a.type === "place_visitor") add("Where the visitor goes", m);
    else if (a.type === "pass") add("Or pass", m);
    else add("Or end your turn", m);
  }
  return groups;
}

function moves(root, ctx) {
  const view = ctx.view;
  if (view.you === null || !view.legal.length) { replaceChildren(root); root.classList.add("hidden"); return true; }
  const obs = view.observation, data = ctx.data;
  root.classList.remove("hidden");
  const groups = moveGroups(data, obs, view.legal);
  replaceChildren(root, h("h2", {}, "Your move"),
    h("p", { class: "small", id: "move-prompt" }, choiceSentence(data, obs, view.you, ctx.seatName)),
    [...groups.entries()].map(([title, list]) => h("div", { class: "cm-move-group", role: "group", "aria-label": title },
      h("h3", {}, title),
      h("div", { class: "legal-list" }, list.map((m) => {
        const text = moveText(data, obs, m.action) || m.label;
        const plain = m.action.type === "place" && !m.action.extra && !m.action.boost;
        return h("button", { type: "button", class: `move${plain ? " cm-place" : ""}${m.action.type === "pass" ? " secondary" : ""}`,
          disabled: ctx.pending, "aria-label": text, title: text, onclick: () => ctx.act(m.action) },
        plain ? [h("span", { class: `cm-disc c${view.you % 5}`, "aria-hidden": "true" }, h("span", { class: "cm-rank" }, String(m.action.rank))),
          h("span", {}, `Trader ${m.action.rank}`)] : text);
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
  const breakBefore = info.days[index] ? `Day ${info.days[index]}` : null;
  if (action === "hidden" || !action || typeof action !== "object") return { text: action === "hidden" ? null : label, breakBefore };
  const who = ctx.seatName(actor);
  const marks = [];
  let text = null;
  switch (action.type) {
    case "draw_favour": case "draw_ticket": case "draw_visitor": {
      // the day's dealing is on the board; a draw caused by a favour card is worth a line
      if (action.type === "draw_favour" || !["extra_visitor", "ticket_and_visitor"].includes(info.after[index])) break;
      if (action.type === "draw_visitor") text = `A ${visitorInfo(data, action.visitor).name} is drawn`;
      else if (action.type === "draw_ticket") { const t = ticketInfo(data, action.ticket); text = `A ${venueName(data, t.venue)} ${t.seat_name} ticket is drawn`; }
      break;
    }
    case "place":
      text = `${who} sends trader ${action.rank} to ${theName(data, action.line)}${action.boost ? ", counting as 8" : ""}`;
      if (action.boost) marks.push({ kind: "favour", label: "Rank 1→8" });
      if (action.extra) marks.push({ kind: "favour", label: "+Trader" });
      break;
    case "pass": text = `${who} passes`; break;
    case "done": text = `${who} ends the turn without a second trader`; break;
    case "extra_visitor": text = `${who} draws a visitor`; marks.push({ kind: "favour", label: "+Visitor" }); break;
    case "place_visitor": text = `${who} sends the visitor to the ${venueName(data, action.venue)}`; break;
    case "replay_trader": text = `${who} moves trader ${action.rank} to ${theName(data, action.line)}`; marks.push({ kind: "favour", label: "↓ Trader" }); break;
    case "ticket_and_visitor": text = `${who} draws a ticket and a visitor`; marks.push({ kind: "favour", label: "II +Ticket +Visitor" }); break;
    case "move_ahead": text = `${who}'s trader ${action.rank} overtakes the one in front`; marks.push({ kind: "favour", label: "← Trader" }); break;
    case "take_favour": text = `${who} takes the favour card ${favourInfo(data, action.favour).name}`; break;
    case "take_start": text = `${who} takes the starting-player card`; marks.push({ kind: "start", label: "starting player" }); break;
    case "take_ticket": {
      const t = ticketInfo(data, action.ticket);
      text = `${who} takes a ${venueName(data, t.venue)} ${t.seat_name} ticket`;
      if (action.double) marks.push({ kind: "favour", label: "II +Ticket" });
      break;
    }
    case "sell": {
      const v = visitorInfo(data, action.visitor).name;
      text = action.ticket ? `${who} sells a ${ticketInfo(data, action.ticket).seat_name} ticket to a ${v}`
        : `${who} sells the favour card ${favourInfo(data, action.favour).name} as a seat beside Caesar to a ${v}`;
      marks.push({ kind: "sale", label: "sold" });
      if (action.legion) marks.push({ kind: "favour", label: "Ticket→Legionnaire" });
      if (action.double) marks.push({ kind: "favour", label: "III +Ticket" });
      break;
    }
    case "skip": text = `${who} sells nothing here`; break;
    default: text = actor === -1 ? label : `${who}: ${label}`;
  }
  return { text, marks, breakBefore };
}

// ---------------------------------------------------------------- summaries
function earnings(data, obs, d, seatName) {
  const sales = obs.past_sales[d] || [];
  return h("table", { class: "plain cm-day-table" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Sold"),
      h("th", { scope: "col" }, "Traders kept"), h("th", { scope: "col" }, `Day ${d + 1}`))),
    h("tbody", {}, obs.day_scores[d].map((total, seat) => {
      const sold = sales[seat] || [];
      const soldCoins = sold.reduce((sum, s) => sum + s[2], 0);
      return h("tr", { "data-seat": seat },
        h("th", { scope: "row" }, h("span", { class: "cm-who" }, h("span", { class: `cm-dot c${seat % 5}`, "aria-hidden": "true" }), h("span", {}, seatName(seat)))),
        h("td", {}, sold.length ? h("ul", { class: "cm-sold" }, sold.map((s) => soldLine(data, s))) : "nothing"),
        h("td", {}, `${total - soldCoins}`),
        h("td", { class: "cm-day-total" }, `${total}`));
    })));
}

function daySummaryBody(data, obs, d, seatName) {
  const scores = obs.day_scores[d];
  const best = Math.max(...scores);
  const top = scores.map((s, seat) => [s, seat]).filter(([s]) => s === best).map(([, seat]) => seatName(seat));
  const running = scores.map((_, seat) => obs.day_scores.slice(0, d + 1).reduce((sum, day) => sum + day[seat], 0));
  return h("div", { class: "cm-day-summary", "data-day": d + 1 },
    h("p", { class: "leader" }, `${top.join(" and ")} earned the most on day ${d + 1}: ${plural(best, "coin")}.`),
    earnings(data, obs, d, seatName),
    h("p", { class: "small" }, "Coins so far: ", running.map((c, seat) => `${seatName(seat)} ${c}`).join(" · "), "."),
    h("p", { class: "small muted" }, "A day earns the sold tickets' coins plus what their visitors paid, and the coins printed on traders left in hand. Unsold tickets earn nothing."));
}

function summaries(ctx) {
  const view = ctx.view;
  if (!view) return [];
  const obs = view.observation;
  const out = [];
  obs.day_scores.forEach((_, d) => {
    if (view.terminal && d === obs.day_scores.length - 1) return;  // the last day is part of the game-over summary
    out.push({ id: `day-${d + 1}`, title: `Day ${d + 1} is over: who earned what`, body: daySummaryBody(ctx.data, obs, d, ctx.seatName) });
  });
  return out;
}

function summary(root, ctx) {
  const obs = ctx.view.observation, data = ctx.data;
  const last = obs.day_scores.length - 1;
  replaceChildren(root, h("h2", {}, "Game over"),
    h("table", { class: "plain cm-final", id: "cm-final" },
      h("caption", { class: "small muted" }, "Coins by day, and the favour cards left in hand at the end"),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), obs.day_scores.map((_, d) => h("th", { scope: "col" }, `Day ${d + 1}`)),
        h("th", { scope: "col" }, "Favour cards"), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, obs.scores.map((total, seat) => h("tr", {},
        h("th", { scope: "row" }, h("span", { class: "cm-who" }, h("span", { class: `cm-dot c${seat % 5}`, "aria-hidden": "true" }), h("span", {}, ctx.seatName(seat)))),
        obs.day_scores.map((d) => h("td", {}, `${d[seat]}`)),
        h("td", {}, obs.favour_coins ? `${obs.favour_coins[seat]}` : "—"),
        h("td", {}, h("strong", {}, `${total}`)))))),
    last >= 0 ? h("details", { class: "cm-last-day" }, h("summary", {}, `Day ${last + 1}: who earned what`), earnings(data, obs, last, ctx.seatName)) : null);
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
