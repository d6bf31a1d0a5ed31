const marker = Symbol.for("codemode.error");

/**
 * Why something failed, as a closed set. Codes for what the model's code did come back to the model
 * as data (`{ status: "error" }`); `INVALID_CONFIG` and `STORE_FAILED` are thrown to the host.
 * docs/errors.md says who raises each code and who reads it (errors-doc.test.ts keeps the two in
 * step).
 */
export const CODEMODE_ERROR_CODES = [
  /** the host configured something wrong: bad options, duplicate names, a missing binding */
  "INVALID_CONFIG",
  /** the code does not parse */
  "SYNTAX_ERROR",
  /** the code threw */
  "THROWN",
  /** the pass ran out of time */
  "TIMEOUT",
  /** the sandbox ran out of memory or stack */
  "MEMORY",
  /** the pass was aborted from outside */
  "ABORTED",
  /** a replay met a different call than the one recorded at the same sequence number */
  "DIVERGENCE",
  /** a value to record is larger than the limit */
  "TOO_LARGE",
  /** a value cannot be recorded (a cycle, a function, a symbol) */
  "NOT_SERIALIZABLE",
  /** the code called a method or global that does not exist */
  "UNKNOWN_METHOD",
  /** a connector's method failed (its error is the cause) */
  "CONNECTOR_FAILED",
  /** the input did not match the method's schema */
  "INVALID_INPUT",
  /** the pass made more calls than its budget allows */
  "BUDGET_EXCEEDED",
  /**
   * a decision (approve, resolve) for a run or call that does not wait for it, or a rollback (or
   * its preview) of a run whose pass is still running
   */
  "NOT_PAUSED",
  /**
   * a decision's handle names calls that no longer wait, or wait with another input than the
   * person was shown: the decision was already made, or another one came first
   */
  "DECISION_STALE",
  /** no run (or snippet) has the id or name given */
  "NOT_FOUND",
  /** the journal store failed */
  "STORE_FAILED",
] as const;

/** One of `CODEMODE_ERROR_CODES`. */
export type CodemodeErrorCode = (typeof CODEMODE_ERROR_CODES)[number];

/** The one error type of Code Mode: a code from a closed set, a message that says what to do. */
export class CodemodeError extends Error {
  readonly code: CodemodeErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly [marker] = true;

  constructor(
    code: CodemodeErrorCode,
    message: string,
    options: { details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "CodemodeError";
    this.code = code;
    this.details = options.details;
  }

  /** True for a `CodemodeError` from any copy of this package (no reliance on `instanceof`). */
  static isInstance(error: unknown): error is CodemodeError {
    return (
      typeof error === "object" &&
      error !== null &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }

  toJSON(): {
    name: string;
    code: CodemodeErrorCode;
    message: string;
    details?: Record<string, unknown>;
  } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}
