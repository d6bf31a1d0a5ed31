// Replay divergence through the executor under test: a run pauses at an approval-gated write after
// many reads, its recorded journal is changed (calls swapped, dropped, added, inputs edited, methods
// and connectors renamed), and the approval must end in a divergence error that names the first
// changed seq, with no connector call made, also where the executor answers replayed calls inside
// its sandbox. The unchanged journal approves as usual.
import {
  type Connector,
  createCodemodeRuntime,
  type ExecuteRequest,
  type Executor,
  type JournalEntry,
  type JournalStore,
  memoryStore,
} from "@codemode/core";
import { expect } from "vitest";
import type { DeclareTest } from "./known-gaps.ts";

export interface DivergenceTestOptions {
  /** the suite's `it` inside the group's `describe` (known gaps applied) */
  test: DeclareTest;
  createExecutor: () => Promise<Executor>;
  /** the executor declares `replay`: it answers the recorded calls that match in its sandbox */
  replay: boolean;
}

const RUNTIME = "divergence";
/** Enough recorded reads that an executor answering replay in its sandbox does so (QuickJS: 16). */
const READS = 20;
/** The seq of the gated write: after every read. */
const WRITE = READS;
const SLOW_TEST_MS = 300_000;

const PROGRAM = `async () => {
  const seen = [];
  for (let key = 0; key < ${READS}; key++) seen.push((await kv.read({ key })).value);
  const written = await kv.write({ key: 99, value: seen.length });
  return { seen, written };
}`;

/** One call that reached a connector. */
export interface Invocation {
  connector: string;
  method: string;
  input: unknown;
  idempotencyKey: string;
}

const KEY = { type: "object", properties: { key: { type: "number" } }, required: ["key"] };

/** A connector written by hand: reads (`read`, `peek`) and, for `kv`, an approval-gated `write`. */
export function connector(name: string, ledger: Invocation[], gatedWrite: boolean): Connector {
  return {
    specificationVersion: "v1",
    name,
    methods: () => ({
      read: { description: "Read one value.", inputSchema: KEY },
      peek: { description: "Read one value without counting it.", inputSchema: KEY },
      ...(gatedWrite
        ? {
            write: {
              description: "Write one value.",
              inputSchema: {
                type: "object",
                properties: { key: { type: "number" }, value: {} },
                required: ["key"],
              },
              requiresApproval: true,
            },
          }
        : {}),
    }),
    async invoke(method, input, context) {
      ledger.push({ connector: name, method, input, idempotencyKey: context.idempotencyKey });
      const { key } = input as { key: number };
      return method === "write" ? { written: key } : { key, value: `${name} ${method} ${key}` };
    },
  };
}

/** The executor as the runtime gets it, counting the calls it reports answered in its sandbox. */
function counting(executor: Executor): { executor: Executor; answered: () => number } {
  let answered = 0;
  return {
    answered: () => answered,
    executor: {
      specificationVersion: "v1",
      execute(request: ExecuteRequest) {
        const hint = request.replay;
        if (!hint) return executor.execute(request);
        return executor.execute({
          ...request,
          replay: {
            get calls() {
              return hint.calls;
            },
            advance(count) {
              answered += count;
              hint.advance(count);
            },
          },
        });
      },
    },
  };
}

/** A run paused at the write, and what to build the approving runtime from. */
async function pausedRun(options: DivergenceTestOptions) {
  const ledger: Invocation[] = [];
  const connectors = () => [connector("kv", ledger, true), connector("mirror", ledger, false)];
  const executor = await options.createExecutor();
  const store = memoryStore();
  const first = await createCodemodeRuntime({
    store,
    executor,
    connectors: connectors(),
    name: RUNTIME,
  }).execute({ code: PROGRAM });
  expect(first, "the first pass pauses at the write").toMatchObject({
    status: "paused",
    pending: [{ seq: WRITE, connector: "kv", method: "write", args: { key: 99, value: READS } }],
  });
  expect(ledger.map((call) => call.method)).toEqual(Array(READS).fill("read"));
  const executionId = first.executionId;
  /** A new request's runtime over `journal` (connectors and executor made anew, as an app does). */
  const approving = (journal: JournalStore) => {
    const counted = counting(executor);
    const runtime = createCodemodeRuntime({
      store: journal,
      executor: counted.executor,
      connectors: connectors(),
      name: RUNTIME,
    });
    return { runtime, answered: counted.answered };
  };
  return { store, executionId, ledger, approving };
}

/**
 * The run's journal, changed by `change` (entries in, entries out, numbered by their position), in a
 * store of its own, written through the store API: what the next request's runtime reads.
 */
async function rewritten(
  store: JournalStore,
  executionId: string,
  change: (entries: JournalEntry[]) => JournalEntry[],
): Promise<JournalStore> {
  const source = store.journal(RUNTIME);
  const copy = memoryStore();
  const target = copy.journal(RUNTIME);
  const execution = await source.getExecution(executionId);
  if (!execution) throw new Error(`no execution ${executionId}`);
  await target.createExecution(execution);
  const entries = change(await source.listEntries(executionId));
  for (const [position, entry] of entries.entries()) {
    await target.putEntry({ ...entry, seq: position });
  }
  return copy;
}

const args = (value: unknown) => JSON.stringify(value);
/** An applied read of `key` in the shape of `template` (plain data: its codec text is its JSON). */
const read = (template: JournalEntry, key: number): JournalEntry => ({
  ...template,
  args: args({ key }),
  result: args({ key, value: `kv read ${key}` }),
});

interface Mutation {
  name: string;
  change: (entries: JournalEntry[]) => JournalEntry[];
  /** the seq replay must stop at, and what the journal recorded there */
  seq: number;
  recorded: string;
}

