import { CodemodeError } from "./codemode-error.ts";
import { wellFormed } from "./invariants.ts";
import type { ToolCallBinding } from "./journal-store.ts";

/** The longest key a binding may have (the runtime's are 69 characters: `call_` and a SHA-256 in hex). */
export const MAX_BINDING_KEY_LENGTH = 256;
/** The longest execution id a binding may name. */
export const MAX_BINDING_EXECUTION_ID_LENGTH = 1000;
/** The longest `shown` a binding may keep: a decision handle of 1,000 calls takes about 95,000. */
export const MAX_BINDING_SHOWN_LENGTH = 200_000;

function checkText(value: unknown, what: string, max: number): string {
  if (typeof value !== "string" || value.length === 0 || value.length > max || !wellFormed(value)) {
    throw new CodemodeError(
      "STORE_FAILED",
      `A tool call binding's ${what} must be text of 1 to ${max} characters without a NUL or a lone surrogate.`,
    );
  }
  return value;
}

/** What a binding showed, refused (`STORE_FAILED`) unless it is text a store keeps within its limit. */
export function checkBindingShown(shown: unknown): string {
  return checkText(shown, "shown", MAX_BINDING_SHOWN_LENGTH);
}

/**
 * A binding as the memory and SQLite stores take it: each field within its limit (PostgreSQL's
 * table holds the same limits as checks of its columns).
 */
export function checkToolCallBinding(binding: ToolCallBinding): ToolCallBinding {
  checkText(binding?.key, "key", MAX_BINDING_KEY_LENGTH);
  checkText(binding.executionId, "execution id", MAX_BINDING_EXECUTION_ID_LENGTH);
  if (binding.shown !== undefined) checkBindingShown(binding.shown);
  if (typeof binding.createdAt !== "number" || !Number.isFinite(binding.createdAt)) {
    throw new CodemodeError(
      "STORE_FAILED",
      `A tool call binding's createdAt must be a finite number; got ${String(binding.createdAt)}.`,
    );
  }
  return binding;
}
