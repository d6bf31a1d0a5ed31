// The tick module on its own, in Node, under clocks of our choosing: where async code yields is a
// count of its ticks, never the clock. A yield lets the rest of the turn run first (the caller of the
// async function, other promise jobs), so it decides in which order the program makes its calls; a
// replay must make them in the order the live pass did. Found on a loaded CI machine: a conformance
// program's `ids.forEach(async (id) => { await crm.getCustomer({ id }) ... })` yielded at one
// callback's tick in one pass and not in the other (25 ms by the clock had passed there), so one pass
// called `team.listMembers` before the remaining `getCustomer`s and the other after: a replay divergence.
import { afterEach, describe, expect, it } from "vitest";
import { programModule } from "./harness-source.ts";
import { instrumentProgram } from "./instrument-program.ts";
import { TICK_SOURCE, TICK_TUNING, type TickModule, tickModule } from "./tick-source.ts";

const realNow = Date.now;
afterEach(() => {
  Date.now = realNow;
});

/**
 * A clock that moves `step` ms at every reading (0: it stands still), from a start of its own; `jumps`
 * moves it further at the readings listed (0 is the first).
 */
function steppingClock(step: number, jumps: Record<number, number> = {}): () => number {
  let readings = 0;
  let now = 1_000_000;
  return () => {
    now += step + (jumps[readings] ?? 0);
    readings++;
    return now;
  };
}

const CLOCKS: Array<[string, () => () => number]> = [
  ["a clock that stands still", () => steppingClock(0)],
  ["1 ms a reading", () => steppingClock(1)],
  ["12 ms a reading", () => steppingClock(12)],
  ["20 ms a reading (a loaded machine)", () => steppingClock(20)],
  ["30 ms a reading", () => steppingClock(30)],
  ["a 40 ms stall at the third reading", () => steppingClock(0, { 2: 40 })],
];

/** The tick module, armed, reading `clock` (it takes `Date.now` when it is made). */
function armedTicks(clock: () => number, tuning: typeof TICK_TUNING = TICK_TUNING): TickModule {
  Date.now = clock;
  const ticks = tickModule(tuning);
  Date.now = realNow;
  ticks.arm(600_000, []);
  return ticks;
}

describe("tickModule: where async code yields", () => {
  it("yields at every yieldTicks-th tick of async code, whatever the clock reads; sync ticks do not count", () => {
    const tuning = { ...TICK_TUNING, yieldTicks: 100 };
    for (const [name, clock] of CLOCKS) {
      const ticks = armedTicks(clock(), tuning);
      // the countdowns as the instrumented program keeps them (see instrumentProgram)
      let sync = 0;
      let async = 0;
      const yields: number[] = [];
      for (let at = 1; at <= 350; at++) {
        // biome-ignore lint/suspicious/noAssignInExpressions: the tick as instrumentProgram writes it
        if (!(--async >= 0) && (async = ticks.tickAsync()) < 0) yields.push(at);
        // a synchronous helper between the async ticks
        for (let helper = 0; helper < 3; helper++) {
          // biome-ignore lint/suspicious/noAssignInExpressions: the tick as instrumentProgram writes it
          if (!(--sync >= 0) && (sync = ticks.tick()) < 0) throw new Error("stopped");
        }
      }
      expect(yields, name).toEqual([100, 200, 300]);
    }
  });

  it("still ends async code at the deadline", () => {
    let now = 0;
    const ticks = armedTicks(() => now);
    let async = 0;
    let stoppedAt: number | undefined;
    for (let at = 1; at <= 100_000 && stoppedAt === undefined; at++) {
      if (at === 50_000) now = 600_001;
      // biome-ignore lint/suspicious/noAssignInExpressions: the tick as instrumentProgram writes it
      if (!(--async >= 0) && (async = ticks.tickAsync()) === -2) stoppedAt = at;
    }
    expect(stoppedAt).toBeGreaterThanOrEqual(50_000);
    expect(stoppedAt).toBeLessThanOrEqual(50_000 + TICK_TUNING.mostTicks + 1);
  });
});

