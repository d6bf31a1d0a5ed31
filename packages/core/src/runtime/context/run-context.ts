import type { ExecutionEndStatus, PassEndStatus } from "../../connector.ts";
import type { ExecuteLimits, Executor } from "../../executor.ts";
import type { Journal } from "../../journal-store.ts";
import type { ApprovalAsks } from "./approval-asks.ts";
import type { Configurator } from "./configuration.ts";
import type { LivePasses } from "./live-passes.ts";
import type { RuntimeEvent } from "./runtime-event.ts";
import type { ToolCallMemory } from "./tool-call-memory.ts";

/** The runtime's `limits`: the executor's, and the budgets of one pass. */
export type RuntimeLimits = ExecuteLimits & {
  maxCalls?: number;
  maxLookups?: number;
  maxSnippetRuns?: number;
};

/** What every step of the runtime works with: passed explicitly, so each part can be tested alone. */
export interface RunContext {
  journal: Journal;
  executor: Executor;
  configurator: Configurator;
  now: () => number;
  limits: RuntimeLimits | undefined;
  maxCalls: number;
  /** `codemode.search`, `describe` and `run` lookups one pass may make (`limits.maxLookups`) */
  maxLookups: number;
  /** saved programs one pass may start with `codemode.run` (`limits.maxSnippetRuns`) */
  maxSnippetRuns: number;
  maxExecutions: number;
  /** how long a pass's lease on its run lasts without renewal (the heartbeat renews it every third) */
  leaseMs: number;
  transformResult: ((result: unknown) => unknown) | undefined;
  /** the runs with a pass running over this store in this process */
  live: LivePasses;
  /** the approvals in flight and the calls passes are making wait, over this store in this process */
  asks: ApprovalAsks;
  /** what the runtime's `codemode` tool remembers between the requests of one tool call */
  toolCalls: ToolCallMemory;
  /** tells the runtime's `onEvent` observer (a no-op without one; never throws) */
  emit(event: RuntimeEvent): void;
  /** the connectors' end-of-pass and end-of-run hooks; a failing hook never changes the outcome */
  hooks(
    executionId: string,
    pass: PassEndStatus | undefined,
    end: ExecutionEndStatus | undefined,
  ): Promise<void>;
}
