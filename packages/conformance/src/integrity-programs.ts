// The journal-integrity suite's programs: a small grammar (gated and plain calls, Promise.all
// groups, steps, snippet runs, a try/catch around a pause that keeps calling, calls of everything
// reachable on the globals with forged arguments), written out as JavaScript that logs what each
// call gave it (`@obs [label, observation]` on the console), so a replay can be compared with the
// live pass call by call.
import fc from "fast-check";
import type { ThrownShape, UnrecordableKind } from "./integrity-ledger.ts";

export type Call =
  | { method: "read"; key: number }
  | { method: "slow"; key: number; ms: number }
  | { method: "fail"; shape: ThrownShape }
  | { method: "unrec"; kind: UnrecordableKind }
  | { method: "write"; key: number }
  | { method: "writeFail"; shape: ThrownShape };

export type Statement =
  | { kind: "call"; call: Call }
  | { kind: "all"; items: Array<Call | { forge: "codemode" }> }
  | { kind: "step"; value: "constant" | "random"; slow: boolean }
  | { kind: "snippet"; name: "reads" | "gated" }
  | { kind: "tryPause"; then: "sequence" | "microtask" | "timeout" }
  | { kind: "forge"; target: "codemode" | "everything" };

export type Program = Statement[];

/** Saved before the program runs (`runtime.saveSnippet`), from a run of this code. */
export const SNIPPETS: Record<"reads" | "gated", string> = {
  reads: `async (input = { tag: "setup", key: 0 }) => {
  const note = (label, o) => console.log("@obs " + JSON.stringify([label, o]));
  const a = await svc.read({ key: 100 + input.key });
  note(input.tag + ".a", { ok: JSON.stringify(a) });
  const b = await svc.slow({ key: 200 + input.key, ms: 3 });
  note(input.tag + ".b", { ok: JSON.stringify(b) });
  return [a, b];
}`,
  gated: `async (input = { tag: "setup", key: 0 }) => {
  const note = (label, o) => console.log("@obs " + JSON.stringify([label, o]));
  const a = await svc.read({ key: 300 + input.key });
  note(input.tag + ".a", { ok: JSON.stringify(a) });
  if (input.tag === "setup") return [a];
  const w = await svc.write({ key: 400 + input.key, value: "from a snippet" });
  note(input.tag + ".w", { ok: JSON.stringify(w) });
  return [a, w];
}`,
};

const PRELUDE = `
  const show = (v) => { try { return JSON.stringify(v === undefined ? "<undefined>" : v); } catch (e) { return "<unshowable>"; } };
  const errInfo = (e) => {
    const read = (k) => { try { const v = e == null ? undefined : e[k]; return v === undefined ? undefined : typeof v === "string" ? v : show(v); } catch (x) { return "<unreadable>"; } };
    return { name: read("name"), message: read("message"), code: read("code"), data: read("data") };
  };
  const note = (label, o) => { try { console.log("@obs " + JSON.stringify([label, o])); } catch (x) {} };
  const c = async (label, f) => {
    try { const v = await f(); note(label, { ok: show(v) }); return v; }
    catch (e) { note(label, { err: errInfo(e) }); return undefined; }
  };
  const forge = async (label, target) => {
    const spaces = target === "codemode" ? [["codemode", codemode]] : [["codemode", codemode], ["svc", svc]];
    for (const [space, ns] of spaces) {
      for (const key of Object.getOwnPropertyNames(ns)) {
        let f; try { f = ns[key]; } catch (x) { continue; }
        if (typeof f !== "function") continue;
        const seqs = space === "codemode" ? [0, 1, 2, 3, 4, 5, 6, 7] : [0];
        for (const seq of seqs) {
          await c(label + "." + space + "." + key + "." + seq, () => f.call(ns, { seq, value: "forged", name: "forged", result: "forged" }));
        }
      }
    }
  };`;

function callSource(call: Call, salt: number): string {
  switch (call.method) {
    case "read":
      return `svc.read({ key: ${call.key + salt} })`;
    case "slow":
      return `svc.slow({ key: ${call.key + salt}, ms: ${call.ms} })`;
    case "fail":
      return `svc.fail({ shape: ${JSON.stringify(call.shape)} })`;
    case "unrec":
      return `svc.unrec({ kind: ${JSON.stringify(call.kind)} })`;
    case "write":
      return `svc.write({ key: ${call.key + salt}, value: "w${call.key + salt}" })`;
    case "writeFail":
      return `svc.writeFail({ shape: ${JSON.stringify(call.shape)} })`;
  }
}