/**
 * Runs `code` instrumented, with the real tick module (`TICK_SOURCE`) reading `clock`, and
 * `globals` on globalThis meanwhile. Answers what the program returns.
 */
async function runWithClock(
  code: string,
  clock: () => number,
  globals: Record<string, unknown> = {},
): Promise<unknown> {
  // a comment makes each module new, so none is taken from the module cache
  const tickUrl = `data:text/javascript,${encodeURIComponent(`${TICK_SOURCE}\n// ${Math.random()}`)}`;
  Date.now = clock;
  const ticks = (await import(tickUrl)) as TickModule;
  Date.now = realNow;
  ticks.arm(600_000, []);
  const instrumented = instrumentProgram(programModule(code), tickUrl);
  if (!instrumented.ok) throw new Error(instrumented.message);
  const source = `${instrumented.source}\n// ${Math.random()}`;
  const program = (await import(`data:text/javascript,${encodeURIComponent(source)}`)) as {
    default: () => unknown;
  };
  const scope = globalThis as Record<string, unknown>;
  for (const [name, value] of Object.entries(globals)) scope[name] = value;
  try {
    return await program.default();
  } finally {
    for (const name of Object.keys(globals)) delete scope[name];
  }
}

describe("an instrumented program under a loaded machine's clock", () => {
  it("makes its calls in the same order whatever the clock reads (forEach with an async callback, then another call)", async () => {
    const code = `async () => {
  const ids = [2, 4, 6, 8];
  const collected = [];
  ids.forEach(async (id) => {
    const c = await crm.getCustomer({ id });
    collected.push(c.name);
  });
  const before = collected.length;
  const members = await team.listMembers({ team: "web" });
  await notes.write({ key: "fire-and-forget", value: { before, members: members.length } });
  return before;
}`;
    for (const [name, clock] of CLOCKS) {
      const calls: string[] = [];
      const host =
        (what: string, answer: (input: { id?: number }) => unknown) =>
        async (input: { id?: number }) => {
          calls.push(`${what}(${JSON.stringify(input)})`);
          return answer(input);
        };
      const result = await runWithClock(code, clock(), {
        crm: { getCustomer: host("crm.getCustomer", (input) => ({ name: `c${input.id}` })) },
        team: { listMembers: host("team.listMembers", () => [1, 2, 3]) },
        notes: { write: host("notes.write", () => ({ ok: true })) },
      });
      expect(result, name).toBe(0);
      // the numbering a replay must meet: the order of the program's text, on every pass
      expect(calls, name).toEqual([
        'crm.getCustomer({"id":2})',
        'crm.getCustomer({"id":4})',
        'crm.getCustomer({"id":6})',
        'crm.getCustomer({"id":8})',
        'team.listMembers({"team":"web"})',
        'notes.write({"key":"fire-and-forget","value":{"before":0,"members":3}})',
      ]);
    }
  });

  it("yields at the same tick of a spinning async loop whatever the clock reads", async () => {
    const Y = TICK_TUNING.yieldTicks;
    // ticks: the program's arrow (1), the inner async arrow (2), then one per iteration: the loop's
    // last iteration is tick `iterations + 2`, the yield's tick when that is Y
    const code = (iterations: number) => `async () => {
  const order = [];
  const spin = (async () => { for (let i = 0; i < ${iterations}; i++) {} order.push("spun"); })();
  order.push("caller");
  await spin;
  return order;
}`;
    // (a clock that moves ms at every reading would pass the deadline here: the loop reads it often)
    const clocks: Array<[string, () => () => number]> = [
      ["a clock that stands still", () => steppingClock(0)],
      ["1 ms a reading", () => steppingClock(1)],
      ["a 40 ms stall at the third reading", () => steppingClock(0, { 2: 40 })],
      ["the real clock", () => realNow],
    ];
    for (const [name, clock] of clocks) {
      // one tick short of the yield: the loop runs to its end before its caller goes on
      expect(await runWithClock(code(Y - 3), clock()), name).toEqual(["spun", "caller"]);
      // the last iteration is the yield's tick: the caller goes on first
      expect(await runWithClock(code(Y - 2), clock()), name).toEqual(["caller", "spun"]);
    }
  });
});
