// A method's operation: what a call of it is sent to, named by its connector (an HTTP method, a base
// URL and a path template, say). A call is recorded with the operation its method named then, and a
// recorded call that may still run runs only while its method names the same one: a person who
// approved `catalog.deleteItem({"id":1})` approved it as it was shown, sent where it was shown.

/** The longest operation a method may name (UTF-16 units). */
export const MAX_OPERATION_LENGTH = 2000;

/**
 * Characters an operation may not hold: controls (a line break among them), format characters
 * (bidi overrides, zero-width characters), line and paragraph separators and lone surrogates, which
 * a store may not keep as they were (SQLite writes U+FFFD for a lone surrogate) or a person may not
 * see.
 */
const REFUSED = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * What is wrong with `operation` as a method's operation, or `undefined` when it is one: a
 * non-empty string of at most `MAX_OPERATION_LENGTH` units, one line of visible characters.
 */
export function operationProblem(operation: unknown): string | undefined {
  if (typeof operation !== "string") return `is a ${typeof operation}, not a string`;
  if (operation.trim().length === 0) return "is empty";
  if (operation.length > MAX_OPERATION_LENGTH) {
    return `has ${operation.length} characters (at most ${MAX_OPERATION_LENGTH})`;
  }
  const refused = REFUSED.exec(operation);
  if (refused) {
    const unit = refused[0].charCodeAt(0).toString(16).padStart(4, "0");
    return `holds U+${unit.toUpperCase()} at ${refused.index} (controls, line breaks, format characters and lone surrogates are refused)`;
  }
  return undefined;
}
