import type { JsonSchema } from "./json-schema.ts";
import { boundText, METADATA_LIMITS } from "./metadata-limits.ts";

const MAX_EXAMPLE_LENGTH = 120;

function compactJson(value: unknown): string | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined || text.length > MAX_EXAMPLE_LENGTH ? undefined : text;
  } catch {
    return undefined;
  }
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  "#39": "'",
};

/** What any step of `cleanText` acts on: a tag, an entity, a link, a tab, a line break, two spaces. */
const NEEDS_CLEANING = /[<&[\t\n]| {2}/;

/**
 * Documentation text as a model should read it: HTML tags dropped (Stripe writes HTML), Markdown
 * links reduced to their text, entities decoded, runs of spaces collapsed, blank lines kept. Linear
 * in the text: a tag or a link's text ends at the next `<` or `[` at the latest, so an unclosed one
 * is not scanned again from every later start.
 */
export function cleanText(text: string): string {
  // most descriptions are one plain line: nothing below would change them
  if (!NEEDS_CLEANING.test(text)) return text.trim();
  return text
    .replace(/<\/?(?:p|br|ul|ol|li|div|h\d|table|tr|pre|blockquote)\b[^<>]*>/gi, "\n")
    .replace(
      /<\/?(?:a|code|em|strong|b|i|span|sup|sub|td|th|tbody|thead|small|u|s|kbd|var)\b[^<>]*>/gi,
      "",
    )
    .replace(/\[([^[\]]+)\]\((?:[^()\s]|\([^()\s]*\))+\)/g, "$1")
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name] ?? "")
    .replace(/[ \t]+/g, " ")
    .replace(/ ?\n ?/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** A sentence's end: a full stop, question or exclamation mark before spaces and a capital. */
const SENTENCE_END = /[.!?](?=\s+[A-Z(`"'])/g;
/** Words whose full stop ends no sentence ("e.g."), looked for in the few characters before one. */
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|approx|incl|cf|no|resp)$/;
/** A first sentence has at least this many characters before its full stop. */
const SENTENCE_MIN = 20;

function firstSentenceOf(paragraph: string): string {
  SENTENCE_END.lastIndex = SENTENCE_MIN;
  for (let end = SENTENCE_END.exec(paragraph); end; end = SENTENCE_END.exec(paragraph)) {
    // eight characters hold the longest abbreviation and the one before it (its word boundary)
    if (!ABBREVIATION.test(paragraph.slice(Math.max(0, end.index - 8), end.index))) {
      return paragraph.slice(0, end.index + 1);
    }
  }
  return paragraph;
}

/**
 * The first sentence of a text's first paragraph, cleaned and on one line, cut at `maxLength` with an
 * ellipsis: what a method's JSDoc, a search result and the tool description show.
 */
export function firstSentence(
  text: string | undefined,
  maxLength = Number.POSITIVE_INFINITY,
): string | undefined {
  const paragraph = cleanText(text ?? "")
    .split(/\n\s*\n/)[0]
    ?.replace(/\s+/g, " ")
    .trim();
  if (!paragraph) return undefined;
  const sentence = firstSentenceOf(paragraph);
  return sentence.length <= maxLength ? sentence : `${sentence.slice(0, maxLength - 1).trimEnd()}…`;
}

/**
 * The JSDoc lines a schema's annotations and constraints become; `summary` keeps the first sentence.
 * A description is cut at `METADATA_LIMITS.descriptionLength` and a constraint's value at `tagLength`.
 */
export function schemaDocLines(
  schema: JsonSchema | undefined,
  options: { summary?: boolean } = {},
): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const lines: string[] = [];
  const described = schema.description ?? schema.title;
  if (typeof described === "string") {
    const text = boundText(described, METADATA_LIMITS.descriptionLength);
    const clean = options.summary ? (firstSentence(text) ?? "") : cleanText(text);
    if (clean) lines.push(...clean.split(/\r?\n/));
  }
  const tag = (name: string, value: unknown) => {
    if (value === undefined || value === null || value === false) return;
    if (value === true) lines.push(`@${name}`);
    else if (typeof value === "number") lines.push(`@${name} ${value}`);
    else if (typeof value === "string")
      lines.push(`@${name} ${boundText(value, METADATA_LIMITS.tagLength)}`);
  };
  // a flag left out is read as off: `@default false` would say nothing more
  if (schema.default !== undefined && schema.default !== false)
    tag("default", compactJson(schema.default));
  // the bounds every safe integer has (Zod's `.int()` writes them) say nothing
  const minimum = schema.minimum === Number.MIN_SAFE_INTEGER ? undefined : schema.minimum;
  const maximum = schema.maximum === Number.MAX_SAFE_INTEGER ? undefined : schema.maximum;
  if (typeof schema.exclusiveMinimum === "number") tag("exclusiveMinimum", schema.exclusiveMinimum);
  else tag(schema.exclusiveMinimum === true ? "exclusiveMinimum" : "minimum", minimum);
  if (typeof schema.exclusiveMaximum === "number") tag("exclusiveMaximum", schema.exclusiveMaximum);
  else tag(schema.exclusiveMaximum === true ? "exclusiveMaximum" : "maximum", maximum);
  if (!options.summary) {
    // Constraints that a summary leaves to the method's own description
    tag("minLength", schema.minLength);
    tag("maxLength", schema.maxLength);
    tag("minItems", schema.minItems);
    tag("maxItems", schema.maxItems);
    tag("pattern", schema.pattern);
  }
  tag("format", schema.format);
  tag("deprecated", schema.deprecated === true);
  const examples = Array.isArray(schema.examples) ? schema.examples.slice(0, 2) : [];
  if (schema.example !== undefined && examples.length === 0) examples.push(schema.example);
  if (!options.summary) for (const example of examples) tag("example", compactJson(example));
  return lines;
}

/** What TypeScript reads as the end of a line: a `//` comment holding one would end there. */
const LINE_BREAKS = /[\r\n\u2028\u2029]+/g;

/**
 * Renders JSDoc lines as a comment at `indent`: `*​/` escaped so it cannot end the comment early, and
 * a line break inside a line (`\r`, U+2028, U+2029, which TypeScript reads as ending a line) made a
 * space, so each line stays one line wherever a later step moves it.
 */
export function formatJsDoc(lines: readonly string[], indent = ""): string {
  if (lines.length === 0) return "";
  const safe = lines.map((line) =>
    line.replace(LINE_BREAKS, " ").replace(/\*\//g, "*\\/").trimEnd(),
  );
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`;
  return `${indent}/**\n${safe.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)).join("\n")}\n${indent} */\n`;
}
