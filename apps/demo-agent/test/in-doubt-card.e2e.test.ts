// A call in doubt as the page draws it, in Chromium without `wrangler dev` (a few seconds): the
// page's own modules (public/) render what the agent in Node gives them, the chat's approval card
// and the queue (GET /api/queue, POST /api/approve answered by the agent's HTTP API). The call says
// it may already have run, why, and the idempotency key it runs again under; the button reads "Run
// again"; answering sends the card's decision, and the queue's "Run again" completes the run.
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

    // the tool call's paused outcome above the card lists the call as one that may have run
    await expect(
      page.locator('#chat-log .outcome[data-status="paused"] .waiting-calls li').allTextContents(),
    ).resolves.toEqual([
      `tracker.create_task (call ${(card.pending[0]?.seq ?? 0) + 1} of the run) may already have run: it waits for you to run it again or reject it`,
      `tracker.create_task (call ${(card.pending[1]?.seq ?? 0) + 1} of the run) waits for approval`,
    ]);

    const shown = page.locator(`.approval-card[data-approval-id="${card.approvalId}"]`);
    await expect(shown.getAttribute("data-in-doubt")).resolves.toBe("");
    await expect(shown.locator(".card-title").textContent()).resolves.toBe(
      "2 calls wait for your approval (1 may already have run)",
    );
    const [first, second] = card.pending;
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
    // the other call waits for its first approval: no warning
    await expect(
      shown.locator(`.pending-call[data-seq="${second?.seq}"] .in-doubt`).count(),
    ).resolves.toBe(0);

    const approve = shown.locator(".card-approve");
    await expect(approve.textContent()).resolves.toBe("Approve all 2 calls (1 runs again)");
    await expect(approve.getAttribute("title")).resolves.toBe(
      "A call may already have run: this runs it again under the same idempotency key.",
    );
    await expect(shown.locator(".card-reject").textContent()).resolves.toBe("Reject all 2");

    await approve.click();
    const sent = await page.evaluate(() => (window as unknown as PageWindow).demo.sent);
    expect(sent).toEqual([{ approved: true }]);
    // the page's answer goes to the agent as the chat sends it, with the card's handle: both run,
    // and the run goes on to the next creation
    const next = await demo.turn(() =>
      demo.chat.answer(card.approvalId, { approved: true, via: "chat", handle: card.handle }),
    );
    expect(demo.cards.get(card.approvalId)?.answer).toMatchObject({ approved: true });
    expect(next.card?.pending).toMatchObject([{ args: { title: "Sticker pack (STK-003)" } }]);
    // the demo's tracker does not honour idempotency keys: the mug's task is there twice, as the
    // card warned a service that does not honour the key may do
    const mugs = demo.tracker
      .listTasks({ projectId: "mobile" })
      .filter((task) => task.title === "Code Mode mug (MUG-001)");
    expect(mugs).toHaveLength(2);
  });

  it("the queue shows a run waiting on a call in doubt, and its Run again runs it once more under the same key", async () => {
    const executionId = await inDoubtNoteRun(demo);
    await page.evaluate(async () => {
      const win = window as unknown as PageWindow;
      win.refreshApprovals = win.demo.createApprovals({
        refreshAll: () => win.refreshApprovals(),
      });
      await win.refreshApprovals();
    });

    const queued = page.locator(`.approval[data-execution="${executionId}"]`);
    await expect(queued.getAttribute("data-in-doubt")).resolves.toBe("");
    const note = queued.locator('.pending-call[data-seq="0"]');
    await expect(note.locator(".approval-call").textContent()).resolves.toBe("notes.add_note");
    await expect(note.locator(".in-doubt-title").textContent()).resolves.toBe(
      "⚠ This call may already have run",
    );
    await expect(note.locator(".in-doubt-key").textContent()).resolves.toBe(`${executionId}:0`);
    await expect(queued.locator('.pending-call[data-seq="1"] .in-doubt').count()).resolves.toBe(0);
    const approve = queued.locator("button.approve");
    await expect(approve.textContent()).resolves.toBe("Approve all 2 calls (1 runs again)");

    await approve.click();
    await page.waitForSelector('#approval-output .queue-decision[data-status="completed"]');
    // the notes server honours the key: the note it added before, not a second one
    expect(demo.notes.list().filter((each) => each.title === "Kept")).toHaveLength(1);
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
