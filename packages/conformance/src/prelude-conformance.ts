// The prelude group of the executor suite: the prelude runs before the code, once the namespaces
// exist, and may add members to a namespace that shadow host methods.
import { expect } from "vitest";
import { type ExecutorGroup, execute } from "./executor-fixtures.ts";
import { recorder, resultOf } from "./suite-parts.ts";

/** The "prelude" group. */
export function preludeTests({ test, createExecutor }: ExecutorGroup): void {
  test("runs before the code, after the namespaces exist", async () => {
    const executor = await createExecutor();
    const outcome = await execute(executor, {
      prelude: `globalThis.order = ["prelude"]; globalThis.sawNamespace = typeof ns.echo;`,
      code: `async () => { order.push("code"); return [order, sawNamespace]; }`,
      globals: { ns: { echo: recorder([]) } },
    });
    expect(resultOf(outcome)).toEqual([["prelude", "code"], "function"]);
  });

  test("may add members to a namespace that shadow host methods", async () => {
    const executor = await createExecutor();
    const greeted: unknown[] = [];
    const echoed: unknown[] = [];
    const outcome = await execute(executor, {
      prelude: `
        ns.greet = async (input) => "the prelude greets " + input.name;
        ns.twice = (n) => n * 2;`,
      code: `async () => [await ns.greet({ name: "Ada" }), ns.twice(21), await ns.echo("host")]`,
      globals: { ns: { greet: recorder(greeted), echo: recorder(echoed) } },
    });
    expect(resultOf(outcome)).toEqual(["the prelude greets Ada", 42, "host"]);
    expect(greeted, "the shadowed host method is not called").toEqual([]);
    expect(echoed).toEqual(["host"]);
  });
}
