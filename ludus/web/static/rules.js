// The Rules panel, shared by the lobby and the table page: a modal <dialog> with the game's rules
// (its how-to-play text, rendered by the server) and its options as they are set where the panel
// was opened from. Escape or Close shuts it, and the focus goes back to the button that opened it.
import { api, h, lang, N_, replaceChildren, t } from "/static/common.js";

// The server's words for an option's value (on, off, none), in the reader's language.
const VALUE_WORDS = { on: N_("on"), off: N_("off"), none: N_("none") };
const shownValue = (text) => (VALUE_WORDS[text] ? t(VALUE_WORDS[text]) : text);

const DIALOG_ID = "rules-dialog";

// The server renders the Markdown with raw HTML escaped and only web or local links; the page still
// rebuilds what it got from an allow-list of tags and attributes, and never assigns innerHTML.
const TAGS = new Set(["h2", "h3", "h4", "h5", "h6", "p", "ul", "ol", "li", "strong", "em", "code", "pre", "blockquote",
  "table", "thead", "tbody", "tr", "th", "td", "a", "br", "hr"]);
const ATTRS = { a: ["href", "title", "rel"], ol: ["start"], th: ["style"], td: ["style"] };
// a table column's alignment comes as a style attribute, which the pages' CSP forbids: a class instead

function safeHref(value) {
  const url = String(value || "").trim();
  if (url.startsWith("//")) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return !scheme || ["http", "https"].includes(scheme[1].toLowerCase());
}

function cleanNodes(nodes) {
  const out = [];
  for (const node of nodes) {
    if (node.nodeType === Node.TEXT_NODE) { out.push(document.createTextNode(node.textContent)); continue; }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const tag = node.tagName.toLowerCase();
    const children = cleanNodes(node.childNodes);
    if (!TAGS.has(tag)) { out.push(...children); continue; }  // anything else: its text only
    const attrs = {};
    for (const name of ATTRS[tag] || []) {
      const value = node.getAttribute(name);
      if (value === null) continue;
      if (name === "href" && !safeHref(value)) continue;
      if (name === "style") {
        const align = /^text-align:(left|right|center)$/.exec(value);
        if (align) attrs.class = `align-${align[1]}`;
        continue;
      }
      attrs[name] = value;
    }
    if (tag === "a" && attrs.href && /^https?:/i.test(attrs.href)) attrs.target = "_blank";
    out.push(h(tag, attrs, children));
  }
  return out;
}

export function rulesNodes(html) {
  const parsed = new DOMParser().parseFromString(`<body>${html || ""}</body>`, "text/html");  // inert: nothing runs
  return cleanNodes(parsed.body.childNodes);
}

function dialog() {
  let box = document.getElementById(DIALOG_ID);
  if (box) return box;
  box = h("dialog", { id: DIALOG_ID, class: "rules-dialog", "aria-labelledby": "rules-title" },
    h("div", { class: "rules-head" },
      h("h2", { id: "rules-title" }, t("Rules")),
      h("form", { method: "dialog" }, h("button", { type: "submit", class: "secondary", id: "rules-close" }, t("Close")))),
    h("div", { id: "rules-body", class: "rules-body" }));
  box.addEventListener("close", () => {
    const back = box.returnTo;
    box.returnTo = null;
    if (back && back.isConnected) back.focus();
  });
  // a click on the backdrop (outside the box, not on its own padding) closes it too
  box.addEventListener("click", (event) => {
    if (event.target !== box || event.detail === 0) return;  // detail 0: a key press, not a pointer
    const r = box.getBoundingClientRect();
    if (event.clientX < r.left || event.clientX > r.right || event.clientY < r.top || event.clientY > r.bottom) box.close();
  });
  document.body.append(box);
  return box;
}

function optionsList(explained, where, problem) {
  const changed = explained.filter((o) => o.changed).length;
  return h("section", { class: "rules-options", "aria-labelledby": "rules-options-title" },
    h("h3", { id: "rules-options-title" }, t("Options {where}", { where })),
    problem ? h("p", { class: "rules-problem", role: "alert" }, "⚠ ",
      t("{problem} The rules below are shown with the default options.", { problem })) : null,
    explained.length
      ? h("p", { class: "small muted" }, changed
        ? t("{changed} of {count} changed from the default (marked “changed”).", { changed, count: explained.length })
        : t("All at their defaults."))
      : h("p", { class: "small muted" }, t("This game has no options.")),
    h("dl", { class: "rules-opts" }, explained.map((o) => h("div", {
      class: `rules-opt${o.changed ? " changed" : ""}`, "data-rules-option": o.name },
      h("dt", {}, h("code", {}, o.label)),
      h("dd", { class: "rules-value" }, h("strong", { "data-shown": "" }, shownValue(o.shown)),
        o.changed ? h("span", { class: "badge rules-changed" }, t("changed · default {value}", { value: shownValue(o.default_shown) }))
          : h("span", { class: "muted small" }, " ", t("(default)"))),
      h("dd", { class: "rules-help small" }, o.help)))));
}

