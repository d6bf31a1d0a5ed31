// The errors-as-data group of the executor suite: what the code throws, a syntax error and a result
// that cannot cross come back as data with their code; `execute` never rejects.
import { expect } from "vitest";
import { type ExecutorGroup, execute } from "./executor-fixtures.ts";
import { errorOf } from "./suite-parts.ts";

/** The "errors as data" group. */
export function errorsTests({ test, createExecutor, healthy }: ExecutorGroup): void {
  test("a thrown Error comes back as THROWN with its name and message", async () => {
    const executor = await createExecutor();
    const error = errorOf(
      await execute(executor, {
        code: "async () => { throw new TypeError('the repository is archived') }",
        globals: {},
      }),
    );
    expect(error).toMatchObject({
      code: "THROWN",
      name: "TypeError",
      message: "the repository is archived",
    });
  });

  test("a thrown non-Error comes back as THROWN and shows the value", async () => {
    const executor = await createExecutor();
    const text = errorOf(
      await execute(executor, {
        code: "async () => { throw 'a plain string' }",
        globals: {},
      }),
    );
    expect(text.code).toBe("THROWN");
    expect(text.message).toContain("a plain string");
    const object = errorOf(
      await execute(executor, {
        code: "() => { throw { reason: 'quota', left: 42 } }",
        globals: {},
      }),
    );
    expect(object.code).toBe("THROWN");
    expect(object.message).toContain("42");
  });

  test("a syntax error comes back as SYNTAX_ERROR", async () => {
    const executor = await createExecutor();
    for (const code of ["async () => { return 1 +; }", "async () => {", ""]) {
      const error = errorOf(await execute(executor, { code, globals: {} }));
      expect(error.code, JSON.stringify(code)).toBe("SYNTAX_ERROR");
      expect(error.message.length).toBeGreaterThan(0);
    }
  });

  test("an unserializable result comes back as NOT_SERIALIZABLE", async () => {
    const executor = await createExecutor();
    for (const code of [
      "async () => () => 1",
      "async () => ({ list: [Symbol('s')] })",
      "async () => { const cycle = {}; cycle.self = cycle; return cycle; }",
    ]) {
      const error = errorOf(await execute(executor, { code, globals: {} }));
      expect(error.code, code).toBe("NOT_SERIALIZABLE");
    }
  });

  test("never rejects, whatever the code does", async () => {
    const executor = await createExecutor();
    const cases: [string, string][] = [
      ["42", "THROWN"],
      ["async () => { throw undefined }", "THROWN"],
      ["async () => { throw null }", "THROWN"],
      ["async () => { throw Symbol('s') }", "THROWN"],
      ["async () => { await null; throw new RangeError('late') }", "THROWN"],
      ["async () => { const e = new Error('x'); e.name = 5; e.message = {}; throw e }", "THROWN"],
      ["async () => Symbol('s')", "NOT_SERIALIZABLE"],
      ["}{", "SYNTAX_ERROR"],
    ];
    for (const [code, expected] of cases) {
      const error = errorOf(await execute(executor, { code, globals: {} }));
      expect(error.code, code).toBe(expected);
    }
    await healthy(executor);
  });
}
