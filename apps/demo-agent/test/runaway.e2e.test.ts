// Runaway code against the real agent under `wrangler dev` (local workerd enforces no CPU limit):
// an endless loop ends with TIMEOUT within the pass's limit while the agent keeps answering, and a
// run a dead process left running ends once the agent starts again over the same state.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevServer, launchChromium, startWranglerDev } from "@codemode/demo-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_TIMEOUT_MS } from "../src/demo-limits.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
/**
 * Slack on top of the pass's limit: the request around the run and the sandbox's start, on a loaded
 * two-core machine. The loop never ends by itself, so any bound short of the test's timeout still
 * tells a limit that fires from one that does not.
 */
const MARGIN_MS = 10_000;

/** The JSON a request answered; anything else fails with what wrangler printed, to tell why. */
async function json(server: DevServer, path: string, init?: RequestInit) {
  // a bound for a failure message: a request the agent never answers fails instead of hanging
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(
      `${path} answered ${response.status} with no JSON: ${text.slice(0, 300)}\nwrangler printed:\n${server.output().slice(-4_000)}`,
    );
  }
}

async function post(server: DevServer, path: string, body: unknown) {
  return json(server, path, {
    method: "POST",
    // as the page sends it: the API takes changes from the page's own origin only
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify(body),
  });
}

/** The id of the run that is running now, once there is one (a pass started, its code spins). */
async function runningRun(server: DevServer): Promise<string> {
  // an outer bound only: the wait ends as soon as the run is listed
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const runs = (await json(server, "/api/executions")) as unknown as Array<{
      id: string;
      status: string;
    }>;
    const running = runs.find((run) => run.status === "running");
    if (running) return running.id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `no run was running within 45 s\nwrangler printed:\n${server.output().slice(-4_000)}`,
  );
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe("runaway code in the demo agent", () => {
  let state: string;
  let server: DevServer;
  beforeAll(async () => {
    state = await mkdtemp(join(tmpdir(), "demo-agent-runaway-"));
    server = await startWranglerDev({ appDir, stateDir: state });
  });
  afterAll(async () => {
    await server?.stop();
    await rm(state, { recursive: true, force: true });
  });

  it("ends an endless loop with TIMEOUT within its limit, and answers other requests meanwhile", async () => {
    const run = timed(() => post(server, "/api/run", { code: "async () => { while (true) {} }" }));
    await runningRun(server);
    // while the loop spins, the agent answers: the tracker and the list of runs
    const tracker = await timed(() => json(server, "/api/tracker"));
    expect((tracker.value as { tasks: unknown[] }).tasks.length).toBeGreaterThan(0);
    expect(tracker.ms).toBeLessThan(RUN_TIMEOUT_MS / 2);
    const runs = await fetch(`${server.url}/api/executions`);
    expect(runs.status).toBe(200);
    const { value: output, ms } = await run;
    expect(output).toMatchObject({ status: "error", error: expect.stringMatching(/time/i) });
    expect(ms).toBeLessThan(RUN_TIMEOUT_MS + MARGIN_MS);
  });

  it("on the page: Run code with an endless loop shows the timeout while the page keeps working", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
      await page.goto(server.url);
      await page.waitForSelector("body[data-ready]");
      const panel = page.locator("details#run-panel");
      if ((await panel.getAttribute("open")) === null) await panel.locator("> summary").click();
      await page.fill("#run-code", "async () => { while (true) {} }");
      const started = performance.now();
      await page.click("#run-button");
      await runningRun(server);
      // the agent answers the page meanwhile
      const tasks = await page.evaluate(async () => {
        const response = await fetch("/api/tracker");
        return ((await response.json()) as { tasks: unknown[] }).tasks.length;
      });
      expect(tasks).toBeGreaterThan(0);
      await page.waitForFunction(
        () =>
          /time limit|timed out|TIMEOUT/i.test(
            document.getElementById("run-output")?.textContent ?? "",
          ),
        undefined,
        { timeout: RUN_TIMEOUT_MS + MARGIN_MS },
      );
      expect(performance.now() - started).toBeLessThan(RUN_TIMEOUT_MS + MARGIN_MS);
      const results = join(appDir, "test-results");
      await mkdir(results, { recursive: true });
      await page.screenshot({ path: join(results, "runaway-timeout.png"), fullPage: true });
    } finally {
      await browser.close();
    }
  });

  it("ends a loop in a synchronous helper too, within the limit", async () => {
    const { value, ms } = await timed(() =>
      post(server, "/api/run", {
        code: "async () => { const spin = () => { for (;;) {} }; spin(); return 'escaped'; }",
      }),
    );
    expect(value).toMatchObject({ status: "error", error: expect.stringMatching(/time/i) });
    expect(ms).toBeLessThan(RUN_TIMEOUT_MS + MARGIN_MS);
    // and the agent is well afterwards
    expect(await post(server, "/api/run", { code: "async () => 1 + 1" })).toMatchObject({
      status: "completed",
      result: 2,
    });
  });

  it("ends a run that a dead process left running once the agent starts again", async () => {
    void post(server, "/api/run", {
      code: "async () => { await new Promise((resolve) => setTimeout(resolve, 8000)); return 'late'; }",
    }).catch(() => undefined);
    const runningId = await runningRun(server);
    // the process dies in the middle of the pass
    await server.kill();
    server = await startWranglerDev({ appDir, stateDir: state });
    // the agent ends it once the lease (LEASE_MS) has lapsed; the bound is for a loaded machine
    const deadline = Date.now() + 90_000;
    let status = "running";
    while (status === "running" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const run = (await json(server, `/api/executions/${runningId}`)) as { status: string };
      status = run.status;
    }
    expect(status).toBe("error");
  }, 400_000);
});