// Values of the game's data that its rulebook does not print (Game.data_values on the server): each
// marked by where it comes from, the marks explained once above the list.
const MARKS = {
  example: { mark: "◆", label: N_("from a worked example") },
  ours: { mark: "✱", label: N_("ours (Ludus)") },
};

function valueMark(source, text) {
  const m = MARKS[source] || { mark: "?", label: source };
  return h("span", { class: `value-mark mark-${source}`, title: text || null }, h("span", { "aria-hidden": "true" }, m.mark),
    ` ${MARKS[source] ? t(m.label) : m.label}`);
}

function dataValuesList(values) {
  const list = values || [];
  const sources = Object.keys(MARKS).filter((s) => list.some((v) => v.source === s));
  return h("section", { class: "rules-values", "aria-labelledby": "rules-values-title" },
    h("h3", { id: "rules-values-title" }, t("Values not printed in the rulebook")),
    list.length === 0
      ? h("p", { class: "small muted" }, t("Every value of this game's data is printed in its rulebook."))
      : [
        h("p", { class: "small muted" }, t("The rulebook leaves these numbers out, so Ludus plays with the values below."), " ",
          sources.map((s) => h("span", { class: "rules-values-legend" }, valueMark(s, ""),
            `: ${list.find((v) => v.source === s).source_text}. `))),
        h("div", { class: "rules-values-scroll" }, h("table", { class: "rules-values-table" },
          h("thead", {}, h("tr", {}, [t("Subject"), t("Value"), t("Source"), t("Note")].map((head) => h("th", { scope: "col" }, head)))),
          h("tbody", {}, list.map((v) => h("tr", { "data-value-source": v.source },
            h("td", {}, v.subject), h("td", { class: "rules-value-number" }, v.value),
            h("td", {}, valueMark(v.source, v.source_text)), h("td", { class: "small" }, v.note)))))),
      ]);
}

function sectionsNav(text) {
  const headings = [...text.querySelectorAll("h3")];
  if (headings.length < 2) return null;
  return h("nav", { class: "rules-nav", "aria-label": t("Sections of the rules") },
    h("ul", {}, headings.map((heading, i) => {
      if (!heading.id) heading.id = `rules-section-${i}`;
      heading.tabIndex = -1;
      return h("li", {}, h("button", { type: "button", class: "secondary small-button", onclick: () => {
        heading.scrollIntoView({ block: "start" });
        heading.focus({ preventScroll: true });
      } }, heading.textContent));
    })));
}

// Open the panel for `game` with the option values `options` (as the lobby form or the table has
// them); `where` finishes the options heading ("as set in the form", "at this table").
export async function openRules({ game, title, options = {}, where = "" }) {
  const box = dialog();
  box.returnTo = document.activeElement;
  const ticket = (box.ticket = (box.ticket || 0) + 1);
  box.dataset.game = game;
  box.dataset.loaded = "false";
  box.querySelector("#rules-title").textContent = t("How to play {game}", { game: title || game });
  const body = box.querySelector("#rules-body");
  replaceChildren(body, h("p", { class: "muted", role: "status" }, t("Loading the rules…")));
  if (!box.open) box.showModal();
  let info;
  let problem = "";
  const path = `/api/games/${encodeURIComponent(game)}/rules`;
  const failed = (err) => {
    if (box.ticket === ticket) {
      replaceChildren(body, h("p", { class: "rules-problem", role: "alert" }, t("The rules could not be loaded: {error}", { error: err.message })));
    }
  };
  try {
    info = await api(path, { options });
  } catch (err) {
    if (err.code !== "bad_options") { failed(err); return; }
    problem = t("These options are not valid: {error}.", { error: String(err.message).replace(/\.$/, "") });
    try { info = await api(path); } catch (again) { failed(again); return; }
  }
  if (box.ticket !== ticket) return;  // the panel was opened again meanwhile
  // a text the game ships only in English says so to the browser (its language, its direction)
  const english = info.html && info.lang === "en" && lang !== "en";
  const text = h("div", { class: "rules-text", lang: english ? "en" : null, dir: english ? "ltr" : null }, info.html ? rulesNodes(info.html)
    : h("p", { class: "muted" }, t("This game ships no rules text yet.")));
  // the values list closes the text (it can be long): the sections bar leads to it like any section;
  // a translated rules text ends with its own section of those values, in its language
  if (!info.html || info.lang === "en") text.append(dataValuesList(info.data_values));
  replaceChildren(body, optionsList(info.options, where, problem), sectionsNav(text), text);
  box.scrollTop = 0;
  box.dataset.loaded = "true";
}
