import type { ExecutionEndStatus, PassEndStatus } from "../connector.ts";
import type { ExecuteLimits, Executor } from "../executor.ts";
import type { Journal } from "../journal-store.ts";
import { createValueCodec } from "../value-codec.ts";
import type { ApprovalAsks } from "./approval-asks.ts";
import type { Configurator } from "./configuration.ts";
import type { LivePasses } from "./live-passes.ts";
import type { RuntimeEvent } from "./runtime-event.ts";

/** What every step of the runtime works with: passed explicitly, so each part can be tested alone. */
export interface RunContext {
  journal: Journal;
  executor: Executor;
  configurator: Configurator;
  now: () => number;
  limits: (ExecuteLimits & { maxCalls?: number }) | undefined;
  maxCalls: number;
  maxExecutions: number;
  /** how long a pass's lease on its run lasts without renewal (the heartbeat renews it every third) */
  leaseMs: number;
  transformResult: ((result: unknown) => unknown) | undefined;
  /** the runs with a pass running over this store in this process */
  live: LivePasses;
  /** the approvals in flight and the calls passes are making wait, over this store in this process */
  asks: ApprovalAsks;
  /** tells the runtime's `onEvent` observer (a no-op without one; never throws) */
  emit(event: RuntimeEvent): void;
  /** the connectors' end-of-pass and end-of-run hooks; a failing hook never changes the outcome */
  hooks(
    executionId: string,
    pass: PassEndStatus | undefined,
    end: ExecutionEndStatus | undefined,
  ): Promise<void>;
}

export const codec = createValueCodec();

export const PAUSE =
  "The run is paused: a call is waiting for approval. Nothing after it runs in this pass.";

/** The idempotency key of a call: the same for every pass of the run. */
export const idempotencyKey = (executionId: string, seq: number) => `${executionId}:${seq}`;

export function preview(text: string | undefined, length = 120): string {
  if (text === undefined) return "";
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** Runs the hooks of `connectors` in order, swallowing their failures. */
export function connectorHooks(
  connectors: readonly {
    onPassEnd?(executionId: string, status: PassEndStatus): unknown;
    disposeExecution?(executionId: string, status: ExecutionEndStatus): unknown;
  }[],
): RunContext["hooks"] {
  return async (executionId, pass, end) => {
    for (const connector of connectors) {
      try {
        if (pass) await connector.onPassEnd?.(executionId, pass);
      } catch {
        // a failing cleanup never turns the outcome into an error
      }
      try {
        if (end) await connector.disposeExecution?.(executionId, end);
      } catch {
        // idem
      }
    }
  };
}
