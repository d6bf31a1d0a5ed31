// The records the journal store suite writes: runs, entries and tool-call bindings, each with a
// unique id and fields a test may override.
import type { ExecutionRecord, JournalEntry, ToolCallBinding } from "@codemode/core";

let counter = 0;

export function execution(overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  counter += 1;
  const time = 1_000_000 + counter;
  return {
    id: `exec_${String(time).padStart(16, "0")}_${counter}`,
    code: "async () => 1",
    status: "running",
    connectors: ["github"],
    createdAt: time,
    updatedAt: time,
    ...overrides,
  };
}

export function entry(
  executionId: string,
  seq: number,
  overrides: Partial<JournalEntry> = {},
): JournalEntry {
  return {
    executionId,
    seq,
    kind: "call",
    connector: "github",
    method: "list_issues",
    args: '{"repo":"a"}',
    state: "executing",
    requiresApproval: false,
    deferred: false,
    replay: "record",
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

export function binding(overrides: Partial<ToolCallBinding> = {}): ToolCallBinding {
  counter += 1;
  return {
    key: `call_${String(counter).padStart(64, "0")}`,
    executionId: `exec_bound_${counter}`,
    createdAt: 1_000_000 + counter,
    ...overrides,
  };
}