function statementSource(statement: Statement, index: number): string {
  const label = `L${index}`;
  switch (statement.kind) {
    case "call":
      return `await c("${label}", () => ${callSource(statement.call, index * 10)});`;
    case "all": {
      const items = statement.items.map((item, position) =>
        "forge" in item
          ? `forge("${label}.${position}", "codemode")`
          : `c("${label}.${position}", () => ${callSource(item, index * 10 + position)})`,
      );
      return `await Promise.all([${items.join(", ")}]);`;
    }
    case "step": {
      const body = statement.value === "random" ? "Math.random()" : `"step ${index}"`;
      const wait = statement.slow
        ? `if (typeof setTimeout === "function") await new Promise((r) => setTimeout(r, 5)); `
        : "";
      return `await c("${label}", () => codemode.step("s${index}", async () => { ${wait}return ${body}; }));`;
    }
    case "snippet":
      return `await c("${label}", () => codemode.run("${statement.name}", { tag: "${label}", key: ${index} }));`;
    case "tryPause": {
      const later = {
        sequence: `await c("${label}.r", () => svc.read({ key: ${index * 10 + 1} }));
    await c("${label}.w", () => svc.write({ key: ${index * 10 + 2}, value: "again" }));
    await c("${label}.all", () => Promise.all([svc.read({ key: ${index * 10 + 3} }), svc.slow({ key: ${index * 10 + 4}, ms: 2 })]));`,
        microtask: `Promise.resolve().then(() => c("${label}.m", () => svc.read({ key: ${index * 10 + 5} })));
    if (typeof queueMicrotask === "function") queueMicrotask(() => c("${label}.q", () => svc.write({ key: ${index * 10 + 6}, value: "micro" })));`,
        timeout: `if (typeof setTimeout === "function") {
      setTimeout(() => c("${label}.t", () => svc.read({ key: ${index * 10 + 7} })), 1);
      setTimeout(() => c("${label}.t2", () => svc.write({ key: ${index * 10 + 8}, value: "timer" })), 4);
    }`,
      }[statement.then];
      return `try {
    const w = await svc.write({ key: ${index * 10}, value: "guarded" });
    note("${label}", { ok: show(w) });
  } catch (e) {
    note("${label}", { err: errInfo(e) });
    ${later}
  }`;
    }
    case "forge":
      return `await forge("${label}", "${statement.target}");`;
  }
}

/** The program as the model would send it. */
export function programSource(program: Program): string {
  const body = program.map((statement, index) => `  ${statementSource(statement, index)}`);
  return `async () => {${PRELUDE}\n${body.join("\n")}\n  return "finished";\n}`;
}

/** Whether the program runs a snippet (which the case then saves first). */
export const usesSnippets = (program: Program) =>
  program.some((statement) => statement.kind === "snippet");

const shape = fc.constantFrom<ThrownShape>(
  "subclass",
  "string",
  "null",
  "nullProto",
  "proxy",
  "getter",
);
const key = fc.nat(5);
const call: fc.Arbitrary<Call> = fc.oneof(
  { weight: 3, arbitrary: key.map((k) => ({ method: "read" as const, key: k })) },
  {
    weight: 3,
    arbitrary: fc
      .record({ k: key, ms: fc.integer({ min: 1, max: 15 }) })
      .map(({ k, ms }) => ({ method: "slow" as const, key: k, ms })),
  },
  { weight: 2, arbitrary: shape.map((s) => ({ method: "fail" as const, shape: s })) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<UnrecordableKind>("function", "cycle", "huge")
      .map((kind) => ({ method: "unrec" as const, kind })),
  },
  { weight: 3, arbitrary: key.map((k) => ({ method: "write" as const, key: k })) },
  { weight: 1, arbitrary: shape.map((s) => ({ method: "writeFail" as const, shape: s })) },
);

export const statementArbitrary: fc.Arbitrary<Statement> = fc.oneof(
  { weight: 4, arbitrary: call.map((value) => ({ kind: "call" as const, call: value })) },
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.oneof(
          { weight: 4, arbitrary: call },
          { weight: 1, arbitrary: fc.constant({ forge: "codemode" as const }) },
        ),
        { minLength: 2, maxLength: 3 },
      )
      .map((items) => ({ kind: "all" as const, items })),
  },
  {
    weight: 1,
    arbitrary: fc
      .record({
        value: fc.constantFrom("constant" as const, "random" as const),
        slow: fc.boolean(),
      })
      .map(({ value, slow }) => ({ kind: "step" as const, value, slow })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("reads" as const, "gated" as const)
      .map((name) => ({ kind: "snippet" as const, name })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("sequence" as const, "microtask" as const, "timeout" as const)
      .map((then) => ({ kind: "tryPause" as const, then })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("codemode" as const, "everything" as const)
      .map((target) => ({ kind: "forge" as const, target })),
  },
);

/** Most programs end with a gated write, so that most runs pause and are approved and replayed. */
export const programArbitrary: fc.Arbitrary<Program> = fc
  .tuple(
    fc.array(statementArbitrary, { minLength: 1, maxLength: 5 }),
    fc.oneof(
      { weight: 1, arbitrary: fc.constant(false) },
      { weight: 3, arbitrary: fc.constant(true) },
    ),
  )
  .map(([statements, gated]) =>
    gated
      ? [...statements, { kind: "call" as const, call: { method: "write" as const, key: 9 } }]
      : statements,
  );
