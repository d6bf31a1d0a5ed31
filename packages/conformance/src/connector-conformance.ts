import type {
  AbortSignalLike,
  CallContext,
  Connector,
  ConnectorMethod,
  ExecutionEndStatus,
  PassEndStatus,
} from "@codemode/core";
import { toIdentifier } from "@codemode/typegen";
import { describe, expect, it } from "vitest";
import { conformanceTest, type KnownGap } from "./known-gaps.ts";

// typed by hand: the suite compiles without Node, DOM or Workers types and runs in all three
declare const AbortController: new () => {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
};

/** One call the connector can make without anything outside the test. */
export interface ConnectorSample {
  /** a method `methods()` lists; it should use its call context (its signal, executionId, …) */
  method: string;
  /** a valid input for it */
  input: unknown;
  /** what the call resolves to, compared with `toEqual`; when absent, only that it resolves */
  expected?: unknown;
  /** a call that fails (invalid input, an upstream error) */
  failing?: { method: string; input: unknown };
  /** a call that waits for its signal; without it, the abort case is skipped */
  waiting?: WaitingCall;
}

/** A call that does not settle until its signal aborts: a request the server never answers. */
export interface WaitingCall {
  method: string;
  input: unknown;
  /**
   * Resolves once a call of it is under way, or at once if one already is (the server has the
   * request, the function runs), so the signal aborts a call in flight. When absent, the signal
   * aborts as soon as `invoke` has returned.
   */
  started?: () => Promise<void>;
}

export interface ConnectorConformanceOptions {
  name: string;
  /** a new connector for each test (applications re-create connectors for every request) */
  createConnector: () => Connector | Promise<Connector>;
  sample: ConnectorSample;
  knownGaps?: readonly KnownGap[];
}

const EXECUTION_ID = "exec_conformance";
const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false " +
    "finally for function if import in instanceof new null return super switch this throw true try " +
    "typeof var void while with yield let static implements interface package private protected public " +
    "await"
  ).split(" "),
);
const PASS_END: readonly PassEndStatus[] = ["completed", "error", "paused"];
const EXECUTION_END: readonly ExecutionEndStatus[] = [
  "completed",
  "error",
  "rejected",
  "cancelled",
  "rolled_back",
];

/** A call context whose fields record that they were read. */
function callContext(
  reads: Set<string> = new Set(),
  signal: AbortSignalLike = new AbortController().signal,
): CallContext {
  const values: Record<keyof CallContext, unknown> = {
    executionId: EXECUTION_ID,
    seq: 0,
    idempotencyKey: `${EXECUTION_ID}:0`,
    signal,
  };
  const context = {};
  for (const [key, value] of Object.entries(values)) {
    Object.defineProperty(context, key, {
      get() {
        reads.add(key);
        return value;
      },
      enumerable: true,
    });
  }
  return context as CallContext;
}

