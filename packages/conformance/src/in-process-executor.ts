// An executor for the suite's own tests in this package: the program runs in the test's own realm
// (no isolation at all), with values crossing through the value codec both ways and the abort signal
// honoured as the Executor contract says, so the durable runtime can be checked without a sandbox
// package (they depend on this one). Never use it for untrusted code.
import {
  createValueCodec,
  type ExecuteRequest,
  type ExecuteResult,
  type Executor,
} from "@codemode/core";

/** The global a sandbox that cannot compile code at run time offers the prelude (core's protocol). */
const SANDBOX_EVALUATE_HOOK = "__codemodeEvaluate";
/** Fields of an error that are not its data. */
const OWN_FIELDS = new Set(["name", "message", "stack", "code", "cause"]);

const codec = createValueCodec();
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function render(value: unknown): string {
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * What a host rejection becomes in the program: an Error with the same name, message and code, and
 * copies of the data properties the codec can carry.
 */
function crossing(error: unknown): Error {
  let name = "Error";
  let message: string;
  let code: unknown;
  const data: Record<string, unknown> = {};
  try {
    if (typeof error === "object" && error !== null) {
      const record = error as Record<string, unknown>;
      name = typeof record.name === "string" && record.name ? record.name : "Error";
      message = typeof record.message === "string" ? record.message : String(error);
      code = typeof record.code === "string" ? record.code : undefined;
      for (const key of Object.keys(record)) {
        if (OWN_FIELDS.has(key)) continue;
        try {
          data[key] = codec.decode(codec.encode(record[key]));
        } catch {
          // not data the codec can carry
        }
      }
    } else {
      message = String(error);
    }
  } catch {
    message = "A host method failed with an unreadable error.";
  }
  const copy = new Error(message);
  Object.assign(copy, data);
  if (name !== "Error") copy.name = name;
  if (code !== undefined) Object.assign(copy, { code });
  return copy;
}

export class InProcessExecutor implements Executor {
  readonly specificationVersion = "v1";

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    const logs: string[] = [];
    const signal = request.signal;
    let ended = false;
    const refused = () => ended || signal?.aborted === true;
    const names = Object.keys(request.globals).filter((name) => IDENTIFIER.test(name));
    const namespaces = names.map((name) => {
      const methods = request.globals[name] ?? {};
      const namespace: Record<string, (input: unknown) => Promise<unknown>> = {};
      for (const method of Object.keys(methods)) {
        namespace[method] = async (input: unknown) => {
          if (refused()) throw crossing(new Error("The pass has ended: the call was refused."));
          const text = codec.encode(input);
          let reply: string;
          try {
            const value = await (methods[method] as (input: unknown) => Promise<unknown>)(
              codec.decode(text),
            );
            reply = codec.encode(value);
          } catch (error) {
            throw crossing(error);
          }
          return codec.decode(reply);
        };
      }
      return namespace;
    });
    const console = {
      log: (...args: unknown[]) => logs.push(args.map(render).join(" ")),
      warn: (...args: unknown[]) => logs.push(args.map(render).join(" ")),
      error: (...args: unknown[]) => logs.push(args.map(render).join(" ")),
    };
    const compile = (source: string) =>
      new Function("globalThis", "console", ...names, `return (${source});`);
    const scope: Record<string, unknown> = {};
    scope[SANDBOX_EVALUATE_HOOK] = async (source: string, input: unknown) =>
      (compile(source)(scope, console, ...namespaces) as (input: unknown) => unknown)(input);
    const aborted = new Promise<ExecuteResult>((resolve) => {
      const stop = () =>
        resolve({
          error: { name: "AbortError", code: "ABORTED", message: "The run was stopped." },
          logs,
        });
      if (signal?.aborted) stop();
      signal?.addEventListener("abort", stop, { once: true });
    });
    const run = (async (): Promise<ExecuteResult> => {
      try {
        const program = new Function(
          "globalThis",
          "console",
          ...names,
          `${request.prelude ?? ""}\nreturn (${request.code});`,
        )(scope, console, ...namespaces) as () => unknown;
        const value = await program();
        let text: string;
        try {
          text = codec.encode(value);
        } catch (error) {
          return {
            error: { name: "TypeError", code: "NOT_SERIALIZABLE", message: String(error) },
            logs,
          };
        }
        return { result: codec.decode(text), logs };
      } catch (error) {
        const info = crossing(error);
        return {
          error: {
            name: info.name,
            message: info.message,
            code: error instanceof SyntaxError ? "SYNTAX_ERROR" : "THROWN",
          },
          logs,
        };
      }
    })();
    const timeoutMs = request.limits?.timeoutMs ?? 10_000;
    let timer: unknown;
    const timedOut = new Promise<ExecuteResult>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            error: { name: "TimeoutError", code: "TIMEOUT", message: "The code ran too long." },
            logs,
          }),
        timeoutMs,
      );
    });
    const outcome = await Promise.race([run, aborted, timedOut]);
    ended = true;
    clearTimeout(timer);
    return outcome;
  }
}

declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;
