// The programs of the replay property (replay-property.ts): what fast-check generates, the JavaScript
// each one is written out as, and the same program evaluated on the host. Besides reads with
// generated arguments, Promise.all, try/catch, loops and branches, programs read the clock and chance
// as models write them, bare (`Date.now()`, `new Date().toISOString()`, `Math.random()`, a guarded
// `crypto.randomUUID()`), run `Promise.all` over read-then-read chains that push each result as it
// arrives, and call connectors in the body of a `codemode.step`. The host evaluates the clock and
// chance as a run's every pass sees them: the run's start, and the generator seeded by its seed.
import { createValueCodec } from "@codemode/core";
import { installDeterminism } from "@codemode/core/internal";
import fc from "fast-check";

export type Method = "read" | "list" | "fail" | "write";
export type Counts = Record<Method, number>;
export const zero = (): Counts => ({ read: 0, list: 0, fail: 0, write: 0 });

// ---------------------------------------------------------------------------------------------
// What the connector answers: deterministic replies with the values the codec must keep

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
export function reply(method: Method, input: unknown): unknown {
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

// ---------------------------------------------------------------------------------------------
// Programs

interface Argument {
  key: number;
  data: unknown;
  /** an earlier value (by position, wrapped to the values there are) that joins the input */
  prev: number | null;
}
interface Call {
  method: "read" | "list";
  argument: Argument;
}
/** A `Promise.all` branch: a read, then (unless null) a call keyed by what the read gave. */
interface Link {
  key: number;
  next: "read" | "list" | null;
  /** microtask hops between the read and the next call: chains of different lengths side by side */
  hops: number;
}
/** What a bare read of the clock or of chance is written as (see CHANCE). */
type Chance = "now" | "iso" | "random" | "uuid" | "ref";
type Statement =
  | { kind: "call"; call: Call }
  | { kind: "all"; calls: Call[] }
  | { kind: "step"; source: "random" | "now" | "both" }
  | { kind: "try"; argument: Argument }
  | { kind: "loop"; method: "read" | "list"; count: number; offset: number; data: unknown }
  | { kind: "branch"; on: number; yes: Call; no: Call }
  | { kind: "chance"; source: Chance }
  | { kind: "chains"; links: Link[]; data: unknown; prev: number | null }
  | { kind: "stepCalls"; calls: Call[]; draw: boolean };
export interface Program {
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
    weight: 1,
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
  {
    weight: 3,
    arbitrary: fc
      .constantFrom<Chance>("now", "iso", "random", "uuid", "ref")
      .map((source) => ({ kind: "chance" as const, source })),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("chains" as const),
      links: fc.array(
        fc.record({
          key: fc.nat(50),
          next: fc.constantFrom("read", "list", null),
          hops: fc.nat(3),
        }),
        {
          minLength: 2,
          maxLength: 3,
        },
      ),
      data,
      prev: fc.option(fc.nat(20)),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("stepCalls" as const),
      calls: fc.array(call, { minLength: 1, maxLength: 2 }),
      draw: fc.boolean(),
    }),
  },
);
export const programArbitrary: fc.Arbitrary<Program> = fc.record({
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
/** What an earlier value puts in a call's input: a string (a stamp, a uuid) as it is, else its number. */
const TAG_SOURCE = `(value) => typeof value === "string" ? value : num(value)`;
const tag = (value: unknown) => (typeof value === "string" ? value : num(value));

/** `Math.floor(num(x) * 1000) % 2 === 0`: a branch on an earlier reply or step. */
const even = (value: unknown) => Math.floor(num(value) * 1000) % 2 === 0;

/** The bare reads of the clock and chance, as models write them (no step around them). */
const CHANCE: Record<Chance, string> = {
  now: "Date.now()",
  iso: "new Date().toISOString()",
  random: "Math.random()",
  uuid: `typeof crypto === "object" && crypto.randomUUID ? crypto.randomUUID() : null`,
  ref: `\`ref-\${Date.now()}-\${Math.floor(Math.random() * 1e6)}\``,
};

/** Whether the sandbox has `crypto.randomUUID` (its draws move the generator): the result says. */
const HAS_UUID = `typeof crypto === "object" && crypto !== null && typeof crypto.randomUUID === "function"`;

/** The JavaScript of a program (one async arrow function, as a model would write it). */
export function codeOf(program: Program): string {
  const lines: string[] = [`const num = ${NUM_SOURCE};`, `const tag = ${TAG_SOURCE};`];
  let count = 0;
  const earlier = (index: number | null) => (index === null || count === 0 ? null : index % count);
  /** an input's source; `value.key` may be an expression (a link's key) */
  const input = (value: Omit<Argument, "key"> & { key: number | string }, extra = "") => {
    const prev = earlier(value.prev);
    const parts = [`key: ${value.key}`, `data: ${JSON.stringify(value.data)}`];
    if (prev !== null) parts.push(`prev: tag(v${prev})`);
    if (extra) parts.push(extra);
    return `{ ${parts.join(", ")} }`;
  };
  const callText = (value: Call, extra = "") =>
    `data.${value.method}(${input(value.argument, extra)})`;
  const write = (statements: Statement[]) => {
    for (const item of statements) {
      const name = `v${count}`;
      switch (item.kind) {
        case "call":
          lines.push(`const ${name} = await ${callText(item.call)};`);
          break;
        case "all":
          lines.push(
            `const ${name} = await Promise.all([${item.calls.map((value) => callText(value)).join(", ")}]);`,
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
        case "chance":
          lines.push(`const ${name} = ${CHANCE[item.source]};`);
          break;
        case "chains": {
          const first = input({ key: "link.key", data: item.data, prev: item.prev });
          lines.push(
            `const ${name} = { arrived: [] };`,
            `${name}.all = await Promise.all(${JSON.stringify(item.links)}.map(async (link) => {`,
            `  const a = await data.read(${first});`,
            `  ${name}.arrived.push(a.n);`,
            "  for (let hop = 0; hop < link.hops; hop++) await null;",
            "  if (link.next === null) return a.n;",
            `  const b = await (link.next === "list" ? data.list : data.read)({ key: a.n, chain: link.key });`,
            `  ${name}.arrived.push(num(b));`,
            "  return num(b);",
            "}));",
          );
          break;
        }
        case "stepCalls": {
          const calls = item.calls.map(
            (value, index) =>
              `  const s${index} = await ${callText(value, index === 0 ? "" : `link: num(s${index - 1})`)};`,
          );
          const last = `s${item.calls.length - 1}`;
          const draw = item.draw ? ", r: Math.random()" : "";
          lines.push(
            `const ${name} = await codemode.step("calls ${count}", async () => {`,
            ...calls,
            `  return { n: num(${last})${draw}, first: s0 };`,
            "});",
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
  lines.push(
    `return { before: [${seen}], gate, after: [${after.join(", ")}], uuid: ${HAS_UUID} };`,
  );
  return `async () => {\n  ${lines.join("\n  ")}\n}`;
}

// ---------------------------------------------------------------------------------------------
// The program on the host

/** What every pass of a run reads of the clock and chance, and whether its sandbox has a uuid. */
export interface RunWorld {
  /** the run's start (journaled): what `Date` reads */
  time: number;
  /** the run's seed (`ExecutionRecord.seed`): what the generator behind `Math.random()` and `crypto` is seeded with */
  seed: string;
  uuid: boolean;
}

export interface Evaluation {
  result: { before: unknown[]; gate: unknown; after: unknown[]; uuid: boolean };
  /** connector calls before the gate, and after it (the gate itself not counted) */
  before: Counts;
  after: Counts;
}

/** The run's generator, as the prelude installs it in the sandbox (on objects of the host's own). */
function chanceOf(world: RunWorld): { random: () => number; uuid: () => string } {
  const math = {} as { random: () => number };
  const crypto = {} as { randomUUID: () => string };
  // no `Date` in this scope: the clock is left alone (the host's own Date must not change)
  const scope = { Math: math, crypto } as unknown as Parameters<typeof installDeterminism>[0];
  installDeterminism(scope, world.seed, world.time);
  return { random: () => math.random(), uuid: () => crypto.randomUUID() };
}

/** The program evaluated on the host, with the connector's replies and the run's clock and chance. */
export function evaluate(program: Program, world: RunWorld): Evaluation {
  const values: unknown[] = [];
  const before = zero();
  const after = zero();
  let counts = before;
  const chance = chanceOf(world);
  const earlier = (index: number | null) =>
    index === null || values.length === 0 ? null : index % values.length;
  const input = (value: Argument, extra: Record<string, unknown> = {}) => {
    const prev = earlier(value.prev);
    return {
      key: value.key,
      data: value.data,
      ...(prev === null ? {} : { prev: tag(values[prev]) }),
      ...extra,
    };
  };
  const invoke = (method: Method, argument: unknown) => {
    counts[method]++;
    return reply(method, argument);
  };
  const clock: Record<Chance, () => unknown> = {
    now: () => world.time,
    iso: () => new Date(world.time).toISOString(),
    random: () => chance.random(),
    uuid: () => (world.uuid ? chance.uuid() : null),
    ref: () => `ref-${world.time}-${Math.floor(chance.random() * 1e6)}`,
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
          values.push(
            item.source === "random"
              ? chance.random()
              : item.source === "now"
                ? world.time
                : { r: chance.random(), t: world.time },
          );
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
        case "chance":
          values.push(clock[item.source]());
          break;
        case "chains": {
          // results reach the program in the order the calls were made: every first read (made at
          // once, in the order of the links), then the second calls, in the order their reads arrived
          const arrived: number[] = [];
          const firsts = item.links.map((link) => {
            const base = input({ key: link.key, data: item.data, prev: item.prev });
            const read = invoke("read", base) as { n: number };
            arrived.push(read.n);
            return read.n;
          });
          const all = item.links.map((link, index) => {
            if (link.next === null) return firsts[index];
            const second = num(invoke(link.next, { key: firsts[index], chain: link.key }));
            arrived.push(second);
            return second;
          });
          values.push({ arrived, all });
          break;
        }
        case "stepCalls": {
          const replies: unknown[] = [];
          item.calls.forEach((value, index) => {
            const extra = index === 0 ? {} : { link: num(replies[index - 1]) };
            replies.push(invoke(value.method, input(value.argument, extra)));
          });
          const last = replies[replies.length - 1];
          values.push({
            n: num(last),
            ...(item.draw ? { r: chance.random() } : {}),
            first: replies[0],
          });
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
  return {
    result: { before: seen, gate, after: values.slice(seen.length), uuid: world.uuid },
    before,
    after,
  };
}
