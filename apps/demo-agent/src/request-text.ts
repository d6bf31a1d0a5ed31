// How the offline demo model reads a request before matching it: the words tidied (spaces, curly
// quotes, politeness, end punctuation), and the free text a write takes (a title, a note, a name)
// checked for words it cannot place. A write never runs with words the script did not understand:
// quoted text is taken as it is, unquoted text only when nothing in it asks for more.

/** Longer requests are not matched at all. */
export const MAX_REQUEST_LENGTH = 300;
/** The longest free text a scenario takes (a title, a note, a query, a name). */
export const MAX_ARGUMENT_LENGTH = 200;

const POLITE_START =
  /^(?:(?:please|pls|kindly|hey|hi|ok|okay|so|now)[,!\s]+|(?:can|could|would|will) you (?:please )?|i(?:'d| would) like (?:you )?to |i want (?:you )?to |let'?s )/i;
const POLITE_END = /[,\s]+(?:please|thanks|thank you)$/i;

/** The request with single spaces, straight quotes, and no politeness or end punctuation. */
export function tidyRequest(text: string): string {
  let words = text
    .normalize("NFKC")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/\s+/g, " ")
    .trim();
  for (let previous = ""; previous !== words; ) {
    previous = words;
    words = words
      .replace(POLITE_START, "")
      .replace(POLITE_END, "")
      .replace(/[.!?\s]+$/, "")
      .trim();
  }
  return words;
}

const ACTION_VERBS =
  "create|add|make|open|close|complete|finish|reopen|delete|remove|drop|mark|move|set|put|update|change|rename|edit|assign|archive|list|show|find|search|send|email|post|tell|give|summari[sz]e|count|write|sort|filter|pick|select|tag|copy|notify|buy|order|restock|cancel|clear|approve|reject";

/** What in a free text asks for more than the text itself: a quantifier, a condition, a second step. */
const UNPLACEABLE: ReadonlyArray<[RegExp, string]> = [
  [
    /^(?:about|for|on|of|from|with|regarding|to|describing|listing|explaining|showing|containing|summari[sz]ing)\s/i,
    "a reference to something else",
  ],
  [/\b(?:every|each|all|any|both|several|many|multiple|some|few|none)\b/i, "a quantifier"],
  [
    /\b\d+\s+(?:tasks?|notes?|items?|products?)\b|\b(?:two|three|four|five|ten)\s+(?:tasks|notes|items|products)\b/i,
    "a number of things",
  ],
  [
    /\b(?:cheapest|priciest|dearest|most expensive|least expensive|oldest|newest|latest|earliest|highest|lowest|biggest|smallest)\b/i,
    "a comparison",
  ],
  [/\b(?:summar(?:y|ies|i[sz]e[sd]?|i[sz]ing)|report|overview|average|total)\b/i, "a summary"],
  [/\b(?:if|unless|when|whenever|where|whose|which|until|except|only|instead)\b/i, "a condition"],
  [
    /\b(?:under|below|above|over|cheaper than|more than|less than|per)\s+\$?\d/i,
    "a price condition",
  ],
  [/\b(?:for|at)\s+\$?\d/i, "a price"],
  [new RegExp(`\\band\\s+(?:then\\s+)?(?:${ACTION_VERBS})\\b`, "i"), "a second step"],
  [/\bthen\b|\balso\b|;|\bafter that\b/i, "a second step"],
  [/\b(?:them|those|these)\b/i, "a reference to something else"],
];

/** The parts of a free text that ask for more than the text; none when it can be taken as it is. */
export function unplaceableIn(text: string): string[] {
  const found: string[] = [];
  for (const [pattern, what] of UNPLACEABLE) {
    const match = pattern.exec(text);
    if (match) found.push(`${what} ("${match[0].trim()}")`);
  }
  return found;
}

/** A free text a scenario may take, or why not. */
export type Argument = { ok: true; text: string } | { ok: false; why: string };

const QUOTED = /^(["'])(.+)\1$/s;

/**
 * The free text of a request as a scenario takes it: the inside of quotes as it is, or an unquoted
 * text with nothing unplaceable in it; never empty, never over `MAX_ARGUMENT_LENGTH`.
 */
export function argumentOf(raw: string): Argument {
  const text = raw.trim();
  const quoted = QUOTED.exec(text);
  const value = (quoted ? (quoted[2] ?? "") : text).trim();
  if (value === "") return { ok: false, why: "it has no text to use" };
  if (value.length > MAX_ARGUMENT_LENGTH) {
    return { ok: false, why: `its text is over ${MAX_ARGUMENT_LENGTH} characters` };
  }
  if (quoted) return { ok: true, text: value };
  if (/["]/.test(value)) return { ok: false, why: "its quotes do not wrap the whole text" };
  const unplaceable = unplaceableIn(value);
  if (unplaceable.length > 0) {
    return { ok: false, why: `"${value}" holds ${unplaceable.join(" and ")}` };
  }
  return { ok: true, text: value };
}
