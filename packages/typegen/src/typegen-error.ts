const marker = Symbol.for("codemode.typegen.error");

/** What went wrong, as a closed set a caller can switch on. */
export type TypegenErrorCode =
  /** Two names became the same identifier, or a name cannot become one. */
  | "INVALID_NAME"
  /** An option of a catalog is out of its range (for example a negative `semanticWeight`). */
  | "INVALID_OPTION"
  /** The model's code does not parse, even after TypeScript syntax was stripped. */
  | "SYNTAX_ERROR"
  /** The model's code uses a form the sandbox cannot run (for example `import`). */
  | "UNSUPPORTED_CODE";

/**
 * The one error `@codemode/typegen` throws. Configuration mistakes (name collisions) are thrown when a
 * catalog is built; code errors are thrown by `normalizeCode` so the runtime can return them as data.
 */
export class TypegenError extends Error {
  readonly code: TypegenErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly [marker] = true;

  constructor(code: TypegenErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = "TypegenError";
    this.code = code;
    this.details = details;
  }

  /** True for a `TypegenError` from any copy of this package (no reliance on `instanceof`). */
  static isInstance(error: unknown): error is TypegenError {
    return (
      typeof error === "object" &&
      error !== null &&
      (error as Record<symbol, unknown>)[marker] === true
    );
  }
}
