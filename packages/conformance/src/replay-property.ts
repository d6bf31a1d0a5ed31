// A property every executor must keep under the durable runtime: generated programs (reads with
// generated arguments, Promise.all, codemode.step of Math.random and Date.now, try/catch around a
// method that throws for some inputs, loops and branches on earlier replies) pause at a gated call;
// the approval pass replays what was recorded and ends with the value a host-side evaluation of the
// same program gives, and no recorded read reaches the connector again.
import {
  type Connector,
  createCodemodeRuntime,
  createValueCodec,
  type Executor,
  memoryStore,
} from "@codemode/core";
import fc from "fast-check";
import { describe, expect } from "vitest";
import type { conformanceTest } from "./known-gaps.ts";

type Test = ReturnType<typeof conformanceTest>;
type Method = "read" | "list" | "fail" | "write";
type Counts = Record<Method, number>;

/** Each run is two passes of a real sandbox: enough runs to vary the programs, few enough to be quick. */
const RUNS = 15;
const SLOW_TEST_MS = 120_000;

// ---------------------------------------------------------------------------------------------
// The connector: deterministic replies with the values the codec must keep (Date, Set, Map, bigint)

/** The codec's canonical text: equal for equal values (sorted keys; Date, Set, Map, bigint kept). */
const codec = createValueCodec();

/** A small number that depends on the whole input (FNV-1a over its canonical text). */
function digest(input: unknown): number {
  let hash = 0x811c9dc5;
  for (const character of codec.encode(input, { canonical: true })) {
    hash ^= character.codePointAt(0) as number;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % 1000;
}

/** What the connector answers; `fail` throws for about half of its inputs. */
function reply(method: Method, input: unknown): unknown {
  const n = digest(input);
  switch (method) {
    case "read":
      return {
        n,
        echo: input,
        at: new Date(Date.UTC(2024, 0, 1) + n * 60_000),
        tags: new Set([n % 3, "tag"]),
        big: BigInt(n) * 10n ** 15n,
        missing: undefined,
      };
    case "list":
      return [n, n + 1, new Map<unknown, unknown>([["input", input]])];
    case "fail":
      if (n % 2 === 0) throw new Error(`no record for ${n}`);
      return { ok: n };
    case "write":
      return { written: n };
  }
}

function dataConnector(counts: Counts, gated: boolean): Connector {
  const method = (description: string) => ({
    description,
    inputSchema: { type: "object" as const },
  });
  return {
    specificationVersion: "v1",
    name: "data",
    methods: () => ({
      read: method("Read a record."),
      list: method("List records."),
      fail: method("Read a record that may be missing (throws)."),
      write: { ...method("Write the values seen so far."), requiresApproval: gated },
    }),
    invoke: async (name, input) => {
      const known = name as Method;
      counts[known]++;
      return reply(known, input);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Programs: statements over the connector, written out as JavaScript and evaluated on the host

interface Argument {
  key: number;
  data: unknown;
  /** an earlier value (by position, wrapped to the values there are) whose number joins the input */
  prev: number | null;
}
interface Call {
  method: "read" | "list";
  argument: Argument;
}
type Statement =
  | { kind: "call"; call: Call }
  | { kind: "all"; calls: Call[] }
  | { kind: "step"; source: "random" | "now" | "both" }
  | { kind: "try"; argument: Argument }
  | { kind: "loop"; method: "read" | "list"; count: number; offset: number; data: unknown }
  | { kind: "branch"; on: number; yes: Call; no: Call };
interface Program {
  before: Statement[];
  after: Statement[];
}

/** Drops `__proto__` keys: in a JavaScript object literal that key sets the prototype instead. */
const plain = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value), (key, item) => (key === "__proto__" ? undefined : item));

const data = fc
  .oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom("héllo ✓", "\u2028", "🙂", 'quote " and \\', "", 1e21, -1.5, null),
    },
  )
  .map(plain);

const argument: fc.Arbitrary<Argument> = fc.record({
  key: fc.nat(50),
  data,
  prev: fc.option(fc.nat(20)),
});
const call: fc.Arbitrary<Call> = fc.record({
  method: fc.constantFrom("read", "list"),
  argument,
});
const statement: fc.Arbitrary<Statement> = fc.oneof(
  { weight: 3, arbitrary: call.map((value) => ({ kind: "call" as const, call: value })) },
  {
    weight: 2,
    arbitrary: fc
      .array(call, { minLength: 2, maxLength: 3 })
      .map((calls) => ({ kind: "all" as const, calls })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("random", "now", "both")
      .map((source) => ({ kind: "step" as const, source })),
  },
  { weight: 2, arbitrary: argument.map((value) => ({ kind: "try" as const, argument: value })) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("loop" as const),
      method: fc.constantFrom("read", "list"),
      count: fc.nat(3),
      offset: fc.nat(50),
      data,
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("branch" as const),
      on: fc.nat(20),
      yes: call,
      no: call,
    }),
  },
);
const programArbitrary: fc.Arbitrary<Program> = fc.record({
  before: fc.array(statement, { minLength: 1, maxLength: 6 }),
  after: fc.array(statement, { maxLength: 2 }),
});

