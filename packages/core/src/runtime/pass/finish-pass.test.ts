import { describe, expect, it } from "vitest";
import { mockConnector } from "../../test/mock-connector.ts";
import { runningRun, TEST_OWNER, testContext } from "../../test/run-context.ts";
import { finishPass, passErrorMessage } from "./finish-pass.ts";
import { PassState } from "./pass-state.ts";

describe("passErrorMessage", () => {
  const context = testContext([
    mockConnector({
      name: "tracker",
      methods: { list_issues: {}, create_issue: {}, close_issue: {} },
    }),
  ]);

  it("answers an unknown method with the nearest of its namespace, by the code the executor reports", async () => {
    const config = await context.configurator.configure();
    const message = await passErrorMessage(
      {
        name: "TypeError",
        code: "UNKNOWN_METHOD",
        message: "anything",
        method: { namespace: "tracker", name: "list_issue" },
      },
      config,
    );
    expect(message).toMatch(
      /^TypeError: tracker\.list_issue is not a method\. Nearest: tracker\.list_issues\b/,
    );
  });

  it("tells a timed-out program that the clock does not move inside a run", async () => {
    const config = await context.configurator.configure();
    const message = await passErrorMessage(
      { name: "TimeoutError", code: "TIMEOUT", message: "The code ran longer than 5 ms." },
      config,
    );
    expect(message).toMatch(
      /^TimeoutError: The code ran longer than 5 ms\. Inside a run, Date\.now\(\)/,
    );
  });

  it("bounds what it computes on: a huge method name or message", async () => {
    const config = await context.configurator.configure();
    const message = await passErrorMessage(
      {
        name: "TypeError",
        code: "UNKNOWN_METHOD",
        message: "m",
        method: { namespace: "tracker", name: "x".repeat(1_000_000) },
      },
      config,
    );
    expect(message.length).toBeLessThan(1_000);
    const thrown = await passErrorMessage(
      { name: "Error", code: "THROWN", message: "y".repeat(2_000_000) },
      config,
    );
    expect(thrown.length).toBeLessThan(20_000);
  });

  it("names the sandbox's globals when a name is not defined", async () => {
    const config = await context.configurator.configure();
    expect(
      await passErrorMessage(
        { name: "ReferenceError", code: "THROWN", message: "github is not defined" },
        config,
      ),
    ).toBe(
      "ReferenceError: github is not defined. The globals in the sandbox are: tracker, codemode.",
    );
  });

  it("knows a name that is not defined by the error's name, not by words in its message", async () => {
    const config = await context.configurator.configure();
    expect(
      await passErrorMessage(
        {
          name: "ReferenceError",
          code: "THROWN",
          message: "Cannot access 'x' before initialization",
        },
        config,
      ),
    ).toBe(
      "ReferenceError: Cannot access 'x' before initialization. The globals in the sandbox are: tracker, codemode.",
    );
    // the model's own error that says so is not the sandbox's
    expect(
      await passErrorMessage(
        { name: "Error", code: "THROWN", message: "the order is not defined yet" },
        config,
      ),
    ).toBe("Error: the order is not defined yet.");
  });
});

describe("finishPass", () => {
  it("reports what the journal says when the run was ended from outside before its outcome was written", async () => {
    const context = testContext([]);
    const id = await runningRun(context);
    const pass = new PassState(context, id, new Map(), { owner: TEST_OWNER });
    await pass.end();
    await context.journal.updateExecution(id, ["running"], {
      status: "error",
      error: "Expired while running.",
    });
    const config = await context.configurator.configure();
    expect(await finishPass(context, pass, config, { result: 1, logs: [] })).toEqual({
      status: "error",
      executionId: id,
      error: "Expired while running.",
    });
    pass.release();
  });
});
