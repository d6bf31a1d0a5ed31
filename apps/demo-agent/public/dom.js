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
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Pretty JSON for a `<pre>`. */
export function pretty(value) {
  return value === undefined ? "undefined" : JSON.stringify(value, null, 2);
}

/** Replaces an element's children. */
export function fill(element, ...children) {
  element.replaceChildren();
  for (const child of children.flat()) if (child) element.append(child);
}

/** A status word styled by its value. */
export function status(value) {
  return h("span", { class: `status ${value}`, "data-status": value }, value);
}