/** The number a value stands for, the same in the sandbox and on the host (written out below). */
const NUM_SOURCE = `(value) => typeof value === "number" ? value
    : Array.isArray(value) ? (value.length > 0 ? num(value[0]) : 0)
    : value !== null && typeof value === "object" ? num(value.n ?? value.ok ?? value.r ?? 0)
    : 0`;
function num(value: unknown): number {
  if (typeof value === "number") return value;
  if (Array.isArray(value)) return value.length > 0 ? num(value[0]) : 0;
  if (value !== null && typeof value === "object") {
    const record = value as { n?: unknown; ok?: unknown; r?: unknown };
    return num(record.n ?? record.ok ?? record.r ?? 0);
  }
  return 0;
}

/** `Math.floor(num(x) * 1000) % 2 === 0`: a branch on an earlier reply or step. */
const even = (value: unknown) => Math.floor(num(value) * 1000) % 2 === 0;

/** The JavaScript of a program (one async arrow function, as a model would write it). */
function codeOf(program: Program): string {
  const lines: string[] = [`const num = ${NUM_SOURCE};`];
  let count = 0;
  const earlier = (index: number | null) => (index === null || count === 0 ? null : index % count);
  const input = (value: Argument) => {
    const prev = earlier(value.prev);
    const parts = [`key: ${value.key}`, `data: ${JSON.stringify(value.data)}`];
    if (prev !== null) parts.push(`prev: num(v${prev})`);
    return `{ ${parts.join(", ")} }`;
  };
  const callText = (value: Call) => `data.${value.method}(${input(value.argument)})`;
  const write = (statements: Statement[]) => {
    for (const item of statements) {
      const name = `v${count}`;
      switch (item.kind) {
        case "call":
          lines.push(`const ${name} = await ${callText(item.call)};`);
          break;
        case "all":
          lines.push(
            `const ${name} = await Promise.all([${item.calls.map(callText).join(", ")}]);`,
          );
          break;
        case "step": {
          const body = {
            random: "Math.random()",
            now: "Date.now()",
            both: "({ r: Math.random(), t: Date.now() })",
          }[item.source];
          lines.push(`const ${name} = await codemode.step("step ${count}", () => ${body});`);
          break;
        }
        case "try":
          lines.push(
            `let ${name};`,
            `try { ${name} = await data.fail(${input(item.argument)}); }`,
            `catch (error) { ${name} = { caught: String(error && error.message) }; }`,
          );
          break;
        case "loop":
          lines.push(
            `const ${name} = [];`,
            `for (let i = 0; i < ${item.count}; i++) {`,
            `  ${name}.push(await data.${item.method}({ key: ${item.offset} + i, data: ${JSON.stringify(item.data)} }));`,
            "}",
          );
          break;
        case "branch": {
          const on = earlier(item.on);
          const condition = on === null ? "true" : `Math.floor(num(v${on}) * 1000) % 2 === 0`;
          lines.push(
            `let ${name};`,
            `if (${condition}) { ${name} = await ${callText(item.yes)}; }`,
            `else { ${name} = await ${callText(item.no)}; }`,
          );
          break;
        }
      }
      count++;
    }
  };
  write(program.before);
  const seen = Array.from({ length: count }, (_, index) => `v${index}`).join(", ");
  lines.push(`const gate = await data.write({ seen: [${seen}] });`);
  const gateAt = count;
  write(program.after);
  const after = Array.from({ length: count - gateAt }, (_, index) => `v${gateAt + index}`);
  lines.push(`return { before: [${seen}], gate, after: [${after.join(", ")}] };`);
  return `async () => {\n  ${lines.join("\n  ")}\n}`;
}

interface Evaluation {
  result: { before: unknown[]; gate: unknown; after: unknown[] };
  /** connector calls before the gate, and after it (the gate itself not counted) */
  before: Counts;
  after: Counts;
}

const zero = (): Counts => ({ read: 0, list: 0, fail: 0, write: 0 });

