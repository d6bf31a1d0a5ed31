// How @codemode/mcp-server shows a waiting call to a person: `connector.method(input)` with the exact input.
import { type PendingAction, shownValue, visibleText } from "@codemode/core";
import { boundedJson } from "./bounded-json.ts";

/**
 * `connector.method(input)` with the exact input as compact JSON (the value codec's tagged form), every character a person cannot
 * see escaped, or undefined when that is longer than `limit` characters (it cannot be shown whole).
 */
export function describeCall(action: PendingAction, limit: number): string | undefined {
  // what JSON cannot hold (bytes, a bigint, a Map) shows as what it is, never as its size or text
  const input = boundedJson(shownValue(action.args), limit);
  const call = input && visibleText(`${action.connector}.${action.method}(${input.text})`);
  return call !== undefined && call.length <= limit ? call : undefined;
}
