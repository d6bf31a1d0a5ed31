// The multi-step scenarios through real `streamText` requests against the real runtime (QuickJS,
// SQLite, the demo's connectors) with the AI SDK's approvals: a paused run is an approval request,
// the person's answer a `tool-approval-response`; the model reads the compact outcome, repeats a
// call whose run paused again, and answers from the real result, approved or rejected.
import { describe, expect, it } from "vitest";
import { approvalChat } from "./approval-chat.ts";

const titles = (chat: ReturnType<typeof approvalChat>) =>
  chat.tracker.listTasks().map((task) => task.title);

describe("the multi-step scenarios with the AI SDK's approvals", () => {
  it("creates a task per product under $10: reads, filters, asks once per creation, answers", async () => {
    const chat = approvalChat();
    const first = await chat.say("create a task for every product under $10");
    // the first pass ran in needsApproval and paused at the first create: an approval request, no text
    expect(first.requests).toHaveLength(1);
    expect(first.text).toBe("");
    const [asked] = first.requests;
    const descriptor = await chat.runtime.approvalDescriptor(
      asked?.toolCallId ?? "",
      asked?.code ?? "",
    );
    expect(descriptor?.pending).toEqual([
      expect.objectContaining({
        connector: "tracker",
        method: "create_task",
        args: { projectId: "website", title: "Sticker pack (STK-003)" },
      }),
    ]);
    expect(chat.tracker.listTasks()).toHaveLength(7);

    const done = await chat.answer(true);
    expect(done.requests).toEqual([]);
    expect(done.outputs).toMatchObject([{ status: "completed" }]);
    expect(done.text).toBe(
      [
        "I read the catalog: 1 catalog item costs under $10.00.",
        "I created 1 task in website, one per item, titled with its name and SKU:",
        "- #8 Sticker pack (STK-003) ($5.00)",
      ].join("\n"),
    );
    expect(titles(chat)).toContain("Sticker pack (STK-003)");
    const run = await chat.runtime.execution(descriptor?.executionId ?? "");
    expect(run?.calls.map((call) => [call.method, call.state])).toEqual([
      ["listItems", "applied"],
      ["list_tasks", "applied"],
      ["create_task", "applied"],
    ]);
  });

  it("asks again with the same code when the run pauses at the next creation, and creates each once", async () => {
    const chat = approvalChat();
    const first = await chat.say("create a task for every product under $30 in mobile");
    const code = first.codes[0];
    const second = await chat.answer(true);
    // the model read `paused` with `next`, and called codemode again with exactly the same code
    expect(second.outputs).toMatchObject([{ status: "paused" }]);
    expect(second.codes).toEqual([code]);
    expect(second.requests).toHaveLength(1);
    const third = await chat.answer(true);
    expect(third.codes).toEqual([code]);
    const last = await chat.answer(true);
    expect(last.text).toContain("I created 3 tasks in mobile, one per item");
    expect(last.text).toContain("- #8 Code Mode mug (MUG-001) ($12.00)");
    expect(last.text).toContain("- #10 Sticker pack (STK-003) ($5.00)");
    const made = chat.tracker.listTasks({ projectId: "mobile" }).map((task) => task.title);
    expect(made.filter((title) => title.includes("("))).toEqual([
      "Code Mode mug (MUG-001)",
      "Sandbox T-shirt (TEE-002)",
      "Sticker pack (STK-003)",
    ]);
    // one run for the whole request
    expect((await chat.runtime.executions()).map((run) => run.status)).toEqual(["completed"]);
  });

  it("says truthfully what a rejection after one approval left", async () => {
    const chat = approvalChat();
    await chat.say("create a task for every product under $30");
    await chat.answer(true);
    const rejected = await chat.answer(false, "not this sprint");
    expect(rejected.text).toBe(
      'You rejected tracker.create_task({"projectId":"website","title":"Sandbox T-shirt (TEE-002)"}) (your reason: "not this sprint"). The run stopped there, so that call did not run; the 1 task you approved before it was created and stays (the run\'s journal under Executions lists it; rolling the run back removes it).',
    );
    expect(titles(chat).filter((title) => title.includes("("))).toEqual([
      "Code Mode mug (MUG-001)",
    ]);
    const [run] = await chat.runtime.executions();
    expect(run?.status).toBe("rejected");
  });

  it("lists the open tasks and closes the oldest after approval", async () => {
    const chat = approvalChat();
    const first = await chat.say("list my open tasks and close the oldest one");
    const [asked] = first.requests;
    const descriptor = await chat.runtime.approvalDescriptor(
      asked?.toolCallId ?? "",
      asked?.code ?? "",
    );
    expect(descriptor?.pending).toMatchObject([
      { method: "update_task_status", args: { id: 1, status: "done" } },
    ]);
    const done = await chat.answer(true);
    expect(done.text).toContain("You had 5 open tasks (not done):");
    expect(done.text).toContain("- #6 Move CI to the new runners (todo, created ");
    expect(done.text).not.toContain("Fix broken links in the footer");
    expect(done.text).toContain(
      'I closed the oldest, #1 "Redesign the pricing page" (it was doing, now done); 4 open tasks remain.',
    );
    expect(chat.tracker.getTask(1)?.status).toBe("done");
  });

  it("changes nothing when the person rejects closing the oldest task", async () => {
    const chat = approvalChat();
    await chat.say("list my open tasks and close the oldest one");
    const rejected = await chat.answer(false, "keep it open");
    expect(rejected.text).toBe(
      'You rejected closing your oldest open task (your reason: "keep it open"). The run stopped there, so that call did not run; nothing was changed: before it the program had only read data.',
    );
    expect(chat.tracker.getTask(1)?.status).toBe("doing");
    expect((await chat.runtime.executions()).map((run) => run.status)).toEqual(["rejected"]);
  });

  it("writes a note whose text is the real summary of the cheapest item, at once", async () => {
    const chat = approvalChat();
    const reply = await chat.say("add a note summarising the catalog's cheapest item");
    expect(reply.requests).toEqual([]);
    expect(chat.notes.get(6)).toMatchObject({
      title: "Cheapest catalog item: Sticker pack",
      body: "Sticker pack (STK-003) is the cheapest of the 4 catalog items at $5.00, with 200 in stock.",
      tags: ["catalog"],
    });
    expect(reply.text).toContain(
      'I added note #6 "Cheapest catalog item: Sticker pack": Sticker pack (STK-003) is the cheapest',
    );
    expect(reply.text).toContain("needs no approval");
  });

  it("reports on each project from the tracker and the notes in one run", async () => {
    const chat = approvalChat();
    const reply = await chat.say("report on each project: open tasks and notes that mention it");
    expect(reply.codes).toHaveLength(1);
    expect(reply.text).toContain(
      "- Mobile app (mobile): 2 open tasks: #4 Add offline mode (todo), #5 Crash on login with an empty password (doing); notes: #1 Release checklist, #5 Offline mode design.",
    );
    expect(reply.text).toContain(
      "- Infrastructure (infra): 1 open task: #6 Move CI to the new runners (todo); notes: #3 On-call handbook.",
    );
    const [run] = await chat.runtime.executions();
    expect(run?.status).toBe("completed");
    const calls = (await chat.runtime.execution(run?.id ?? ""))?.calls ?? [];
    expect(calls.map((call) => `${call.connector}.${call.method}`).sort()).toEqual([
      "notes.search_notes",
      "notes.search_notes",
      "notes.search_notes",
      "tracker.list_projects",
      "tracker.list_tasks",
      "tracker.list_tasks",
      "tracker.list_tasks",
    ]);
  });

  it("tells a failed run as it failed", async () => {
    const chat = approvalChat();
    const reply = await chat.say("mark task 99 as done");
    expect(reply.requests).toEqual([]);
    expect(reply.text).toMatch(/^The program failed: (Error: )?No task has the id 99\./);
  });

  it("refuses a misread write in the chat: no call, no run, nothing changed", async () => {
    const chat = approvalChat();
    const reply = await chat.say("create a task for each open task");
    expect(reply.codes).toEqual([]);
    expect(reply.text).toMatch(/^I can't do that\./);
    expect(await chat.runtime.executions()).toEqual([]);
    expect(chat.tracker.listTasks()).toHaveLength(7);
  });

  it("keeps a one-step write's answers right under the AI SDK's approvals", async () => {
    const chat = approvalChat();
    await chat.say("create a task Write release notes in mobile");
    const done = await chat.answer(true);
    expect(done.text).toBe('Created task #8 "Write release notes" in mobile.');
    await chat.say("delete note 3");
    const rejected = await chat.answer(false);
    expect(rejected.text).toBe(
      "You rejected deleting note #3. The run stopped there, so that call did not run; nothing was changed: before it the program had only read data.",
    );
    expect(chat.notes.get(3)).toBeDefined();
  });
});
