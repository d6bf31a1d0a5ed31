// The console group of the executor suite (for an executor with `console`): log, warn and error are
// captured in order, and a pass that fails keeps its logs.
import { expect } from "vitest";
import { type ExecutorGroup, execute } from "./executor-fixtures.ts";
import { errorOf, recorder, resultOf } from "./suite-parts.ts";

/** The "console" group. */
export function consoleTests({ testWith, createExecutor }: ExecutorGroup): void {
  testWith("console")("captures log, warn and error in order", async () => {
    const executor = await createExecutor();
    const outcome = await execute(executor, {
      code: `async () => {
        console.log("first", 1);
        console.warn("second");
        await ns.echo(null);
        console.error("third");
        console.log({ fourth: true });
        return "done";
      }`,
      globals: { ns: { echo: recorder([]) } },
    });
    expect(resultOf(outcome)).toBe("done");
    expect(outcome.logs).toHaveLength(4);
    ["first", "second", "third", "fourth"].forEach((word, index) => {
      expect(outcome.logs[index]).toContain(word);
    });
  });

  testWith("console")("keeps the logs of a pass that fails", async () => {
    const executor = await createExecutor();
    const outcome = await execute(executor, {
      code: "async () => { console.log('before the failure'); throw new Error('failed') }",
      globals: {},
    });
    expect(errorOf(outcome).code).toBe("THROWN");
    expect(outcome.logs).toEqual([expect.stringContaining("before the failure")]);
  });
}
