// Tiny DOM helpers: elements from data, never from HTML strings.

type Child = Node | string | number | false | null | undefined;
type Attributes = Record<string, string | number | boolean | undefined | EventListener>;

/** An element with attributes (`class`, `data-*`, `on*` listeners, …) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Array<Child | Child[]>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : String(child));
  }
  return element;
}

/** Pretty JSON for a `<pre>`. */
export const pretty = (value: unknown) =>
  value === undefined ? "undefined" : JSON.stringify(value, null, 2);

/** The element with this id; throws when the page lacks it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element as T;
}