const at = (entries: JournalEntry[], seq: number) => entries[seq] as JournalEntry;
const edit = (seq: number, patch: Partial<JournalEntry>) => (entries: JournalEntry[]) =>
  entries.map((entry) => (entry.seq === seq ? { ...entry, ...patch } : entry));
const swap = (a: number, b: number) => (entries: JournalEntry[]) => {
  const changed = [...entries];
  changed[a] = at(entries, b);
  changed[b] = at(entries, a);
  return changed;
};

const MUTATIONS: Mutation[] = [
  {
    name: "two recorded reads swapped",
    change: swap(3, 4),
    seq: 3,
    recorded: 'kv.read({"key":4})',
  },
  {
    name: "a recorded read dropped",
    change: (entries) => entries.filter((entry) => entry.seq !== 5),
    seq: 5,
    recorded: 'kv.read({"key":6})',
  },
  {
    name: "a read added to the record",
    change: (entries) => [...entries.slice(0, 7), read(at(entries, 7), 70), ...entries.slice(7)],
    seq: 7,
    recorded: 'kv.read({"key":70})',
  },
  {
    name: "the first recorded read's input edited",
    change: edit(0, { args: args({ key: 0, all: true }) }),
    seq: 0,
    recorded: 'kv.read({"key":0,"all":true})',
  },
  {
    name: "a recorded read's input edited",
    change: edit(9, { args: args({ key: 90 }) }),
    seq: 9,
    recorded: 'kv.read({"key":90})',
  },
  {
    name: "a recorded read renamed to another method",
    change: edit(11, { method: "peek" }),
    seq: 11,
    recorded: 'kv.peek({"key":11})',
  },
  {
    name: "a recorded read moved to another connector",
    change: edit(13, { connector: "mirror" }),
    seq: 13,
    recorded: 'mirror.read({"key":13})',
  },
  {
    name: "a recorded read moved to a connector that is not configured",
    change: edit(17, { connector: "gone" }),
    seq: 17,
    recorded: 'gone.read({"key":17})',
  },
  {
    name: "the last read swapped with the pending write",
    change: swap(WRITE - 1, WRITE),
    seq: WRITE - 1,
    recorded: "kv.write(",
  },
  {
    name: "the pending write's input edited",
    change: edit(WRITE, { args: args({ key: 66, value: READS }) }),
    seq: WRITE,
    recorded: `kv.write({"key":66,"value":${READS}})`,
  },
  {
    name: "the pending write renamed to another method",
    change: edit(WRITE, { method: "peek" }),
    seq: WRITE,
    recorded: "kv.peek(",
  },
];

/**
 * The divergence group of the executor suite (run inside `describe("divergence")`): each change to
 * a recorded journal is detected on approval, before any connector call; an unchanged one approves.
 */
export function divergenceTests(options: DivergenceTestOptions): void {
  const { test } = options;

  test(
    "approves the unchanged journal: recorded reads replay, the write runs once",
    async () => {
      const { store, executionId, ledger, approving } = await pausedRun(options);
      const { runtime, answered } = approving(await rewritten(store, executionId, (e) => e));
      const approved = await runtime.approve({ executionId });
      expect(approved).toMatchObject({
        status: "completed",
        result: { written: { written: 99 } },
      });
      if (approved.status !== "completed") return;
      expect((approved.result as { seen: string[] }).seen).toEqual(
        Array.from({ length: READS }, (_, key) => `kv read ${key}`),
      );
      expect(ledger.slice(READS), "only the write reached a connector").toEqual([
        {
          connector: "kv",
          method: "write",
          input: { key: 99, value: READS },
          idempotencyKey: `${executionId}:${WRITE}`,
        },
      ]);
      expect(answered(), "reads answered in the sandbox").toBe(options.replay ? READS : 0);
    },
    SLOW_TEST_MS,
  );

  for (const mutation of MUTATIONS) {
    test(
      `detects ${mutation.name} at call #${mutation.seq}, before any connector call`,
      async () => {
        const { store, executionId, ledger, approving } = await pausedRun(options);
        const changed = await rewritten(store, executionId, mutation.change);
        const states = (await changed.journal(RUNTIME).listEntries(executionId)).map(
          (entry) => entry.state,
        );
        const { runtime, answered } = approving(changed);
        const approved = await runtime.approve({ executionId });
        expect(approved).toMatchObject({ status: "error", executionId });
        if (approved.status !== "error") return;
        expect(approved.error).toContain(
          `Replay divergence at call #${mutation.seq}: the journal recorded ${mutation.recorded}`,
        );
        // no read ran again and the write did not run: every call up to the change replayed
        expect(ledger.map((call) => call.method)).toEqual(Array(READS).fill("read"));
        // an executor answering in its sandbox stops at the changed call and leaves it to the host
        // (or leaves every call to the host: the hint ends before a changed entry it cannot replay)
        expect(options.replay ? [mutation.seq, 0] : [0], "reads answered in the sandbox").toContain(
          answered(),
        );
        const execution = await runtime.execution(executionId);
        expect(execution?.status).toBe("error");
        expect(execution?.error).toContain(`Replay divergence at call #${mutation.seq}`);
        // nothing was recorded as run: the approved write, which the run never reached, is
        // withdrawn with the run; no other entry changed its state
        expect(execution?.calls.map((call) => call.state)).toEqual(
          states.map((state) => (state === "pending" ? "withdrawn" : state)),
        );
        // the run is over: a second approval is refused, and still nothing runs
        expect(await runtime.approve({ executionId })).toMatchObject({ status: "error" });
        expect(ledger).toHaveLength(READS);
      },
      SLOW_TEST_MS,
    );
  }
}