/** The program evaluated on the host, with the connector's replies and the recorded step values. */
function evaluate(program: Program, steps: unknown[]): Evaluation {
  const values: unknown[] = [];
  const before = zero();
  const after = zero();
  let counts = before;
  let nextStep = 0;
  const earlier = (index: number | null) =>
    index === null || values.length === 0 ? null : index % values.length;
  const input = (value: Argument) => {
    const prev = earlier(value.prev);
    return {
      key: value.key,
      data: value.data,
      ...(prev === null ? {} : { prev: num(values[prev]) }),
    };
  };
  const invoke = (method: Method, argument: unknown) => {
    counts[method]++;
    return reply(method, argument);
  };
  const run = (statements: Statement[]) => {
    for (const item of statements) {
      switch (item.kind) {
        case "call":
          values.push(invoke(item.call.method, input(item.call.argument)));
          break;
        case "all": {
          const inputs = item.calls.map((value) => input(value.argument));
          values.push(item.calls.map((value, index) => invoke(value.method, inputs[index])));
          break;
        }
        case "step":
          values.push(steps[nextStep++]);
          break;
        case "try":
          try {
            values.push(invoke("fail", input(item.argument)));
          } catch (error) {
            values.push({ caught: (error as Error).message });
          }
          break;
        case "loop":
          values.push(
            Array.from({ length: item.count }, (_, i) =>
              invoke(item.method, { key: item.offset + i, data: item.data }),
            ),
          );
          break;
        case "branch": {
          const on = earlier(item.on);
          const chosen = on === null || even(values[on]) ? item.yes : item.no;
          values.push(invoke(chosen.method, input(chosen.argument)));
          break;
        }
      }
    }
  };
  run(program.before);
  const seen = [...values];
  const gate = reply("write", { seen });
  counts = after;
  run(program.after);
  return { result: { before: seen, gate, after: values.slice(seen.length) }, before, after };
}

// ---------------------------------------------------------------------------------------------

/** The replay property as a test of the executor suite (see `runExecutorConformance`). */
export function replayProperty(test: Test, create: () => Promise<Executor>): void {
  describe("replay property", () => {
    const group = "replay property";
    test(
      group,
      "an approval pass replays generated programs to the live result without calling reads again",
      async () => {
        await fc.assert(
          fc.asyncProperty(programArbitrary, async (program) => {
            const code = codeOf(program);
            try {
              await checkProgram(program, code, create);
            } catch (error) {
              const message = error instanceof Error ? error.message : String(error);
              throw new Error(`${message}\n\nprogram:\n${code}`);
            }
          }),
          { numRuns: RUNS },
        );
      },
      SLOW_TEST_MS,
    );
  });
}

async function checkProgram(
  program: Program,
  code: string,
  create: () => Promise<Executor>,
): Promise<void> {
  const counts = zero();
  const store = memoryStore();
  // every pass gets a new executor and connector, as an application makes them per request
  const runtimeFor = async () =>
    createCodemodeRuntime({
      store,
      executor: await create(),
      connectors: [dataConnector(counts, true)],
    });

  const live = await (await runtimeFor()).execute({ code });
  expect(live, "the live pass pauses at the gated write").toMatchObject({ status: "paused" });
  if (live.status !== "paused") return;
  expect(live.pending.map(({ connector, method }) => `${connector}.${method}`)).toEqual([
    "data.write",
  ]);
  const liveCounts = { ...counts };

  const approved = await (await runtimeFor()).approve({ executionId: live.executionId });
  expect(approved, "the approval pass completes").toMatchObject({ status: "completed" });
  if (approved.status !== "completed") return;

  const execution = await (await runtimeFor()).execution(live.executionId);
  const steps = (execution?.calls ?? [])
    .filter((entry) => entry.kind === "step")
    .sort((a, b) => a.seq - b.seq)
    .map((entry) => entry.result);
  const expected = evaluate(program, steps);
  const result = approved.result as Evaluation["result"];

  expect(liveCounts, "connector calls of the live pass").toEqual(expected.before);
  expect(
    (live.pending[0]?.args as { seen?: unknown })?.seen,
    "what the live pass saw before the gate",
  ).toEqual(expected.result.before);
  expect(result.before, "what the approval pass saw before the gate (replayed)").toEqual(
    (live.pending[0]?.args as { seen?: unknown })?.seen,
  );
  expect(result, "the approval pass's result").toEqual(expected.result);
  const added = Object.fromEntries(
    (Object.keys(counts) as Method[]).map((method) => [
      method,
      counts[method] - liveCounts[method],
    ]),
  );
  expect(added, "connector calls of the approval pass: the gate once, then the new reads").toEqual({
    ...expected.after,
    write: 1,
  });
}
