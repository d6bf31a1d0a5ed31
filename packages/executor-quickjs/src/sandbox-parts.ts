// Code that runs INSIDE the QuickJS sandbox. The host compiles a part in a pass's context only when
// the pass first needs it (compiling is most of what a sandbox costs: about 0.25 ms per KB of
// source), and calls the factory with host functions and built-ins it captured before the program
// ran, so a program that replaces `JSON.stringify` or `Error` does not change how values and errors
// cross. Each factory must stay self-contained (no imports, no references outside its body) and
// plain JavaScript once types are stripped. The encoder is the kit's `sandboxEncoder`, the one
// `sandboxBootstrap` of @codemode/executor-kit uses in the other executors.

/** What the sandbox reports about a thrown value: name, message, stack and code ("" when absent). */
export type Described = [name: string, message: string, stack: string, code: string];

export interface SandboxErrors {
  describe(error: unknown): Described;
  /** an error as the sandbox sees it: `new Error(message)` with `name` and `code` set */
  fail(name: string, message: string, code: string): Error;
  /** the error of a call whose input could not be encoded */
  inputError(namespace: string, method: string, error: unknown): Error;
  /** the error of reading a method a namespace does not have */
  unknownMethod(namespace: string, key: string, target: Record<string, unknown>): Error;
}

/** Asks the host for the value codec or the console renderer, compiled on first use. */
export type HelperRequest = (name: "codec" | "renderer") => unknown;

/** Describes thrown values for the host, and makes the errors the sandbox's code sees. */
export function sandboxErrors(
  helper: HelperRequest,
  ErrorType: ErrorConstructor,
  TypeErrorType: TypeErrorConstructor,
  keysOf: (value: object) => string[],
): SandboxErrors {
  function describe(error: unknown): Described {
    // QuickJS throws null when it cannot allocate an error object: the host checks its memory.
    if (error === null) return ["Error", "null", "", "NULL"];
    try {
      if (typeof error === "object") {
        const record = error as {
          name?: unknown;
          message?: unknown;
          stack?: unknown;
          code?: unknown;
        };
        if (error instanceof ErrorType || typeof record.message === "string") {
          return [
            typeof record.name === "string" && record.name ? record.name : "Error",
            String(record.message ?? ""),
            typeof record.stack === "string" ? record.stack : "",
            typeof record.code === "string" ? record.code : "",
          ];
        }
      }
      const renderer = helper("renderer") as { render(value: unknown): string };
      return ["Error", renderer.render(error), "", ""];
    } catch {
      return ["Error", "A value that cannot be read was thrown.", "", ""];
    }
  }
  function fail(name: string, message: string, code: string): Error {
    const error = new ErrorType(message) as Error & { code?: string };
    if (name !== "Error") error.name = name;
    if (code) error.code = code;
    return error;
  }
  return {
    describe,
    fail,
    inputError(namespace, method, error) {
      const [name, message, , code] = describe(error);
      return fail(
        code === "NOT_SERIALIZABLE" ? "TypeError" : name,
        `The input of ${namespace}.${method} cannot cross the sandbox boundary: ${message}`,
        code,
      );
    },
    unknownMethod(namespace, key, target) {
      const methods = keysOf(target).filter((name) => typeof target[name] === "function");
      const error = new TypeErrorType(
        `${namespace}.${key} is not a function: the namespace "${namespace}" has no method "${key}". ` +
          `Available methods: ${methods.length > 0 ? methods.join(", ") : "(none)"}.`,
      ) as Error & { code?: string };
      error.code = "UNKNOWN_METHOD";
      return error;
    },
  };
}
