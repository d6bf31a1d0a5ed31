import { checkBindingShown, checkToolCallBinding } from "./check-tool-call-binding.ts";
import {
  type EntryCondition,
  type EntryState,
  type ExecutionRecord,
  type ExecutionStatus,
  type Journal,
  type JournalEntry,
  type JournalStore,
  type LeaseClaim,
  type LeaseCondition,
  leaseAllows,
  noSuchRun,
  type SnippetRecord,
  TERMINAL_STATUSES,
  type ToolCallBinding,
} from "./journal-store.ts";
import { createStoreLocal } from "./runtime/context/store-local.ts";

const copyExecution = (record: ExecutionRecord): ExecutionRecord => ({
  ...record,
  connectors: [...record.connectors],
  ...(record.logs ? { logs: [...record.logs] } : {}),
  ...(record.lease ? { lease: { ...record.lease } } : {}),
});
const copyEntry = (entry: JournalEntry): JournalEntry => ({ ...entry });
const copySnippet = (snippet: SnippetRecord): SnippetRecord => ({
  ...snippet,
  connectors: [...snippet.connectors],
});

/** Newest first: creation time, then id. */
const newestFirst = (a: ExecutionRecord, b: ExecutionRecord) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Drops keys whose value is `undefined`, as a database column set to NULL does. */
function patched<T extends object>(record: T, patch: object): T {
  const next = { ...record, ...patch } as Record<string, unknown>;
  for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
  return next as T;
}

/** A binding as the memory store keeps it: with its insertion number, the order after `createdAt`. */
interface KeptBinding {
  binding: ToolCallBinding;
  num: number;
}

class MemoryJournal implements Journal {
  readonly specificationVersion = "v1";
  private readonly executions = new Map<string, ExecutionRecord>();
  private readonly entries = new Map<string, Map<number, JournalEntry>>();
  private readonly snippets = new Map<string, SnippetRecord>();
  private readonly bindings = new Map<string, KeptBinding>();
  private bindingsMade = 0;

  async createExecution(record: ExecutionRecord): Promise<void> {
    if (this.executions.has(record.id)) throw new Error(`Execution "${record.id}" exists already.`);
    this.executions.set(record.id, copyExecution(record));
  }

  async getExecution(id: string): Promise<ExecutionRecord | undefined> {
    const record = this.executions.get(id);
    return record && copyExecution(record);
  }

  async listExecutions(
    options: { limit?: number; statuses?: readonly ExecutionStatus[] } = {},
  ): Promise<ExecutionRecord[]> {
    const statuses = options.statuses ?? [];
    return [...this.executions.values()]
      .filter((record) => statuses.length === 0 || statuses.includes(record.status))
      .sort(newestFirst)
      .slice(0, options.limit ?? Number.POSITIVE_INFINITY)
      .map(copyExecution);
  }

  async updateExecution(
    id: string,
    expected: readonly ExecutionStatus[],
    patch: Partial<Omit<ExecutionRecord, "id" | "createdAt">>,
    lease?: LeaseCondition,
  ): Promise<boolean> {
    const record = this.executions.get(id);
    if (!record || !expected.includes(record.status)) return false;
    if (lease && !leaseAllows(record, lease)) return false;
    this.executions.set(id, copyExecution(patched(record, patch)));
    return true;
  }

  async deleteExecution(id: string): Promise<boolean> {
    this.entries.delete(id);
    return this.executions.delete(id);
  }

  async pruneExecutions(keep: number, except?: string): Promise<string[]> {
    const ids = [...this.executions.values()]
      .filter((record) => TERMINAL_STATUSES.includes(record.status) && record.id !== except)
      .sort(newestFirst)
      .slice(Math.max(0, keep))
      .map((record) => record.id);
    for (const id of ids) await this.deleteExecution(id);
    return ids;
  }

  async listStale(
    statuses: readonly ExecutionStatus[],
    before: number,
  ): Promise<ExecutionRecord[]> {
    return [...this.executions.values()]
      .filter((record) => statuses.includes(record.status) && record.updatedAt < before)
      .sort((a, b) => -newestFirst(a, b))
      .map(copyExecution);
  }

  async listLapsed(now: number): Promise<ExecutionRecord[]> {
    return [...this.executions.values()]
      .filter((record) => record.status === "running" && leaseAllows(record, { lapsedBefore: now }))
      .sort((a, b) => -newestFirst(a, b))
      .map(copyExecution);
  }

  async getEntry(executionId: string, seq: number): Promise<JournalEntry | undefined> {
    const entry = this.entries.get(executionId)?.get(seq);
    return entry && copyEntry(entry);
  }

