// The page scripts' translations (docs/i18n.md). The server sends each page in the reader's language
// with <html lang dir> set and, for a language other than English, the catalog of the scripts'
// strings as a JSON data block (#ludus-i18n), made from ludus/locale/<lang>/LC_MESSAGES/web.po.
//
//   t("Round {number}", { number: n })                      a message, its {placeholders} filled in
//   tn("{count} card", "{count} cards", n, { count: n })   the form for the count n (the language's plural rules)
//   tf("The bot would play {move}.", { move: node })       the same, as a list of strings and DOM nodes, for h()
//   N_("beginner")                                         marks a constant, translated where it is shown: t(WORDS[k])
//
// Numbers given as parameters are written as the language writes them (Persian digits in Persian),
// never grouped; English is the msgids themselves and needs no catalog. Placeholders are written
// like Python's str.format fields: {name}.

const EMPTY = { lang: "en", dir: "ltr", plurals: ["one", "other"], messages: {} };

function readCatalog() {
  if (typeof document === "undefined") return EMPTY;  // a worker (quick.js's ticker) shows no text
  const block = document.getElementById("ludus-i18n");
  if (!block) return { ...EMPTY, lang: document.documentElement.lang || "en", dir: document.documentElement.dir || "ltr" };
  try { return { ...EMPTY, ...JSON.parse(block.textContent) }; } catch (_) { return EMPTY; }
}

const catalog = readCatalog();
export const lang = catalog.lang;
export const dir = catalog.dir;
const english = lang === "en";
const numbers = english ? null : new Intl.NumberFormat(lang, { useGrouping: false, maximumFractionDigits: 20 });
const plurals = english ? null : new Intl.PluralRules(lang);

// A number as the language writes it: 12 in English and Spanish, ۱۲ in Persian (never grouped, as the terminal).
export function formatNumber(value) {
  if (english || typeof value !== "number" || !Number.isFinite(value)) return String(value);
  return numbers.format(value);
}

// A signed value or a mark with a number ("+3", "−2", "★5") kept in its own left-to-right order
// inside a right-to-left sentence (the sign stays before the number); as it is elsewhere.
export function isolate(text) { return dir === "rtl" ? `\u2066${text}\u2069` : String(text); }

// A number with exactly `digits` decimals ("2.5", "۲٫۵").
export function formatDecimal(value, digits) {
  if (english || typeof value !== "number" || !Number.isFinite(value)) return typeof value === "number" ? value.toFixed(digits) : String(value);
  return new Intl.NumberFormat(lang, { useGrouping: false, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

// Names as one list: "A and B" ("A, B and C") in English, as the page always wrote them; the
// language's own pattern otherwise ("A y B", "A و B"). "disjunction": A or B; "unit": only commas
// between them (the language's comma: "، " in Persian).
export function formatList(items, type = "conjunction") {
  const list = items.map(String);
  if (type === "unit") return list.join(lang === "fa" ? "، " : ", ");
  if (english || list.length < 2 || typeof Intl.ListFormat === "undefined") {
    const word = type === "disjunction" ? "or" : "and";
    return list.length < 3 ? list.join(` ${word} `) : `${list.slice(0, -1).join(", ")} ${word} ${list[list.length - 1]}`;
  }
  return new Intl.ListFormat(lang, { type }).format(list);
}

function shown(value) {
  return typeof value === "number" ? formatNumber(value) : value;
}

// The text split at its placeholders: strings and the parameters' values, in order.
function fill(text, params) {
  if (!params) return [text];
  const parts = [];
  let last = 0;
  const field = /\{(\w+)\}/g;
  let m;
  while ((m = field.exec(text)) !== null) {
    if (!Object.prototype.hasOwnProperty.call(params, m[1])) continue;  // a brace that is no field stays
    parts.push(text.slice(last, m.index), shown(params[m[1]]));
    last = m.index + m[0].length;
  }
  parts.push(text.slice(last));
  return parts.filter((p) => p !== "");
}

function lookup(msgid) {
  const found = catalog.messages[msgid];
  return typeof found === "string" && found ? found : msgid;
}

function pluralForm(singular, plural, n) {
  const found = catalog.messages[singular];
  if (english || !Array.isArray(found)) return n === 1 ? singular : plural;
  const category = plurals.select(n);
  const index = catalog.plurals.indexOf(category);
  return found[index >= 0 && index < found.length ? index : found.length - 1];
}

export function t(msgid, params) {
  return fill(lookup(msgid), params).map(String).join("");
}

export function tn(singular, plural, n, params) {
  return fill(pluralForm(singular, plural, n), params).map(String).join("");
}

// A message whose parameters may be DOM nodes: the parts, to pass to h() as children.
export function tf(msgid, params) {
  return fill(lookup(msgid), params);
}

export function tnf(singular, plural, n, params) {
  return fill(pluralForm(singular, plural, n), params);
}

export const N_ = (msgid) => msgid;
