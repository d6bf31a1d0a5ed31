import { describe, expect, it } from "vitest";
import { mockConnector } from "../../test/mock-connector.ts";
import { runningRun, testContext } from "../../test/run-context.ts";
import { saveSnippet, snippetFor } from "./snippets.ts";

describe("snippets", () => {
  it("hands out a saved run's normalized code, or says why it cannot run", async () => {
    const context = testContext([mockConnector({ name: "notes", methods: { add: {} } })]);
    const config = await context.configurator.configure();
    const id = await runningRun(context);
    await saveSnippet(context, "add-note", { executionId: id, description: "Adds a note." });
    expect(await snippetFor(context.journal, config, { name: "add-note" })).toEqual({
      code: "async () => null",
    });
    expect(await snippetFor(context.journal, config, { name: "missing" })).toMatchObject({
      error: expect.stringMatching(/No snippet is named "missing"/),
    });
    await expect(
      snippetFor(context.journal, config, { name: "x".repeat(10_000) }),
    ).rejects.toMatchObject({ code: "TOO_LARGE" });
    const without = testContext([]);
    const saved = await context.journal.getSnippet("add-note");
    if (saved) await without.journal.putSnippet(saved);
    expect(
      await snippetFor(without.journal, await without.configurator.configure(), {
        name: "add-note",
      }),
    ).toEqual({
      unavailable: 'Snippet "add-note" needs connectors that are not configured: notes.',
    });
  });

  it("refuses a bad name and an unknown run with the right codes", async () => {
    const context = testContext([]);
    await expect(saveSnippet(context, "bad name", { executionId: "x" })).rejects.toMatchObject({
      code: "INVALID_CONFIG",
    });
    await expect(saveSnippet(context, "good", { executionId: "nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});
