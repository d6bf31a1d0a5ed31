// How @codemode/mcp-server shows a waiting call to a person: `connector.method(input)` with the exact
// input, and where it goes when its method names an operation.
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

/**
 * Where a call goes, as the sentence a question adds after the call (` It sends <operation>.`, its
 * characters a person cannot see escaped), "" when its method names no operation, or undefined when
 * the sentence is longer than `limit` characters: like an input, an operation is shown whole or the
 * person is not asked (a cut one could hide the part that differs, and approving it runs the call).
 */
export function describeOperation(action: PendingAction, limit: number): string | undefined {
  const { operation } = action;
  if (operation === undefined) return "";
  // escaping only lengthens: an operation longer than the room left is never walked
  if (operation.length > limit) return undefined;
  const sentence = ` It sends ${visibleText(operation)}.`;
  return sentence.length <= limit ? sentence : undefined;
}
