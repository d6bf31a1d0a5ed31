// A call in doubt as the page draws it, in Chromium without `wrangler dev` (a few seconds): the
// page's own modules (public/) render what the agent in Node gives them, the chat's approval card
// and the queue (GET /api/queue, POST /api/approve answered by the agent's HTTP API). The call in
// doubt waits alone (a later call the person approved before stays approved and is not asked about
// again): it says it may already have run, why, and the idempotency key it runs again under; the
// button reads "Run again"; answering sends the card's decision, and the call approved before runs
// with it, without another card or queue entry; the queue's "Run again" completes the run.
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium, WAIT_MS } from "@codemode/demo-kit/testing";
import type { CodeModeOutput } from "codemode";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalCard } from "../src/chat-event.ts";
import { agentInNode } from "./agent-in-node.ts";
import { agentApi, inDoubtNoteRun, inDoubtTaskCard } from "./in-doubt-runs.ts";

const PUBLIC = new URL("../public/", import.meta.url);
const ORIGIN = "http://demo.test";
const TYPES: Record<string, string> = { ".js": "text/javascript", ".css": "text/css" };

/** The chat's log and the queue's panel, as index.html has them, and the modules that draw them. */
const PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><link rel="stylesheet" href="/style.css" /></head>
  <body>
    <div id="chat-log"></div>
    <details id="approvals-panel" class="panel fold" open>
      <summary><h2>Waiting for approval <span id="approvals-count" class="badge muted">0</span></h2></summary>
      <div id="approvals"></div>
      <div id="approval-output" class="output" hidden></div>
    </details>
    <script type="module">
      import { approvalCardView, approveLabel, runAgainTitle } from "/approval-card.js";
      import { createApprovals } from "/approvals.js";
      import { outputView } from "/output-view.js";
      window.demo = {
        approvalCardView, approveLabel, runAgainTitle, createApprovals, outputView, sent: [],
      };
    </script>
  </body>
