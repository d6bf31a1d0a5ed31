/**
 * The bounds of what a connector's metadata (from an MCP server, an OpenAPI document or the host)
 * shows the model in declarations, `describe` and `search`. Everything past a bound is cut and says
 * how much was left out, so the work and the text are linear in the metadata and never larger than
 * these allow per item. Each is well above what the real catalogs in `fixtures/` use (GitHub's and
 * Stripe's OpenAPI documents, the reference MCP servers), whose declarations they leave unchanged.
 */
export const METADATA_LIMITS = Object.freeze({
  /** characters of an identifier (a connector, a method): a longer name is cut and ends with a hash of the whole */
  nameLength: 128,
  /** characters of a method's description, and of a field's description or title */
  descriptionLength: 8_000,
  /** characters of a connector's instructions */
  instructionsLength: 8_000,
  /** values of one `enum` shown; the rest are counted ("… and 49000 more values") */
  enumValues: 1_000,
  /** members of one `anyOf`, `oneOf` or `allOf`, and elements of one tuple, shown */
  schemaMembers: 1_000,
  /** properties of one object shown */
  properties: 1_000,
  /** characters of one literal (an enum value, a `const`); a longer one is shown as its type */
  literalLength: 200,
  /** characters of a constraint's value in JSDoc (`@pattern`, `@format`) */
  tagLength: 200,
  /** characters of a method's search keywords together */
  keywordsLength: 2_000,
  /** levels of nesting rendered; deeper parts are `unknown` */
  depth: 32,
  /**
   * characters of declarations in one `describe` answer: a connector whose declarations are longer
   * is answered with the list of its methods (each to be described alone), a longer method is cut
   */
  describeLength: 200_000,
});

/** At most `limit` UTF-16 units of `text`, never splitting a surrogate pair. */
export function cutAt(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}

/** `text` when it is at most `limit` characters; otherwise its head and how much was left out. */
export function boundText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = cutAt(text, limit);
  return `${head}… (${text.length - head.length} more characters)`;
}
