// A small JSON tree viewer: objects and arrays fold, strings keep their real line breaks, long
// values are cut with a note saying how much was left out.
import { h } from "./dom.js";

/** items shown per object or array, characters per string */
const MAX_ITEMS = 100;
const MAX_CHARS = 4_000;
const MAX_DEPTH = 20;

function scalar(value) {
  if (value === null) return h("span", { class: "j-null" }, "null");
  if (value === undefined) return h("span", { class: "j-null" }, "undefined");
  if (typeof value === "string") {
    const cut = value.length > MAX_CHARS;
    return h(
      "span",
      { class: "j-string" },
      cut ? value.slice(0, MAX_CHARS) : value,
      cut ? h("span", { class: "j-more" }, ` … ${value.length - MAX_CHARS} more characters`) : null,
    );
  }
  if (typeof value === "number") return h("span", { class: "j-number" }, String(value));
  if (typeof value === "boolean") return h("span", { class: "j-boolean" }, String(value));
  return h("span", { class: "j-string" }, String(value));
}

/** "{ id, title, status }" or "[7 items]": what a folded value holds. */
function preview(value) {
  if (Array.isArray(value)) return `[${value.length} ${value.length === 1 ? "item" : "items"}]`;
  const keys = Object.keys(value);
  const shown = keys.slice(0, 4).join(", ");
  return `{ ${shown}${keys.length > 4 ? ", …" : ""} }`;
}

function node(value, depth, openDepth) {
  if (value === null || typeof value !== "object") return scalar(value);
  const entries = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  if (entries.length === 0)
    return h("span", { class: "j-empty" }, Array.isArray(value) ? "[]" : "{}");
  if (depth >= MAX_DEPTH) return h("span", { class: "j-more" }, preview(value));
  const rows = entries
    .slice(0, MAX_ITEMS)
    .map(([key, item]) =>
      h(
        "div",
        { class: "j-row" },
        h("span", { class: Array.isArray(value) ? "j-index" : "j-key" }, String(key)),
        node(item, depth + 1, openDepth),
      ),
    );
  if (entries.length > MAX_ITEMS) {
    rows.push(h("div", { class: "j-more" }, `… ${entries.length - MAX_ITEMS} more`));
  }
  return h(
    "details",
    { class: "j-node", open: depth < openDepth },
    h("summary", { class: "j-preview" }, preview(value)),
    h("div", { class: "j-children" }, rows),
  );
}

/**
 * A value as a tree; objects and arrays deeper than `openDepth` start folded. Scalars show as they
 * are (a string with its line breaks, no quotes).
 */
export function jsonView(value, { openDepth = 1, className = "" } = {}) {
  return h("div", { class: `json ${className}`.trim() }, node(value, 0, openDepth));
}
