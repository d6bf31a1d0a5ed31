import type { CallContext, Connector, ConnectorMethod } from "../connector.ts";

/** One method of a `mockConnector`: its definition and what it does (default: returns its input). */
export type MockMethod = ConnectorMethod & {
  execute?: (input: unknown, context: CallContext) => unknown;
  revert?: (input: unknown, result: unknown, context: CallContext) => unknown;
};

/** What a mock connector was asked to do, in order. */
export interface MockCall {
  kind: "invoke" | "revert";
  method: string;
  input: unknown;
  result?: unknown;
  executionId: string;
  seq: number;
  idempotencyKey: string;
}

/**
 * A connector for tests: methods defined inline, every invocation and revert kept in `calls` (the
 * ledger a test checks side effects against).
 */
export function mockConnector(options: {
  name: string;
  methods: Record<string, MockMethod>;
}): Connector & { readonly calls: MockCall[] } {
  const calls: MockCall[] = [];
  const definitions: Record<string, ConnectorMethod> = {};
  for (const [name, { execute: _execute, revert, ...definition }] of Object.entries(
    options.methods,
  )) {
    definitions[name] = { ...definition, ...(revert ? { revertible: true } : {}) };
  }
  const method = (name: string): MockMethod => {
    const found = options.methods[name];
    if (!found) throw new Error(`mockConnector ${options.name} has no method ${name}.`);
    return found;
  };
  return {
    specificationVersion: "v1",
    name: options.name,
    calls,
    methods: () => definitions,
    async invoke(name, input, context) {
      const { executionId, seq, idempotencyKey } = context;
      calls.push({ kind: "invoke", method: name, input, executionId, seq, idempotencyKey });
      const execute = method(name).execute;
      return execute ? await execute(input, context) : input;
    },
    async revert(name, input, result, context) {
      const { executionId, seq, idempotencyKey } = context;
      calls.push({ kind: "revert", method: name, input, result, executionId, seq, idempotencyKey });
      await method(name).revert?.(input, result, context);
    },
  };
}
