// Tiny DOM helpers: elements from data, never from HTML strings.

/** An element with attributes (`class`, `data-*`, `on*` handlers, …) and children. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") {
      element.addEventListener(name.slice(2), value);
    } else {
      element.setAttribute(name, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/**
 * Replaces an element's children. A child that stays (a panel's repaint keeps the item someone types
 * in) is never taken out of the page, so it keeps its focus and what is typed into it: taking it out
 * and putting it back, as replacing every child would, blurs it, and the keys typed meanwhile go
 * nowhere.
 */
export function fill(element, ...children) {
  const nodes = children
    .flat(Infinity)
    .filter(Boolean)
    .map((child) => (child instanceof Node ? child : document.createTextNode(String(child))));
  const wanted = new Set(nodes);
  for (const old of [...element.childNodes]) if (!wanted.has(old)) old.remove();
  // what is left are the children that stay, in their order: the others go around them
  let at = element.firstChild;
  for (const node of nodes) {
    if (node === at) at = at.nextSibling;
    else element.insertBefore(node, at);
  }
}

/** A status word styled by its value (`rolled_back` reads "rolled back"). */
export function status(value) {
  const word = String(value ?? "unknown");
  return h("span", { class: `status ${word}`, "data-status": word }, word.replaceAll("_", " "));
}

/** A `<details>` with a summary; `open` by default or not. */
export function disclosure(summary, { open = false, className } = {}, ...children) {
  return h("details", { class: className, open }, h("summary", {}, summary), ...children);
}

/** A monospace block of code or text: real line breaks, wraps, never wider than its box. */
export function block(text, className = "") {
  return h("pre", { class: `block ${className}`.trim() }, String(text ?? ""));
}

/** A labelled text field: `{ label, field }` so a caller can read the field. */
export function labelled(text, field) {
  const id = field.id || `field-${Math.random().toString(36).slice(2, 10)}`;
  field.id = id;
  return { label: h("label", { for: id, class: "field-label" }, text), field };
}
