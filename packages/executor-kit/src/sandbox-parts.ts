// Code that runs INSIDE a sandbox: the factories every executor pastes into its sandbox
// (`sandboxSource`) and calls with built-ins it captured before the program ran, so a program that
// replaces `JSON.stringify` or `Error` does not change how values and errors cross. `sandboxBootstrap`
// takes them as arguments; QuickJS compiles each on first use. Each must stay self-contained (no
// imports, no references outside its body) and plain JavaScript once types are stripped. The
// encoder is in sandbox-encoder.ts, the queue of calls made at once in sandbox-call-queue.ts.

/**
 * The canonical text of a value `JSON.parse` made from the value codec's text: JSON with every
 * object's keys sorted, as the codec's canonical form writes them. Two inputs are the same call when
 * their canonical texts are equal; replay in a sandbox compares them so, with built-ins captured
 * before the program ran.
 */
export function sandboxCanonical(
  stringify: (value: unknown) => string,
  keysOf: (value: object) => string[],
  isArray: (value: unknown) => value is unknown[],
  apply: typeof Reflect.apply,
  sort: (this: string[]) => string[],
): (value: unknown) => string {
  function canonical(value: unknown): string {
    if (typeof value !== "object" || value === null) return stringify(value);
    let out = "";
    if (isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        out += (index > 0 ? "," : "") + canonical(value[index]);
      }
      return `[${out}]`;
    }
    const record = value as Record<string, unknown>;
    const keys = apply(sort, keysOf(record), []) as string[];
    for (let index = 0; index < keys.length; index++) {
      const key = keys[index] as string;
      out += `${index > 0 ? "," : ""}${stringify(key)}:${canonical(record[key])}`;
    }
    return `{${out}}`;
  }
  return canonical;
}

/**
 * What the sandbox reports about a thrown value: name, message, stack and code ("" when absent), and
 * for the error of reading a method a namespace lacks, `[namespace, method]` as JSON ("" otherwise).
 */
export type Described = [
  name: string,
  message: string,
  stack: string,
  code: string,
  method: string,
];

export interface SandboxErrors {
  describe(error: unknown): Described;
  /**
   * an error as the sandbox sees it: `new Error(message)` with `name`, `code` and the keys of `data`
   * (the error's own data properties, decoded) set
   */
  fail(name: string, message: string, code: string, data?: unknown): Error;
  /** the error of a call whose input could not be encoded */
  inputError(namespace: string, method: string, error: unknown): Error;
  /** the error of reading a method a namespace does not have */
  unknownMethod(namespace: string, key: string, target: Record<string, unknown>): Error;
}

/** Asks the host for the value codec or the console renderer, made on first use. */
export type HelperRequest = (name: "codec" | "renderer") => unknown;

/** Describes thrown values for the host, and makes the errors the sandbox's code sees. */
export function sandboxErrors(
  helper: HelperRequest,
  ErrorType: ErrorConstructor,
  TypeErrorType: TypeErrorConstructor,
  keysOf: (value: object) => string[],
  stringifyMethod: (namespace: string, method: string) => string = (namespace, method) =>
    JSON.stringify([namespace, method]),
): SandboxErrors {
  // marks the errors `unknownMethod` made: a symbol the program cannot name
  const missing = Symbol("unknown method");
  function describe(error: unknown): Described {
    // QuickJS throws null when it cannot allocate an error object: the host checks its memory.
    if (error === null) return ["Error", "null", "", "NULL", ""];
    try {
      if (typeof error === "object") {
        const record = error as {
          name?: unknown;
          message?: unknown;
          stack?: unknown;
          code?: unknown;
        };
        if (error instanceof ErrorType || typeof record.message === "string") {
          const method = (error as Record<symbol, unknown>)[missing];
          return [
            typeof record.name === "string" && record.name ? record.name : "Error",
            String(record.message ?? ""),
            typeof record.stack === "string" ? record.stack : "",
            typeof record.code === "string" ? record.code : "",
            typeof method === "string" ? method : "",
          ];
        }
      }
      const renderer = helper("renderer") as { render(value: unknown): string };
      return ["Error", renderer.render(error), "", "", ""];
    } catch {
      // (reading it failed: a getter threw, or the sandbox had no memory left to read it)
      return ["Error", "A value that cannot be read was thrown.", "", "UNREADABLE", ""];
    }
  }
  function fail(name: string, message: string, code: string, data?: unknown): Error {
    const error = new ErrorType(message) as Error & { code?: string } & Record<string, unknown>;
    if (typeof data === "object" && data !== null) {
      const record = data as Record<string, unknown>;
      const keys = keysOf(record);
      for (let index = 0; index < keys.length; index++) {
        const key = keys[index] as string;
        if (
          key !== "name" &&
          key !== "message" &&
          key !== "stack" &&
          key !== "code" &&
          key !== "__proto__"
        ) {
          error[key] = record[key];
        }
      }
    }
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
      // a namespace with no methods is most often a connector that could not be loaded now
      const error = new TypeErrorType(
        methods.length > 0
          ? `${namespace}.${key} is not a function: the namespace "${namespace}" has no method "${key}". Available methods: ${methods.join(", ")}.`
          : `${namespace}.${key} cannot be called: the namespace "${namespace}" has no methods now (a connector that could not be loaded has none until it loads again; codemode.describe("${namespace}") says why).`,
      ) as Error & { code?: string } & Record<symbol, string>;
      error.code = "UNKNOWN_METHOD";
      error[missing] = stringifyMethod(namespace, key);
      return error;
    },
  };
}