</html>`;

interface PageDemo {
  approvalCardView(
    card: ApprovalCard,
    send: (approved: boolean, reason?: string) => boolean,
  ): { element: HTMLElement };
  approveLabel(count: number, again?: number): string;
  runAgainTitle(again: number): string | undefined;
  createApprovals(options: { refreshAll: () => Promise<void> }): () => Promise<void>;
  outputView(output: CodeModeOutput | undefined): HTMLElement;
  sent: Array<{ approved: boolean; reason?: string }>;
}
type PageWindow = Window & { demo: PageDemo; refreshApprovals: () => Promise<void> };

describe("a call in doubt on the page", () => {
  let browser: Browser;
  let page: Page;
  const demo = agentInNode();
  const api = agentApi(demo);

  /** The page, its modules and style from public/, and /api/* from the agent in Node. */
  async function serve(route: Route) {
    const request = route.request();
    const url = new URL(request.url());
    if (url.pathname === "/") {
      return route.fulfill({ contentType: "text/html", body: PAGE });
    }
    if (url.pathname.startsWith("/api/")) {
      const body = request.postData();
      const answer = await api(
        new Request(`http://demo${url.pathname}`, {
          method: request.method(),
          ...(body === null ? {} : { body }),
        }),
      );
      return route.fulfill({
        status: answer.status,
        contentType: "application/json",
        body: await answer.text(),
      });
    }
    const type = TYPES[extname(url.pathname)];
    if (!type || !/^\/[\w-]+\.(js|css)$/.test(url.pathname)) return route.fulfill({ status: 404 });
    const file = await readFile(fileURLToPath(new URL(`.${url.pathname}`, PUBLIC)), "utf8");
    return route.fulfill({ contentType: type, body: file });
  }

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    page.setDefaultTimeout(WAIT_MS);
    await page.route(`${ORIGIN}/**`, serve);
    await page.goto(`${ORIGIN}/`);
    await page.waitForFunction(() => "demo" in window);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it("the chat's card says the call may already have run, with its key, and offers to run it again", async () => {
    const { card, output } = await inDoubtTaskCard(demo);
    const tasks = (title: string) =>
      demo.tracker.listTasks({ projectId: "mobile" }).filter((task) => task.title === title);
    await page.evaluate(
      ({ card, output }) => {
        const { demo } = window as unknown as PageWindow;
        const view = demo.approvalCardView(card, (approved, reason) => {
          demo.sent.push({ approved, ...(reason ? { reason } : {}) });
          return true;
        });
        document.getElementById("chat-log")?.append(demo.outputView(output), view.element);
      },
      { card, output },
    );

    // the tool call's paused outcome above the card lists the one call it waits for, as one that may
    // have run: the T-shirt's creation, approved before, does not wait again
    const [first] = card.pending;
    await expect(
      page.locator('#chat-log .outcome[data-status="paused"] .waiting-calls li').allTextContents(),
    ).resolves.toEqual([
      `tracker.create_task (call ${(first?.seq ?? 0) + 1} of the run) may already have run: it waits for you to run it again or reject it`,
    ]);

    const shown = page.locator(`.approval-card[data-approval-id="${card.approvalId}"]`);
    await expect(shown.getAttribute("data-in-doubt")).resolves.toBe("");
    await expect(shown.locator(".card-title").textContent()).resolves.toBe(
      "A call that may already have run waits for your answer",
    );
    // the card lists the mug's creation alone
    await expect(
      shown
        .locator(".pending-call")
        .evaluateAll((calls) =>
          calls.map((call) => [
            (call as HTMLElement).dataset.seq,
            call.querySelector(".approval-call")?.textContent,
          ]),
        ),
    ).resolves.toEqual([[String(first?.seq), "tracker.create_task"]]);
    const doubtful = shown.locator(`.pending-call[data-seq="${first?.seq}"]`);
    await expect(doubtful.getAttribute("data-in-doubt")).resolves.toBe("");
    const warning = doubtful.locator('.in-doubt[role="note"]');
    await expect(warning.locator(".in-doubt-title").textContent()).resolves.toBe(
      "⚠ This call may already have run",
    );
    await expect(warning.locator(".in-doubt-reason").textContent()).resolves.toBe(first?.inDoubt);
    await expect(warning.locator(".in-doubt-key").textContent()).resolves.toBe(
      `${card.executionId}:${first?.seq}`,
    );
    await expect(warning.textContent()).resolves.toContain(
      `Run again sends it with the same idempotency key, ${card.executionId}:${first?.seq}. A service that honours the key does it once; one that does not may do it twice. Check first whether it happened; Reject ends the run without running it again.`,
    );
    // the warning sits between the call's name and its input, where the eye goes first
    await expect(warning.isVisible()).resolves.toBe(true);

    const approve = shown.locator(".card-approve");
    await expect(approve.textContent()).resolves.toBe("Run again");
    await expect(approve.getAttribute("title")).resolves.toBe(
      "A call may already have run: this runs it again under the same idempotency key.",
    );
    await expect(shown.locator(".card-reject").textContent()).resolves.toBe("Reject");
    expect(tasks("Sandbox T-shirt (TEE-002)")).toHaveLength(0);

    await approve.click();
    const sent = await page.evaluate(() => (window as unknown as PageWindow).demo.sent);
    expect(sent).toEqual([{ approved: true }]);
    // the page's answer goes to the agent as the chat sends it, with the card's handle: the mug's
    // creation runs again, the T-shirt's, approved before, runs without another card, and the run
    // goes on to the next creation, whose card asks about it alone
    const next = await demo.turn(() =>
      demo.chat.answer(card.approvalId, { approved: true, via: "chat", handle: card.handle }),
    );
    expect(demo.cards.get(card.approvalId)?.answer).toMatchObject({ approved: true });
    const asked = next.events.flatMap((event) =>
      event.type === "approval-request" ? [event.card] : [],
    );
    expect(asked.map((each) => each.pending.map((call) => call.args))).toEqual([
      [{ projectId: "mobile", title: "Sticker pack (STK-003)" }],
    ]);
    expect(tasks("Sandbox T-shirt (TEE-002)")).toHaveLength(1);
    // the demo's tracker does not honour idempotency keys: the mug's task is there twice, as the
    // card warned a service that does not honour the key may do
    expect(tasks("Code Mode mug (MUG-001)")).toHaveLength(2);
  });

  it("the queue shows a run waiting on a call in doubt, and its Run again runs it once more under the same key", async () => {
    const executionId = await inDoubtNoteRun(demo);
    const afterTheNote = () =>
      demo.tracker
        .listTasks({ projectId: "mobile" })
        .filter((task) => task.title === "After the note");
    await page.evaluate(async () => {
      const win = window as unknown as PageWindow;
      win.refreshApprovals = win.demo.createApprovals({
        refreshAll: () => win.refreshApprovals(),
      });
      await win.refreshApprovals();
    });

    const queued = page.locator(`.approval[data-execution="${executionId}"]`);
    await expect(queued.getAttribute("data-in-doubt")).resolves.toBe("");
    // the run waits on the note alone: the task, approved before, does not wait again
    await expect(queued.locator(".approval-head").textContent()).resolves.toBe(
      `Run ${executionId} Show run`,
    );
    await expect(
      queued
        .locator(".pending-call")
        .evaluateAll((calls) => calls.map((call) => (call as HTMLElement).dataset.seq)),
    ).resolves.toEqual(["0"]);
    const note = queued.locator('.pending-call[data-seq="0"]');
    await expect(note.locator(".approval-call").textContent()).resolves.toBe("notes.add_note");
    await expect(note.locator(".in-doubt-title").textContent()).resolves.toBe(
      "⚠ This call may already have run",
    );
    await expect(note.locator(".in-doubt-key").textContent()).resolves.toBe(`${executionId}:0`);
    await expect(note.getAttribute("data-in-doubt")).resolves.toBe("");
    const approve = queued.locator("button.approve");
    await expect(approve.textContent()).resolves.toBe("Run again");
    await expect(approve.getAttribute("title")).resolves.toBe(
      "A call may already have run: this runs it again under the same idempotency key.",
    );
    await expect(queued.locator("button.reject").textContent()).resolves.toBe("Reject");
    expect(afterTheNote()).toHaveLength(0);

    await approve.click();
    await page.waitForSelector('#approval-output .queue-decision[data-status="completed"]');
    // the notes server honours the key: the note it added before, not a second one
    expect(demo.notes.list().filter((each) => each.title === "Kept")).toHaveLength(1);
    // the task approved before ran in the same pass, once, without another queue entry asking
    expect(afterTheNote()).toHaveLength(1);
    await page.waitForSelector(`.approval[data-execution="${executionId}"]`, { state: "detached" });
  });

  it("says Run again for one call in doubt alone, and Run all N calls again when each is", async () => {
    const labels = await page.evaluate(() => {
      const { approveLabel, runAgainTitle } = (window as unknown as PageWindow).demo;
      return [
        approveLabel(1),
        approveLabel(1, 1),
        approveLabel(3, 3),
        approveLabel(3, 2),
        runAgainTitle(0) ?? "no title",
        runAgainTitle(2),
      ];
    });
    expect(labels).toEqual([
      "Approve",
      "Run again",
      "Run all 3 calls again",
      "Approve all 3 calls (2 run again)",
      "no title",
      "2 calls may already have run: this runs them again under the same idempotency key.",
    ]);
  });
});
