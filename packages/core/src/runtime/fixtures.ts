// What the runtime's own tests share: a context over a memory journal and mock connectors.
import type { Connector } from "../connector.ts";
import type { Executor } from "../executor.ts";
import { DEFAULT_LEASE_MS } from "../invariants.ts";
import { memoryStore } from "../memory-store.ts";
import { MockExecutor } from "../test/mock-executor.ts";
import { approvalAsksOf } from "./approval-asks.ts";
import { createConfigurator } from "./configuration.ts";
import { livePassesOf } from "./live-passes.ts";
import type { RunContext } from "./run-context.ts";
import { eventSink, type RuntimeEvent } from "./runtime-event.ts";
import { toolCallMemory } from "./tool-call-memory.ts";
import { connectorHooks } from "./values.ts";

export function testContext(
  connectors: Connector[],
  options: {
    executor?: Executor;
    now?: () => number;
    maxCalls?: number;
    onEvent?: (event: RuntimeEvent) => void;
  } = {},
): RunContext {
  const store = memoryStore();
  return {
    journal: store.journal("test"),
    live: livePassesOf(store),
    asks: approvalAsksOf(store),
    toolCalls: toolCallMemory(),
    executor: options.executor ?? new MockExecutor(() => undefined),
    configurator: createConfigurator(connectors),
    now: options.now ?? (() => Date.now()),
    limits: undefined,
    maxCalls: options.maxCalls ?? 100,
    maxExecutions: 50,
    leaseMs: DEFAULT_LEASE_MS,
    transformResult: undefined,
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