  async listEntries(
    executionId: string,
    options: { states?: readonly EntryState[] } = {},
  ): Promise<JournalEntry[]> {
    const { states } = options;
    return [...(this.entries.get(executionId)?.values() ?? [])]
      .filter((entry) => !states || states.includes(entry.state))
      .sort((a, b) => a.seq - b.seq)
      .map(copyEntry);
  }

  async putEntry(entry: JournalEntry, lease?: LeaseClaim): Promise<boolean> {
    const run = this.executions.get(entry.executionId);
    if (!run) throw noSuchRun(entry);
    if (lease) {
      if (run.status !== "running" || !leaseAllows(run, lease)) return false;
      if (lease.renewUntil !== undefined) {
        run.lease = { owner: lease.owner, expiresAt: lease.renewUntil };
      }
    }
    const entries = this.entries.get(entry.executionId) ?? new Map<number, JournalEntry>();
    this.entries.set(entry.executionId, entries);
    entries.set(entry.seq, copyEntry(entry));
    return true;
  }

  async updateEntry(
    executionId: string,
    seq: number,
    expected: readonly EntryState[],
    patch: Partial<Omit<JournalEntry, "executionId" | "seq" | "createdAt">>,
    condition?: EntryCondition,
  ): Promise<boolean> {
    const entry = this.entries.get(executionId)?.get(seq);
    if (!entry || !expected.includes(entry.state)) return false;
    if (condition && "unchangedSince" in condition) {
      if (entry.updatedAt !== condition.unchangedSince) return false;
    } else if (condition) {
      const lease = condition;
      const run = this.executions.get(executionId);
      // checked and renewed with the entry's state, in this one synchronous step
      if (run?.status !== "running" || !leaseAllows(run, lease)) return false;
      if (lease.renewUntil !== undefined) {
        run.lease = { owner: lease.owner, expiresAt: lease.renewUntil };
      }
    }
    this.entries.get(executionId)?.set(seq, patched(entry, patch));
    return true;
  }

  async applyEntry(
    executionId: string,
    seq: number,
    outcome: { result?: string; error?: string; updatedAt: number },
  ): Promise<boolean> {
    return this.updateEntry(executionId, seq, ["executing"], {
      state: "applied",
      result: outcome.result,
      error: outcome.error,
      updatedAt: outcome.updatedAt,
    });
  }

  async bindToolCall(binding: ToolCallBinding): Promise<ToolCallBinding> {
    checkToolCallBinding(binding);
    const kept = this.bindings.get(binding.key);
    if (kept) return { ...kept.binding };
    this.bindings.set(binding.key, { binding: { ...binding }, num: ++this.bindingsMade });
    return { ...binding };
  }

  async getToolCallBinding(key: string): Promise<ToolCallBinding | undefined> {
    const kept = this.bindings.get(key);
    return kept && { ...kept.binding };
  }

  async showToolCall(key: string, shown: string): Promise<ToolCallBinding | undefined> {
    checkBindingShown(shown);
    const kept = this.bindings.get(key);
    if (!kept) return undefined;
    if (kept.binding.shown === undefined) kept.binding = { ...kept.binding, shown };
    return { ...kept.binding };
  }

  async pruneToolCallBindings(keep: number): Promise<number> {
    if (!(keep < this.bindings.size)) return 0;
    const extra = [...this.bindings.values()]
      .sort((a, b) => b.binding.createdAt - a.binding.createdAt || b.num - a.num)
      .slice(Math.max(0, Math.floor(keep)));
    for (const kept of extra) this.bindings.delete(kept.binding.key);
    return extra.length;
  }

  async putSnippet(snippet: SnippetRecord): Promise<void> {
    this.snippets.set(snippet.name, copySnippet(snippet));
  }

  async getSnippet(name: string): Promise<SnippetRecord | undefined> {
    const snippet = this.snippets.get(name);
    return snippet && copySnippet(snippet);
  }

  async listSnippets(): Promise<SnippetRecord[]> {
    return [...this.snippets.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map(copySnippet);
  }

  async deleteSnippet(name: string): Promise<boolean> {
    return this.snippets.delete(name);
  }
}

/**
 * A journal store in memory: for tests and for a page that runs the runtime itself. It keeps
 * nothing across a restart; the same store suite holds it to the SQL store's behaviour.
 */
export function memoryStore(): JournalStore {
  const journals = new Map<string, MemoryJournal>();
  return {
    specificationVersion: "v1",
    local: createStoreLocal(),
    journal(name) {
      const journal = journals.get(name) ?? new MemoryJournal();
      journals.set(name, journal);
      return journal;
    },
  };
}
