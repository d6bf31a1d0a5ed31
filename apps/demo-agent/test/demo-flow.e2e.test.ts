// The demo's own flow where issue 25 found it broken, in Chromium with the offline model: a message
// while a card waits (Send waits, a socket that bypasses the page is refused, and the chat goes on
// once the card is answered, instead of "Tool result is missing …" for every later answer); the
// queue showing what the card shows and rejecting every call the card covers, which the journal and
// the timeline then show as withdrawn; an answer the queue or a card gives to calls that no longer
// wait as shown, which says "already decided" and runs nothing.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, eventually, pageSession } from "@codemode/demo-kit/testing";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { CARD_WAITS_MESSAGE } from "../src/chat-session.ts";
import { andTheTurn, openPanel } from "./demo-page-helpers.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("the demo's own flow", () => {
  const session = pageSession({ appDir, name: "demo-flow" });
  const { screenshot } = session;
  let server: DevServer;
  let page: Page;
  beforeAll(() => {
    ({ server, page } = session);
  });
  const lastCard = () => page.locator("#chat-log .approval-card").last();
  const lastAnswer = () => page.locator('.msg[data-role="assistant"]').last().textContent();
  /** A request as the page's own scripts make it (its origin, JSON). */
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { origin: server.url, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const tasks = async () =>
    (
      (await (await fetch(`${server.url}/api/tracker`)).json()) as {
        tasks: Array<{ id: number; title: string; status: string }>;
      }
    ).tasks;

  it("holds Send while a card waits, refuses a message that bypasses the page, and chats on once the card is answered", async () => {
    await page.goto(server.url);
    await page.waitForSelector("body[data-ready]");
    await page.waitForSelector("#connection.online");
    const send = page.locator("#chat-send");
    const waits = page.locator("#chat-waits");
    expect(await waits.isHidden()).toBe(true);
    await session.chat("create a task Write release notes in mobile");
    const card = lastCard();
    await card.waitFor();
    expect(await send.isDisabled()).toBe(true);
    expect(await waits.isVisible()).toBe(true);
    expect(await waits.textContent()).toContain("waits for your answer");
    await screenshot("send-waits-for-the-card");

    // a message that does not go through the page's form: the agent itself refuses it
    const refused = await page.evaluate(async () => {
      const ws = new WebSocket(`ws://${location.host}/chat`);
      await new Promise((resolve) => ws.addEventListener("open", resolve));
      const answer = new Promise<string>((resolve) =>
        ws.addEventListener("message", (event) => {
          const value = JSON.parse(String(event.data)) as { type: string; message?: string };
          if (value.type === "error") resolve(value.message ?? "");
        }),
      );
      ws.send(JSON.stringify({ type: "chat", text: "list my tasks" }));
      const message = await answer;
      ws.close();
      return message;
    });
    expect(refused).toBe(CARD_WAITS_MESSAGE);
    await eventually(() => page.locator('.msg[data-role="error"]').last().textContent()).toBe(
      CARD_WAITS_MESSAGE,
    );
    expect(await page.locator('.msg[data-role="user"]').allTextContents()).toEqual([
      "create a task Write release notes in mobile",
    ]);

    await andTheTurn(page, () => card.locator("button.card-approve").click());
    expect(await card.getAttribute("data-answered")).toBe("approved");
    expect(await send.isDisabled()).toBe(false);
    expect(await waits.isHidden()).toBe(true);
    await session.chat("list my tasks");
    expect(await lastAnswer()).toContain("You have 8 tasks");
    await session.chat("show stats");
    expect(await lastAnswer()).not.toBe("");
    expect(await page.locator("#chat-log").textContent()).not.toContain("Tool result is missing");
  });

  it("shows in the queue what the card shows, and the queue's Reject all rejects every call; they show as withdrawn", async () => {
    const before = (await tasks()).filter((task) => [2, 3, 5].includes(task.id));
    await session.chat("mark tasks 2, 3 and 5 as done");
    const card = lastCard();
    await card.waitFor();
    const executionId = (await card.getAttribute("data-execution")) ?? "";
    const queued = page.locator(`#approvals .approval[data-execution="${executionId}"]`);
    await queued.waitFor();
    // the same calls, inputs and effects, the same calls before the pause and the same program
    const shown = async (root: typeof card) => ({
      calls: await root.locator(".pending-call").allTextContents(),
      effects: await root.locator(".pending-call .effect-summary").allTextContents(),
      done: await root.locator(".card-done > summary").textContent(),
      program: await root.locator(".card-program pre").textContent(),
    });
    const onCard = await shown(card);
    expect(onCard.effects).toHaveLength(3);
    expect(onCard.effects.every((effect) => effect.endsWith("→ done"))).toBe(true);
    expect(onCard.program).toContain("Promise.all");
    expect(await shown(queued)).toEqual(onCard);
    expect(await card.locator("button.card-reject").textContent()).toBe("Reject all 3");
    expect(await queued.locator("button.reject").textContent()).toBe("Reject all 3");
    expect(await queued.locator("button.approve").textContent()).toBe("Approve all 3 calls");
    await screenshot("queue-as-the-card");

    await queued.locator(".queue-reason").fill("not this sprint");
    await andTheTurn(page, () => queued.locator("button.reject").click());
    expect(await card.getAttribute("data-answered")).toBe("rejected");
    expect(await card.locator(".card-answer").textContent()).toContain("Rejected in the queue");
    expect((await tasks()).filter((task) => [2, 3, 5].includes(task.id))).toEqual(before);
    const run = (await (await fetch(`${server.url}/api/executions/${executionId}`)).json()) as {
      status: string;
      calls: Array<{ seq: number; method: string; state: string }>;
    };
    expect(run.status).toBe("rejected");
    const moves = run.calls.filter((call) => call.method === "update_task_status");
    expect(moves.map((call) => call.state)).toEqual(["withdrawn", "withdrawn", "withdrawn"]);

    // the run's journal and timeline say so, and not "reverted"
    const detail = page.locator("#run-detail");
    await eventually(() => detail.locator("h2 code").textContent()).toBe(executionId);
    const journal = detail.locator(".journal-panel");
    await journal.locator("> summary").click();
    for (const call of moves) {
      const row = journal.locator(`tr[data-seq="${call.seq}"] [data-status]`);
      expect(await row.getAttribute("data-status")).toBe("withdrawn");
    }
    expect(await journal.locator('[data-status="reverted"]').count()).toBe(0);
    const rows = detail.locator('.tl-row.waiting[data-state="withdrawn"]');
    await eventually(() => rows.count()).toBe(3);
    expect(await rows.first().locator(".tag").textContent()).toBe("withdrawn");
    expect(await rows.first().textContent()).toContain("never ran");
    await screenshot("withdrawn");
  });

  it("says 'already decided' to a queue that still shows calls decided since, and runs nothing", async () => {
    await openPanel(page, "run-panel");
    await page.fill(
      "#run-code",
      'async () => { await tracker.create_task({ projectId: "mobile", title: "First of two" }); return tracker.create_task({ projectId: "mobile", title: "Second of two" }); }',
    );
    await page.click("#run-button");
    await page.locator('#run-output .outcome[data-status="paused"]').waitFor();
    const executionId =
      (await page.locator("#run-output .outcome button.show-run").getAttribute("data-execution")) ??
      "";
    const queued = page.locator(`#approvals .approval[data-execution="${executionId}"]`);
    await queued.waitFor();
    // the page's queue stays as it was first drawn (as a page would that had not refreshed yet)
    const first = await (await fetch(`${server.url}/api/queue`)).json();
    await page.route("**/api/queue*", (route) => route.fulfill({ json: first }));
    await queued.locator("button.approve").click();
    await eventually(() =>
      page.locator("#approval-output .queue-decision").getAttribute("data-status"),
    ).toBe("paused");
    expect((await tasks()).map((task) => task.title)).toContain("First of two");
    // the same card of the queue, clicked again: the run now waits for the second call
    await queued.locator("button.approve").click();
    const stale = page.locator('#approval-output .queue-decision[data-stale="true"]');
    await stale.waitFor();
    expect(await stale.textContent()).toMatch(/^Already decided: .*Nothing ran for this answer\./);
    expect((await tasks()).map((task) => task.title)).not.toContain("Second of two");
    await page.unroute("**/api/queue*");
    // drawn anew, the queue shows the second call, and approving it runs it
    await page.reload();
    await page.waitForSelector("body[data-ready]");
    await eventually(() => queued.locator(".pending-call").first().getAttribute("data-seq")).toBe(
      "1",
    );
    await queued.locator("button.approve").click();
    await eventually(() =>
      page.locator("#approval-output .queue-decision").getAttribute("data-status"),
    ).toBe("completed");
    expect((await tasks()).map((task) => task.title)).toContain("Second of two");
  });

  it("closes a card whose run was rolled back as 'already decided': nothing runs, the chat goes on", async () => {
    await session.chat("create a task Never written in mobile");
    const card = lastCard();
    await card.waitFor();
    const executionId = (await card.getAttribute("data-execution")) ?? "";
    // a paused run rolled back ends: its waiting call is withdrawn
    const rolled = await post("/api/rollback", { executionId });
    expect(rolled.body.status).toBe("rolled_back");
    expect(String(rolled.body.message)).toContain(
      "Never ran (withdrawn, not reverted): tracker.create_task",
    );
    await eventually(() => page.locator("#approvals .approval").count()).toBe(0);
    await andTheTurn(page, () => card.locator("button.card-approve").click());
    expect(await card.locator(".card-stale").textContent()).toMatch(/^Already decided: /);
    expect((await tasks()).map((task) => task.title)).not.toContain("Never written");
    expect(await page.locator("#chat-send").isDisabled()).toBe(false);
    await session.chat("list my tasks");
    expect(await lastAnswer()).toMatch(/^You have \d+ tasks/);
  });
});
