// Requests the scripted model must not misread: each gets a plain refusal (no program, so nothing
// runs) or the scenario that really does what was asked, never a one-step write that took part of
// the words as its argument.
import { describe, expect, it } from "vitest";
import { matchScenario } from "../src/demo-scenarios.ts";

/** The one-step writes: a title, a note, a name or an id taken from the words. */
const ONE_STEP_WRITES = [
  "create-task",
  "update-status",
  "add-note",
  "delete-note",
  "add-catalog-item",
];

const MISREAD: Array<[request: string, expected: string]> = [
  // the three a new user found
  ["add a note summarising the catalog's cheapest item", "note-cheapest-item"],
  ["create a task for every product under $10", "tasks-for-products"],
  ["list my open tasks and close the oldest one", "close-oldest-open-task"],
  // quantifiers
  ["create a task for each open task", "cannot"],
  ["create two tasks: Fix login and Update docs", "cannot"],
  ["create 3 tasks for the website", "cannot"],
  ["mark all tasks as done", "cannot"],
  ["delete all notes", "cannot"],
  ["remove every note about release", "cannot"],
  ["add a catalog item for every task", "cannot"],
  ["create a task every day", "cannot"],
  // conditions and comparisons
  ["create a task if the catalog has no mugs", "cannot"],
  ["set task 2 to done if it is still todo", "cannot"],
  ["delete the oldest note", "cannot"],
  ["create a task for the cheapest product", "cannot"],
  ["add a note about the most expensive product", "note-priciest-item"],
  // a second step
  ["create a task Fix login and close task 3", "cannot"],
  ["mark task 2 as done and delete note 3", "cannot"],
  ["close the oldest task and create a task Retro", "cannot"],
  ["search the notes for release and delete them", "cannot"],
  ["delete note 3 and note 4", "cannot"],
  ["add a note Deploy freeze: no deploys on Fridays, then delete note 3", "cannot"],
  ["Create a task to close task 4", "cannot"],
  ["add a catalog item Blue mug for 12.50 and Red mug for 9", "cannot"],
  // a text about something else, not the text itself
  ["create a task summarising the notes", "cannot"],
  ["write a note listing all open tasks", "cannot"],
  ["add a note about the release", "cannot"],
  ["add a note with the stats", "cannot"],
  // what a write needs and does not have
  ["add a product Blue mug", "cannot"],
  ["create a task Write docs in the marketing project", "cannot"],
  ["create a task", "cannot"],
  // reads with a part no scenario does
  ["list my tasks sorted by priority", "cannot"],
  ["show the catalog sorted by price", "cannot"],
  ["email me the catalog", "cannot"],
  // reads and multi-step requests that a scenario does do, filter included
  ["show the products under $10", "list-catalog-by-price"],
  ["list my open tasks", "list-tasks-filtered"],
  ["please create a task for every product under $10 in mobile", "tasks-for-products"],
  ["create tasks for all products over $20", "tasks-for-products"],
  ["close my oldest open task", "close-oldest-open-task"],
  ["mark tasks 2, 3 and 5 as done", "update-statuses"],
  ["close tasks #4 and #6", "update-statuses"],
  ["mark tasks 2 3 as done", "cannot"],
];

describe("requests the scripted model could misread", () => {
  it("has a table of at least 25 requests, none of whose answers is a one-step write", () => {
    expect(MISREAD.length).toBeGreaterThanOrEqual(25);
    expect(MISREAD.filter(([, expected]) => ONE_STEP_WRITES.includes(expected))).toEqual([]);
  });

  it.each(MISREAD)("%s → %s", (request, expected) => {
    const scenario = matchScenario(request);
    expect(scenario.name).toBe(expected);
    expect(ONE_STEP_WRITES).not.toContain(scenario.name);
    if (expected === "cannot") {
      expect(scenario.code).toBeUndefined();
      const answer = scenario.answer(undefined);
      expect(answer).toMatch(/^I can't do that\./);
      expect(answer).toContain("I ran nothing and changed nothing.");
      expect(answer).toContain('- "create a task for every product under $10"');
    }
  });

  it("says which words it could not place", () => {
    expect(matchScenario("create a task for each open task").answer(undefined)).toContain(
      'a quantifier ("each")',
    );
    expect(matchScenario("create a task Fix login and close task 3").answer(undefined)).toContain(
      'a second step ("and close")',
    );
    expect(matchScenario("add a product Blue mug").answer(undefined)).toContain(
      "needs a name and a price",
    );
    expect(
      matchScenario("create a task Write docs in the marketing project").answer(undefined),
    ).toContain('there is no project "marketing"');
  });

  it("does the real thing for the multi-step requests: the filter, the pick and the writes are in the program", () => {
    const products = matchScenario("create a task for every product under $10").code ?? "";
    expect(products).toContain("items.filter((i) => i.price < 10)");
    expect(products).toMatch(/for \(const item of chosen\) \{[\s\S]*await tracker\.create_task/);
    const oldest = matchScenario("list my open tasks and close the oldest one").code ?? "";
    expect(oldest).toContain('tasks.filter((t) => t.status !== "done")');
    expect(oldest).toContain("a.createdAt.localeCompare(b.createdAt) || a.id - b.id");
    expect(oldest).toContain('tracker.update_task_status({ id: oldest.id, status: "done" })');
    const note = matchScenario("add a note summarising the catalog's cheapest item").code ?? "";
    expect(note).toContain("items.reduce((best, i) => (i.price < best.price ? i : best))");
    expect(note).toContain("notes.add_note({ title, body");
    expect(matchScenario("list my open tasks").code).toContain(
      '.filter((t) => t.status !== "done")',
    );
    expect(matchScenario("show the products under $10").code).toContain("i.price < 10");
  });

  it("takes quoted text word for word, and nothing beyond what the request says", () => {
    const quoted = matchScenario('create a task "Check all links" in website');
    expect(quoted.name).toBe("create-task");
    expect(quoted.code).toContain('title: "Check all links"');
    expect(matchScenario('create a task "Check all links" for every product').name).toBe("cannot");
    expect(matchScenario("x".repeat(400)).name).toBe("cannot");
  });
});
