// One demo page driven in Chromium for a test file: `wrangler dev` for the app and a browser, started
// before the tests and stopped after; on a failing test a screenshot, wrangler's output and the page's
// errors. Screenshots go to the app's test-results/.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { launchChromium } from "./launch-chromium.ts";
import { type DevServer, startWranglerDev } from "./wrangler-dev.ts";

export interface PageSession {
  readonly server: DevServer;
  readonly page: Page;
  /** the page's uncaught errors so far */
  readonly pageErrors: readonly string[];
  /** saves `test-results/<name>-NN-<label>.png`, numbered in order */
  screenshot(label: string): Promise<void>;
  /** sends a chat message (`#chat-input`, `#chat-send`) and waits until `#chat-log` counts one more turn */
  chat(text: string): Promise<void>;
}

/**
 * How long a page wait or a poll waits for its condition before the test fails: an outer bound for a
 * loaded two-core machine (a chat turn that runs code in workerd while other packages' tests run
 * beside it), never a pacing: every wait ends as soon as its condition holds.
 */
export const WAIT_MS = 45_000;

/** Polls until the expectation holds, as long as a page wait would (a run can take a while under load). */
export const eventually = <T>(read: () => Promise<T>) =>
  expect.poll(read, { timeout: WAIT_MS, interval: 100 });

/** Registers the hooks of a test file that drives the app at `appDir`; `name` prefixes its screenshots. */
export function pageSession(options: { appDir: string; name: string }): PageSession {
  const results = join(options.appDir, "test-results");
  let server: DevServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let shot = 0;
  const pageErrors: string[] = [];
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(`the ${what} is not started yet (use it inside a test)`);
    return value;
  };

  const session: PageSession = {
    get server() {
      return started(server, "dev server");
    },
    get page() {
      return started(page, "page");
    },
    pageErrors,
    async screenshot(label) {
      shot += 1;
      const file = `${options.name}-${String(shot).padStart(2, "0")}-${label}.png`;
      await session.page.screenshot({ path: join(results, file), fullPage: true });
    },
    async chat(text) {
      const current = session.page;
      const turns = Number((await current.locator("#chat-log").getAttribute("data-turns")) ?? 0);
      await current.fill("#chat-input", text);
      await current.click("#chat-send");
      await current.waitForSelector(`#chat-log[data-turns="${turns + 1}"]`);
    },
  };

  beforeAll(async () => {
    await mkdir(results, { recursive: true });
    [server, browser] = await Promise.all([
      startWranglerDev({ appDir: options.appDir }),
      launchChromium(),
    ]);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(WAIT_MS);
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });

  afterEach(async ({ task }) => {
    if (task.result?.state !== "fail" || !page) return;
    await session.screenshot(`FAILED-${task.name.replace(/\W+/g, "-").slice(0, 60)}`);
    console.error(`wrangler dev said:\n${server?.output().slice(-4_000)}`);
    if (pageErrors.length > 0) console.error(`page errors:\n${pageErrors.join("\n")}`);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  return session;
}
