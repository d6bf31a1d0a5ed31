// The connector the crash and race tests count side effects with: each effect is one JSON line appended
// to a ledger file (the outside world, shared by every process), carrying the call's idempotency key.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import type { CallContext } from "@codemode/core";
import { functionConnector } from "../src/index.ts";

export interface LedgerLine {
  op: "read" | "apply" | "dedup" | "revert";
  execution: string;
  key: string;
  item?: string;
  pid: number;
}

export function readLedger(ledger: string, execution?: string): LedgerLine[] {
  if (!existsSync(ledger)) return [];
  return readFileSync(ledger, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LedgerLine)
    .filter((line) => execution === undefined || line.execution === execution);
}

/** `op item` for each line of one run: what the outside world saw, in order. */
export const effects = (ledger: string, execution: string) =>
  readLedger(ledger, execution).map((line) => `${line.op}${line.item ? ` ${line.item}` : ""}`);

/**
 * `bank.read` counts the run's applied writes, `bank.write` applies one (with `dedup`, it applies a key
 * it has seen only once), `bank.send` is the same behind an approval, `bank.ask` waits for
 * `runtime.resolve`. `afterEffect` runs once an effect is in the ledger, before the call returns (with
 * the item, or `-item` for a revert).
 */
export function bankConnector(
  ledger: string,
  afterEffect?: (item: string, context: CallContext) => void | Promise<void>,
) {
  const append = (line: Omit<LedgerLine, "pid">) =>
    appendFileSync(ledger, `${JSON.stringify({ ...line, pid: process.pid })}\n`);
  const apply = async (
    { item, dedup }: { item: string; dedup?: boolean },
    context: CallContext,
  ) => {
    const execution = context.executionId;
    const seen = readLedger(ledger, execution).some(
      (line) => line.op === "apply" && line.key === context.idempotencyKey,
    );
    append({ op: dedup && seen ? "dedup" : "apply", execution, key: context.idempotencyKey, item });
    await afterEffect?.(item, context);
    return { item, key: context.idempotencyKey };
  };
  const revert = async ({ item }: { item: string }, _result: unknown, context: CallContext) => {
    append({ op: "revert", execution: context.executionId, key: context.idempotencyKey, item });
    await afterEffect?.(`-${item}`, context);
  };
  return functionConnector({
    name: "bank",
    methods: {
      read: {
        execute: async (_input: unknown, context: CallContext) => {
          append({ op: "read", execution: context.executionId, key: context.idempotencyKey });
          return readLedger(ledger, context.executionId).filter((line) => line.op === "apply")
            .length;
        },
      },
      write: { execute: apply, revert },
      send: { requiresApproval: true, execute: apply, revert },
      ask: { deferred: true },
    },
  });
}
