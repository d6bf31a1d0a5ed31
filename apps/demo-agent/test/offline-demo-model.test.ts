// The offline demo model on its own: which program each scenario writes, and how the answer reflects
// the tool's output, through the AI SDK's own tool loop with a stand-in `codemode` tool.
import { recordingCodeTool } from "@codemode/demo-kit/testing";
import { generateText, stepCountIs, streamText } from "ai";
import type { CodeModeOutput } from "codemode";
import { describe, expect, it } from "vitest";
import { HELP_TEXT, matchScenario } from "../src/demo-scenarios.ts";
import { offlineAgentModel, toolOutcomeOf } from "../src/offline-demo-model.ts";
import type { ToolOutcome } from "../src/scenario.ts";

const completed = (result: unknown): CodeModeOutput => ({
  status: "completed",
  executionId: "exec_1",
  result,
});

async function ask(prompt: string, output: (code: string) => CodeModeOutput) {
  const { codes, tools } = recordingCodeTool(output);
  const result = await generateText({
    model: offlineAgentModel(),
    tools,
    prompt,
    stopWhen: stepCountIs(4),
  });
  return { codes, text: result.text, steps: result.steps.length };
}

describe("the offline demo model with the agent's scenarios", () => {
  it("answers a greeting with the help text, without a tool call", async () => {
    const { codes, text, steps } = await ask("hello there", () => completed(null));
    expect(codes).toEqual([]);
    expect(steps).toBe(1);
    expect(text).toBe(HELP_TEXT);
    expect(text).toContain("list my tasks");
  });

  it("says plainly that it cannot do a request it does not read, and calls no tool", async () => {
    const { codes, text, steps } = await ask("book me a flight to Lisbon", () => completed(null));
    expect(codes).toEqual([]);
    expect(steps).toBe(1);
    expect(text).toMatch(/^I can't do that\. I am the offline demo model/);
    expect(text).toContain('"book me a flight to Lisbon"');
    expect(text).toContain("I ran nothing and changed nothing.");
    expect(text).toContain('- "list my open tasks and close the oldest one"');
  });

  it("lists tasks with one call and answers from the real result", async () => {
    const tasks = [
      { id: 1, title: "Ship it", status: "doing", priority: "high", projectId: "website" },
      { id: 4, title: "Test it", status: "todo", priority: "low", projectId: "mobile" },
    ];
    const { codes, text, steps } = await ask("list my tasks", () => completed(tasks));
    expect(steps).toBe(2);
    expect(codes).toHaveLength(1);
    expect(codes[0]).toContain("await tracker.list_tasks({})");
    expect(text).toContain("You have 2 tasks: 1 to do, 1 in progress, 0 done.");
    expect(text).toContain("#4 Test it (todo, low, mobile)");
  });

  it("summarizes projects with a program that makes a call per project", async () => {
    const rows = [
      { project: "Website", total: 3, done: 1, open: 2 },
      { project: "Mobile app", total: 2, done: 0, open: 2 },
    ];
    const { codes, text } = await ask("summarize projects", () => completed(rows));
    expect(codes[0]).toContain("tracker.list_projects({})");
    expect(codes[0]).toMatch(/for \(const project of projects\)[\s\S]*tracker\.list_tasks/);
    expect(text).toContain("2 projects, 4 open tasks in all:");
    expect(text).toContain("- Mobile app: 2 tasks, 0 done, 2 open");
  });

  it("creates a task through the approval-gated method and reports the pause", async () => {
    const paused = (): CodeModeOutput => ({
      status: "paused",
      executionId: "exec_9",
      pending: [
        {
          executionId: "exec_9",
          seq: 2,
          connector: "tracker",
          method: "create_task",
          args: { projectId: "mobile", title: "Write release notes" },
          digest: "0".repeat(64),
        },
      ],
    });
    const { codes, text } = await ask('create a task "Write release notes" in mobile', paused);
    expect(codes[0]).toContain('p.id === "mobile"');
    expect(codes[0]).toContain(
      'tracker.create_task({ projectId: project.id, title: "Write release notes" })',
    );
    expect(text).toContain("exec_9 is paused");
    expect(text).toContain(
      'tracker.create_task({"projectId":"mobile","title":"Write release notes"})',
    );
    expect(text).toContain("waits for your approval");
  });

  it("tells what failed when the program fails", async () => {
    const failed = (): CodeModeOutput => ({
      status: "error",
      executionId: "exec_2",
      error: "TypeError: boom.",
    });
    const { text } = await ask("show stats", failed);
    expect(text).toBe("The program failed: TypeError: boom.");
  });

  it("streams the tool call and the answer in several text deltas", async () => {
    const { tools } = recordingCodeTool(() =>
      completed({ total: 3, byStatus: { todo: 3 }, byProject: {} }),
    );
    const result = streamText({
      model: offlineAgentModel(),
      tools,
      prompt: "how many tasks are there?",
      stopWhen: stepCountIs(4),
    });
    const kinds: string[] = [];
    for await (const part of result.fullStream) kinds.push(part.type);
    expect(kinds).toContain("tool-call");
    expect(kinds).toContain("tool-result");
    expect(kinds.filter((kind) => kind === "text-delta").length).toBeGreaterThan(3);
    expect(await result.text).toBe("3 tasks. By status: todo 3. By project: .");
  });
});

describe("matchScenario", () => {
  it.each([
    ["list my tasks", "list-tasks"],
    ["What tasks do I have?", "list-tasks"],
    ["summarize projects", "summarize-projects"],
    ["give me an overview", "summarize-projects"],
    ["show stats", "stats"],
    ["create a task Fix the login page", "create-task"],
    ["Add a new task: update docs", "create-task"],
    ["mark task 3 as done", "update-status"],
    ["move task #2 to doing", "update-status"],
    ["search the notes for release", "search-notes"],
    ["find notes about pricing", "search-notes"],
    ["what do the notes say about on-call?", "search-notes"],
    ["add a note Deploy freeze: no deploys on Fridays", "add-note"],
    ["delete note 3", "delete-note"],
    ["remove note #2", "delete-note"],
    ["create a task Write release notes in mobile", "create-task"],
    ["show the catalog", "list-catalog"],
    ["what is in the catalogue?", "list-catalog"],
    ["add a catalog item Blue mug for 12.50", "add-catalog-item"],
    ["add a new product: Tote bag at $9", "add-catalog-item"],
    ["what can you do?", "help"],
    ["hi there!", "help"],
    ["Hey", "help"],
    ["hey, list my tasks", "list-tasks"],
    ["list my open tasks", "list-tasks-filtered"],
    ["show me the done tasks in infra", "list-tasks-filtered"],
    ["close task 4", "update-status"],
    ["reopen task 2", "update-status"],
    ["list my done tasks in infra", "list-tasks-filtered"],
    ["show the products under $20", "list-catalog-by-price"],
    ["Could you please show stats?", "stats"],
    ["create a task for every product under $10", "tasks-for-products"],
    ["list my open tasks and close the oldest one", "close-oldest-open-task"],
    ["add a note summarising the catalog's cheapest item", "note-cheapest-item"],
    ["report on each project", "project-report"],
    ["book me a flight", "cannot"],
  ])("%s → %s", (text, name) => {
    expect(matchScenario(text).name).toBe(name);
  });

  it("takes the query of a notes search, and searches the tracker too", () => {
    const code = matchScenario('Search the notes for "offline mode".').code ?? "";
    expect(code).toContain('await notes.search_notes({ query: "offline mode" })');
    expect(code).toContain('t.title.toLowerCase().includes("offline mode")');
    expect(matchScenario("what do the notes say about on-call?").code).toContain(
      'query: "on-call"',
    );
  });

  it("takes the name and the price of a new catalog item", () => {
    const code = matchScenario("add a catalog item Blue mug for 12.50").code ?? "";
    expect(code).toContain('await catalog.listItems({ q: "Blue mug" })');
    expect(code).toContain('await catalog.createItem({ body: { name: "Blue mug", price: 12.5 } })');
    expect(matchScenario("add an item to the catalog: Tote bag at $9").code).toContain(
      '{ name: "Tote bag", price: 9 }',
    );
    // no price, no write: the model does not make one up
    expect(matchScenario("add an item to the catalog: Tote bag").name).toBe("cannot");
  });

  it("splits a note into its title and text", () => {
    expect(matchScenario("add a note Deploy freeze: no deploys on Fridays").code).toContain(
      'notes.add_note({ title: "Deploy freeze", body: "no deploys on Fridays" })',
    );
    expect(matchScenario("write a note Buy cake").code).toContain(
      'notes.add_note({ title: "Buy cake", body: "Buy cake" })',
    );
  });

  it("takes the title and the project from a create request", () => {
    expect(
      matchScenario("create a task called Write release notes in the mobile project").code,
    ).toContain('p.id === "mobile"');
    const code = matchScenario("create a task Write release notes for infra.").code ?? "";
    expect(code).toContain('title: "Write release notes"');
    expect(code).toContain('p.id === "infra"');
    expect(matchScenario("create a task Polish the website").code).toContain(
      'title: "Polish the website"',
    );
  });
});

describe("what the scenarios read of the tool's result", () => {
  const create = () => matchScenario("create a task Write release notes in mobile");

  it("reads the compact model output of every status, and the AI SDK's denial", () => {
    expect(
      toolOutcomeOf({
        type: "json",
        value: { status: "completed", executionId: "e1", result: [1], logs: ["hi"] },
      }),
    ).toEqual({ status: "completed", executionId: "e1", result: [1], logs: ["hi"] });
    expect(
      toolOutcomeOf({
        type: "json",
        value: {
          status: "paused",
          executionId: "e2",
          pending: [{ seq: 1, connector: "tracker", method: "create_task", args: { title: "A" } }],
          next: "call codemode again with exactly the same code",
        },
      }),
    ).toEqual({
      status: "paused",
      executionId: "e2",
      pending: [{ seq: 1, connector: "tracker", method: "create_task", args: { title: "A" } }],
      next: "call codemode again with exactly the same code",
    });
    expect(
      toolOutcomeOf({ type: "json", value: { status: "error", executionId: "e3", error: "x" } }),
    ).toEqual({ status: "error", executionId: "e3", error: "x" });
    expect(toolOutcomeOf({ type: "execution-denied", reason: "not now" })).toEqual({
      status: "denied",
      reason: "not now",
    });
    expect(toolOutcomeOf({ type: "execution-denied" })).toEqual({ status: "denied" });
    expect(toolOutcomeOf({ type: "error-text", value: "boom" })).toEqual({
      status: "error",
      executionId: "",
      error: "boom",
    });
    expect(toolOutcomeOf({ type: "error-json", value: { message: "boom" } })).toMatchObject({
      status: "error",
      error: '{"message":"boom"}',
    });
  });

  it("says when a result is not a run's outcome, instead of guessing", () => {
    for (const output of [
      { type: "json" as const, value: 42 },
      { type: "json" as const, value: { status: "running" } },
      { type: "text" as const, value: "done!" },
      { type: "content" as const, value: [] },
    ]) {
      const outcome = toolOutcomeOf(output);
      expect(outcome).toMatchObject({ status: "error", executionId: "" });
      expect(create().answer(outcome)).toMatch(/^The codemode tool failed: its result was /);
    }
  });

  it("answers a rejection truthfully, with the reason", () => {
    expect(create().answer({ status: "denied", reason: "wrong project" })).toBe(
      'You rejected creating the task "Write release notes" in mobile (your reason: "wrong project"). The run stopped there, so that call did not run; nothing was changed: before it the program had only read data.',
    );
    expect(matchScenario("delete note 3").answer({ status: "denied" })).toMatch(
      /^You rejected deleting note #3\. The run stopped there/,
    );
  });

  it("after approved creations, says that those were made when a later one is rejected", () => {
    const products = matchScenario("create a task for every product under $30");
    const pausedAt = (seq: number, title: string): ToolOutcome => ({
      status: "paused",
      executionId: "exec_call_1",
      pending: [
        { seq, connector: "tracker", method: "create_task", args: { projectId: "website", title } },
      ],
      next: "again",
    });
    const earlier = [pausedAt(3, "B (B-2)"), pausedAt(4, "C (C-3)")];
    const answer = products.answer({ status: "denied" }, earlier);
    expect(answer).toContain(
      'You rejected tracker.create_task({"projectId":"website","title":"C (C-3)"}). The run stopped there',
    );
    expect(answer).toContain("the 2 tasks you approved before it were created and stay");
    expect(products.answer({ status: "denied" }, [])).toContain(
      "You rejected creating the first task. The run stopped there, so that call did not run; nothing was changed",
    );
  });

  it("continues a run that paused again after an approval, and only that", () => {
    const products = matchScenario("create a task for every product under $10");
    const paused: ToolOutcome = { status: "paused", executionId: "e", pending: [] };
    expect(products.again?.({ ...paused, next: "repeat the call" })).toBe(true);
    expect(products.again?.(paused)).toBe(false);
    expect(products.again?.({ status: "denied" })).toBe(false);
    expect(products.again?.(completed({}))).toBe(false);
    // paused for the page's approvals (the host decides): the answer says where to decide
    expect(products.answer(paused)).toContain("Approve or reject it under Pending approvals.");
  });
});

describe("the filters a read takes from the words", () => {
  it("asks the tracker for the status and project named, and filters open tasks in code", () => {
    expect(matchScenario("list my done tasks in infra").code).toContain(
      'await tracker.list_tasks({ projectId: "infra", status: "done" })',
    );
    expect(matchScenario("what are my open tasks in the mobile project?").code).toContain(
      '(await tracker.list_tasks({ projectId: "mobile" })).filter((t) => t.status !== "done")',
    );
    expect(matchScenario("show the products at most $12").code).toContain("i.price <= 12");
  });
});
