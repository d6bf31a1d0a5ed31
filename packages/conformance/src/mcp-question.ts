// An elicitation question of the codemode MCP server as the person behind the client reads it: the
// call it asks about (connector, method, input) and its position in the round it belongs to. What
// the question says after the call (where it goes, whether it may have run) is not read here.
import { canonical } from "./integrity-ledger.ts";

const QUESTION =
  /^The code wants to run (?:\d+ calls together; none runs unless you approve each\. Call (\d+) of (\d+): )?([A-Za-z0-9_$]+)\.([A-Za-z0-9_$]+)\((.*)$/s;

/** What follows a call's closing `).`: its sentences, if any ("It sends …."), then the question. */
const AFTER_CALL = /^(?: .*)? Approve it\?$/s;

/**
 * Where the JSON text that starts `text` ends: after its closing bracket or quote, or before the
 * `)` that closes the call for a bare scalar; -1 when it does not end. Linear, and exact for JSON
 * text (the input's own `).` can only be inside a string of it), so a sentence after the call that
 * holds `).` (an operation's "(request form …)") is never read as part of the input.
 */
function jsonEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const unit = text[at];
    if (inString) {
      if (unit === "\\") at++;
      else if (unit === '"') {
        inString = false;
        if (depth === 0) return at + 1;
      }
    } else if (unit === '"') inString = true;
    else if (unit === "{" || unit === "[") depth++;
    else if (unit === "}" || unit === "]") {
      depth--;
      if (depth <= 0) return at + 1;
    } else if (unit === ")" && depth === 0) return at;
  }
  return -1;
}

/** A question's call as the person read it: its position in the round, connector, method, input. */
export function readQuestion(message: string) {
  const match = QUESTION.exec(message);
  if (!match) return undefined;
  const [, position, count, connector, method] = match;
  const rest = match[5] as string;
  const end = jsonEnd(rest);
  if (end < 0 || !rest.startsWith(").", end) || !AFTER_CALL.test(rest.slice(end + 2))) {
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(rest.slice(0, end));
  } catch {
    return undefined;
  }
  return {
    position: position === undefined ? 1 : Number(position),
    count: count === undefined ? 1 : Number(count),
    connector: connector as string,
    method: method as string,
    input: canonical(value),
  };
}
