// An elicitation question of the codemode MCP server as the person behind the client reads it: the
// call it asks about (connector, method, input) and its position in the round it belongs to.
import { canonical } from "./integrity-ledger.ts";

const QUESTION =
  /^The code wants to run (?:\d+ calls together; none runs unless you approve each\. Call (\d+) of (\d+): )?([A-Za-z0-9_$]+)\.([A-Za-z0-9_$]+)\((.*)\)\.(?: .*)? Approve it\?$/s;

/** A question's call as the person read it: its position in the round, connector, method, input. */
export function readQuestion(message: string) {
  const match = QUESTION.exec(message);
  if (!match) return undefined;
  const [, position, count, connector, method, input] = match;
  let value: unknown;
  try {
    value = JSON.parse(input as string);
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
