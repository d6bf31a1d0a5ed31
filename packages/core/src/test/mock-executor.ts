import type { ExecuteRequest, ExecuteResult, Executor, HostFunction } from "../executor.ts";
import { errorRecordOf } from "../invariants.ts";
import {
  PRELUDE_CHANNEL,
  type StepDecideReply,
  type StepRecordReply,
} from "../sandbox-protocol.ts";

/** What the program of a `MockExecutor` gets: the namespaces, and `codemode` as the SDK. */
export type MockSandbox = {
  codemode: {
    search(query: string): Promise<unknown>;
    describe(target: string): Promise<unknown>;
    step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  };
  // biome-ignore lint/suspicious/noExplicitAny: a test's program calls whatever methods its connectors have
  [namespace: string]: any;
};

/**
 * An executor for tests of what talks to executors (the runtime, above all): instead of running
 * `request.code` in a sandbox it calls `program` with the request's host functions, and speaks the
 * prelude's channel itself for `codemode.step`. It keeps every request in `requests`; after the
 * pass's signal fires, its calls reject as a sandbox's would.
 */
export class MockExecutor implements Executor {
  readonly specificationVersion = "v1";
  readonly requests: ExecuteRequest[] = [];
  readonly #program: (sandbox: MockSandbox, request: ExecuteRequest) => unknown;

  constructor(program: (sandbox: MockSandbox, request: ExecuteRequest) => unknown) {
    this.#program = program;
  }

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    this.requests.push(request);
    const logs: string[] = [];
    const guarded =
      (fn: HostFunction): HostFunction =>
      (input) =>
        request.signal?.aborted
          ? Promise.reject(new Error("The run was stopped from outside."))
          : fn(input);
    const sandbox: Record<string, Record<string, HostFunction>> = {};
    for (const [namespace, methods] of Object.entries(request.globals)) {
      sandbox[namespace] = {};
      for (const [method, fn] of Object.entries(methods)) {
        if (namespace === "codemode" && method.startsWith("__")) continue;
        (sandbox[namespace] as Record<string, HostFunction>)[method] = guarded(fn);
      }
    }
    const channel = request.globals.codemode;
    if (channel) {
      const decide = channel[PRELUDE_CHANNEL.stepDecide] as HostFunction;
      const record = channel[PRELUDE_CHANNEL.stepRecord] as HostFunction;
      (sandbox.codemode as Record<string, unknown>).step = async (
        name: string,
        fn: () => unknown,
      ) => {
        const decision = (await guarded(decide)({ name })) as StepDecideReply;
        if (decision.replay) {
          try {
            await fn();
          } catch {}
          await guarded(record)({ seq: decision.seq, token: decision.token, value: undefined });
          return decision.value;
        }
        const value = await fn();
        const recorded = (await guarded(record)({
          seq: decision.seq,
          token: decision.token,
          value,
        })) as StepRecordReply;
        return recorded.value;
      };
    }
    try {
      const result = await this.#program(sandbox as MockSandbox, request);
      return { result, logs };
    } catch (error) {
      const { name, message } = errorRecordOf(error);
      return {
        error: {
          name,
          message,
          code: request.signal?.aborted ? "ABORTED" : "THROWN",
        },
        logs,
      };
    }
  }
}
