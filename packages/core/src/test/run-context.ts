// What the runtime's own tests share: a context over a memory journal and mock connectors.
import type { CatalogOptions } from "@codemode/typegen";
import type { Connector } from "../connector.ts";
import type { Executor } from "../executor.ts";
import { DEFAULT_LEASE_MS } from "../invariants.ts";
import type { JournalEntry } from "../journal-store.ts";
import { memoryStore } from "../memory-store.ts";
import { createConfigurator } from "../runtime/context/configuration.ts";
import type { RunContext } from "../runtime/context/run-context.ts";
import { eventSink, type RuntimeEvent } from "../runtime/context/runtime-event.ts";
import { localOf } from "../runtime/context/store-local.ts";
import { toolCallMemory } from "../runtime/context/tool-call-memory.ts";
import { codec, connectorHooks } from "../runtime/context/values.ts";
import { PassState } from "../runtime/pass/pass-state.ts";
import { DEFAULT_MAX_LOOKUPS, DEFAULT_MAX_SNIPPET_RUNS } from "../sandbox-protocol.ts";
import { MockExecutor } from "./mock-executor.ts";

export function testContext(
  connectors: Connector[],
  options: {
    executor?: Executor;
    now?: () => number;
    maxCalls?: number;
    maxLookups?: number;
    maxSnippetRuns?: number;
    search?: Pick<CatalogOptions, "embed" | "semanticWeight" | "limit">;
    onEvent?: (event: RuntimeEvent) => void;
    transformResult?: (result: unknown) => unknown;
  } = {},
): RunContext {
  const store = memoryStore();
  return {
    journal: store.journal("test"),
    live: localOf(store).live,
    asks: localOf(store).asks,
    toolCalls: toolCallMemory(),
    executor: options.executor ?? new MockExecutor(() => undefined),
    configurator: createConfigurator(connectors, options.search),
    now: options.now ?? (() => Date.now()),
    limits: undefined,
    maxCalls: options.maxCalls ?? 100,
    maxLookups: options.maxLookups ?? DEFAULT_MAX_LOOKUPS,
    maxSnippetRuns: options.maxSnippetRuns ?? DEFAULT_MAX_SNIPPET_RUNS,
    maxExecutions: 50,
    leaseMs: DEFAULT_LEASE_MS,
    transformResult: options.transformResult,
    hooks: connectorHooks(connectors),
    emit: eventSink(options.onEvent),
  };
}

/** The lease owner of the pass `runningRun` records. */
export const TEST_OWNER = "pass_test";

/** A run recorded `running` under the lease of `TEST_OWNER`, as `begin` leaves it. */
export async function runningRun(context: RunContext, id = "exec_test"): Promise<string> {
  const config = await context.configurator.configure();
  await context.journal.createExecution({
    id,
    code: "async () => null",
    status: "running",
    connectors: [...config.connectors.keys()],
    createdAt: context.now(),
    updatedAt: context.now(),
    lease: { owner: TEST_OWNER, expiresAt: context.now() + context.leaseMs },
  });
  return id;
}

/**
 * A pass of `runningRun`'s run under `TEST_OWNER`, with what the journal holds for the run now
 * recorded (as `runPass` reads it), the pending calls `approved` names approved first, as
 * `runtime.approve` writes them: `await pass.end()` and `pass.release()` when done.
 */
export async function testPass(
  context: RunContext,
  executionId: string,
  options: { approved?: readonly number[] } = {},
): Promise<PassState> {
  for (const seq of options.approved ?? []) {
    await context.journal.updateEntry(executionId, seq, ["pending"], {
      state: "approved",
      updatedAt: context.now(),
    });
  }
  const recorded = new Map(
    (await context.journal.listEntries(executionId)).map((entry) => [entry.seq, entry]),
  );
  return new PassState(context, executionId, recorded, {
    owner: TEST_OWNER,
  });
}

/**
 * A journal entry of a call (`connector.method(input)`, applied with `result` unless `overrides` say
 * otherwise), as a pass records it.
 */
export function callEntry(
  executionId: string,
  seq: number,
  call: { connector: string; method: string; input?: unknown; result?: unknown },
  overrides: Partial<JournalEntry> = {},
): JournalEntry {
  return {
    executionId,
    seq,
    kind: "call",
    connector: call.connector,
    method: call.method,
    args: codec.encode(call.input ?? {}),
    ...("result" in call ? { result: codec.encode(call.result) } : {}),
    state: "applied",
    requiresApproval: false,
    deferred: false,
    replay: "record",
    createdAt: 0,
    updatedAt: 0,
    ...overrides,
  };
}
