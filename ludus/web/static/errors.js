// What the server says when it refuses something, in the reader's language.
//
// The server writes a rule's refusal (code "illegal") in the language of the connection itself,
// from the game's own translations (docs/i18n.md). Its other refusals are English sentences for
// programs and people alike; this page knows the meaning of the common codes and says them in the
// reader's language, and falls back to the server's sentence for a code it does not know. English
// readers get the server's sentence as it is (it can say more: which seat, which limit).
import { lang, N_, t } from "/static/i18n.js";

const CODES = {
  not_your_turn: N_("It is not your turn."),
  game_over: N_("The game is over."),
  stale: N_("That move was made from an old view; here is the current table."),
  not_started: N_("The game starts when every seat is taken."),
  not_forced: N_("Only your single legal move can be played for you automatically."),
  rate_limited: N_("Too many messages; slow down."),
  server_error: N_("The server failed to handle that; nothing changed, please try again."),
  busy: N_("The server is busy; please try again in a moment."),
  hints_off: N_("Hints are off at this table."),
  hint_busy: N_("A hint for your seat is still being worked out; please wait for it."),
  no_table: N_("There is no such table."),
  expired: N_("This table has expired: nobody joined it in time; create a new one."),
  account_needed: N_("This table is rated: only players with an account sit at it."),
  not_logged_in: N_("Rated games are for players with an account: log in or create one."),
  not_finished: N_("That opens once the game is over."),
};

export function serverText(err) {
  const message = (err && err.message) || "";
  if (lang === "en" || !err) return message;
  if (err.code === "illegal" || err.reason) return message;  // the server wrote it in this language
  return CODES[err.code] ? t(CODES[err.code]) : message;
}
