// What the runtime's own tests share: a context over a memory journal and mock connectors.
import type { Connector } from "../connector.ts";
import type { Executor } from "../executor.ts";
import { DEFAULT_LEASE_MS } from "../invariants.ts";
import { memoryStore } from "../memory-store.ts";
import { approvalAsksOf } from "../runtime/context/approval-asks.ts";
import { createConfigurator } from "../runtime/context/configuration.ts";
import { livePassesOf } from "../runtime/context/live-passes.ts";
import type { RunContext } from "../runtime/context/run-context.ts";
import { eventSink, type RuntimeEvent } from "../runtime/context/runtime-event.ts";
import { toolCallMemory } from "../runtime/context/tool-call-memory.ts";
import { connectorHooks } from "../runtime/context/values.ts";
import { MockExecutor } from "./mock-executor.ts";

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