/** The reason a call rejects with; fails if it resolves or throws synchronously. */
async function rejection(call: () => Promise<unknown>): Promise<unknown> {
  let promise: Promise<unknown>;
  try {
    promise = call();
  } catch (error) {
    throw new Error(`invoke() threw synchronously instead of rejecting: ${String(error)}`);
  }
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/** An Error whose message says something: not empty, not a bare `[object Object]`. */
function expectExplainingError(error: unknown): Error {
  expect(error).toBeInstanceOf(Error);
  const { message } = error as Error;
  expect(typeof message).toBe("string");
  expect(message.trim().length, "the error has a message").toBeGreaterThan(0);
  expect(message).not.toMatch(/^\s*(\[object \w+\]|undefined|null|Error)\s*$/);
  return error as Error;
}

/**
 * The behaviour every connector shares: methods that become unique sandbox identifiers with object
 * input schemas and consistent flags; calls that resolve with their context and fail with a clear
 * Error; lifecycle hooks that may be called again.
 */
export function runConnectorConformance(options: ConnectorConformanceOptions): void {
  const suite = conformanceTest(options.knownGaps);
  const { sample } = options;
  const setup = async () => {
    const connector = await options.createConnector();
    return { connector, methods: await connector.methods() };
  };

  describe(`connector conformance: ${options.name}`, () => {
    suite.group("methods", (test) => {
      test("declares specification v1 and a name", async () => {
        const { connector } = await setup();
        expect(connector.specificationVersion).toBe("v1");
        expect(typeof connector.name).toBe("string");
        expect(connector.name.trim()).not.toBe("");
        expect(toIdentifier(connector.name)).toMatch(IDENTIFIER);
      });

      test("names methods that are unique JavaScript identifiers", async () => {
        const { methods } = await setup();
        const names = Object.keys(methods);
        expect(names.length, "at least one method").toBeGreaterThan(0);
        expect(names).toContain(sample.method);
        const identifiers = names.map((name) => toIdentifier(name));
        for (const identifier of identifiers) {
          expect(identifier).toMatch(IDENTIFIER);
          expect(RESERVED.has(identifier), `${identifier} is a reserved word`).toBe(false);
        }
        const twice = identifiers.filter((name, index) => identifiers.indexOf(name) !== index);
        expect(twice, "identifiers that two methods share").toEqual([]);
      });

      test("describes each input with an object JSON Schema when it has one", async () => {
        const { methods } = await setup();
        for (const [name, method] of Object.entries(methods)) {
          expect(typeof method, name).toBe("object");
          if (method.inputSchema === undefined) continue;
          expect(typeof method.inputSchema, `${name}: inputSchema`).toBe("object");
          expect(method.inputSchema, `${name}: inputSchema`).toMatchObject({ type: "object" });
        }
      });

      test("describes the same methods on every call and every instance", async () => {
        const first = await setup();
        const again = await first.connector.methods();
        const other = await setup();
        expect(again).toEqual(first.methods);
        expect(other.methods).toEqual(first.methods);
      });

      test("never combines requiresApproval with replay reexecute", async () => {
        const { methods } = await setup();
        for (const [name, method] of Object.entries(methods)) {
          if (method.replay !== undefined)
            expect(["record", "reexecute"], name).toContain(method.replay);
          expect(method.requiresApproval === true && method.replay === "reexecute", name).toBe(
            false,
          );
        }
      });

      test("has revert when a method is revertible", async () => {
        const { connector, methods } = await setup();
        const revertible = Object.entries(methods)
          .filter(([, method]: [string, ConnectorMethod]) => method.revertible === true)
          .map(([name]) => name);
        if (revertible.length > 0) {
          expect(typeof connector.revert, `revert, for ${revertible.join(", ")}`).toBe("function");
        }
      });
    });

    suite.group("invoke", (test) => {
      test("resolves the sample call", async () => {
        const { connector } = await setup();
        const result = await connector.invoke(sample.method, sample.input, callContext());
        if (Object.hasOwn(sample, "expected")) expect(result).toEqual(sample.expected);
      });

      test("passes the call context to the method", async () => {
        const { connector } = await setup();
        const reads = new Set<string>();
        await connector.invoke(sample.method, sample.input, callContext(reads));
        expect([...reads], "fields of the call context the call read").not.toEqual([]);
      });

      const failing = sample.failing;
      if (failing) {
        test("rejects a failing call with an Error that says what went wrong", async () => {
          const { connector } = await setup();
          const error = await rejection(() =>
            connector.invoke(failing.method, failing.input, callContext()),
          );
          expectExplainingError(error);
        });
      } else {
        it.skip("rejects a failing call with an Error that says what went wrong (no sample)");
      }

      test("rejects an unknown method with an Error that names it", async () => {
        const { connector } = await setup();
        const error = await rejection(() =>
          connector.invoke("conformance_no_such_method", {}, callContext()),
        );
        expect(expectExplainingError(error).message).toContain("conformance_no_such_method");
      });

      // the runtime leaves a call it aborted in doubt only when the call fails with the very
      // reason it aborted with; anything else, a wrapper included, is recorded as the call's failure
      const waiting = sample.waiting;
      const aborts = "a call whose signal aborts rejects with the signal's reason";
      if (waiting) {
        test(aborts, async () => {
          const { connector } = await setup();
          const controller = new AbortController();
          const settled = rejection(() =>
            connector.invoke(
              waiting.method,
              waiting.input,
              callContext(new Set(), controller.signal),
            ),
          );
          if (waiting.started) {
            const early = await Promise.race([
              waiting.started().then(() => undefined),
              settled.then(
                (error) => ({ error }),
                (error: unknown) => ({ error }),
              ),
            ]);
            if (early) {
              throw new Error(
                `the waiting call settled before its signal aborted: ${String(early.error)}`,
              );
            }
          }
          const reason = new Error("conformance: the pass has ended");
          controller.abort(reason);
          expect(await settled, "the rejection is the signal's reason itself").toBe(reason);
        });
      } else {
        test.skipped("no waiting call given")(aborts, () => {});
      }
    });

    suite.group("lifecycle", (test) => {
      test("onPassEnd, if present, may be called twice", async () => {
        const { connector } = await setup();
        if (connector.onPassEnd === undefined) return;
        expect(typeof connector.onPassEnd).toBe("function");
        await connector.invoke(sample.method, sample.input, callContext());
        for (const status of PASS_END) {
          await connector.onPassEnd(EXECUTION_ID, status);
          await connector.onPassEnd(EXECUTION_ID, status);
        }
      });

      test("disposeExecution, if present, may be called twice", async () => {
        const { connector } = await setup();
        if (connector.disposeExecution === undefined) return;
        expect(typeof connector.disposeExecution).toBe("function");
        await connector.invoke(sample.method, sample.input, callContext());
        await connector.onPassEnd?.(EXECUTION_ID, "completed");
        for (const status of EXECUTION_END) {
          await connector.disposeExecution(EXECUTION_ID, status);
          await connector.disposeExecution(EXECUTION_ID, status);
        }
        await connector.disposeExecution("exec_never_seen", "completed");
      });
    });
  });
}
