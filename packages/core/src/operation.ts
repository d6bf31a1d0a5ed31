// A method's operation: what a call of it is sent to, named by its connector (an HTTP method, a base
// URL and a path template, say). A call is recorded with the operation its method named then, and a
// recorded call that may still run runs only while its method names the same one: a person who
// approved `catalog.deleteItem({"id":1})` approved it as it was shown, sent where it was shown.
import type { ConnectorMethod } from "./connector.ts";
import type { JournalEntry } from "./journal-store.ts";
import { firstUnseen } from "./visible-text.ts";

/** The longest operation a method may name (UTF-16 units). */
export const MAX_OPERATION_LENGTH = 2000;

/**
 * What is wrong with `operation` as a method's operation, or `undefined` when it is one: a
 * non-empty string of at most `MAX_OPERATION_LENGTH` units, one line of characters a person sees as
 * they are. Refused are the characters `visibleText` escapes: controls (a line break among them),
 * format characters (bidi overrides, zero-width characters), separators and spaces other than
 * U+0020, what renders as nothing, and lone surrogates, which a store may not keep as they were
 * (SQLite writes U+FFFD for one). Every surface can then show an operation as it is.
 */
export function operationProblem(operation: unknown): string | undefined {
  if (typeof operation !== "string") return `is a ${typeof operation}, not a string`;
  if (operation.trim().length === 0) return "is empty";
  if (operation.length > MAX_OPERATION_LENGTH) {
    return `has ${operation.length} characters (at most ${MAX_OPERATION_LENGTH})`;
  }
  const at = firstUnseen(operation);
  if (at >= 0) {
    const unit = operation.charCodeAt(at).toString(16).padStart(4, "0");
    return `holds U+${unit.toUpperCase()} at ${at} (controls, line breaks, format characters, spaces other than U+0020, characters that render as nothing and lone surrogates are refused)`;
  }
  return undefined;
}

/**
 * Whether the method of a recorded call now names another operation than the one the call was
 * recorded for: the call (or a revert through its method) would go somewhere the person never saw.
 */
export const operationMoved = (
  entry: Pick<JournalEntry, "operation">,
  definition: Pick<ConnectorMethod, "operation">,
): boolean => definition.operation !== entry.operation;
