// The page for a game that has none of its own: the observation as a readable list, and the
// legal moves as buttons (drawn by table.js). Enough to play any game the server hosts.
import { h, replaceChildren, t } from "/static/common.js";

function value(v) {
  if (v === null || v === undefined) return h("span", { class: "muted" }, "—");
  if (Array.isArray(v)) {
    if (!v.length) return h("span", { class: "muted" }, t("none"));
    if (v.every((x) => typeof x !== "object" || x === null)) return v.map((x) => x ?? "—").join(", ");
    return h("ol", {}, v.map((x) => h("li", {}, value(x))));
  }
  if (typeof v === "object") {
    return h("dl", {}, Object.entries(v).map(([k, x]) => [h("dt", {}, k.replace(/_/g, " ")), h("dd", {}, value(x))]));
  }
  return String(v);
}

function observation(root, obs, title) {
  const rows = Object.entries(obs).filter(([k]) => k !== "game");
  replaceChildren(root, h("h2", {}, title),
    h("table", { class: "plain" }, h("tbody", {}, rows.map(([k, v]) =>
      h("tr", {}, h("th", { scope: "row" }, k.replace(/_/g, " ")), h("td", {}, value(v)))))));
}

export default {
  board(root, ctx) { observation(root, ctx.view.observation, ctx.you === null ? t("Table (public view)") : t("Your view")); },
  frame(root, obs) { observation(root, obs, t("Table")); },
};
