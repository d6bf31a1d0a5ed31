// The agent with a model from an OpenAI-compatible endpoint, configured by env vars only: `wrangler
// dev` gets OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL pointing at a stand-in endpoint on a
// loopback port; the page shows that model, and its tool call runs through the real runtime.
import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type DevServer,
  launchChromium,
  startWranglerDev,
  WAIT_MS,
} from "@codemode/demo-kit/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAiServer, startFakeOpenAiServer } from "./fake-openai-server.ts";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const results = join(appDir, "test-results");

describe("an OpenAI-compatible model", () => {
  let endpoint: FakeOpenAiServer;
  let server: DevServer;
  let browser: Browser;

  beforeAll(async () => {
    await mkdir(results, { recursive: true });
    endpoint = await startFakeOpenAiServer("async () => (await tracker.stats({})).byProject");
    [server, browser] = await Promise.all([
      startWranglerDev({
        appDir,
        vars: {
          MODEL_PROVIDER: "auto",
          OPENAI_BASE_URL: endpoint.baseUrl,
          OPENAI_API_KEY: "test-key",
          OPENAI_MODEL: "fake-model",
        },
      }),
      launchChromium(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await endpoint?.close();
  });

  it("is picked from the env vars and drives the codemode tool", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(WAIT_MS);
    await page.goto(server.url);
    await page.waitForSelector("#model[data-provider='openai-compatible']");
    expect(await page.locator("#model").textContent()).toContain("fake-model");

    await page.fill("#chat-input", "How many tasks per project?");
    await page.click("#chat-send");
    await page.waitForSelector('#chat-log[data-turns="1"]');
    expect(await page.locator("[data-tool-call]").getAttribute("data-state")).toBe("completed");
    expect(await page.locator("[data-tool-call] .tool-output").textContent()).toContain("infra");
    expect(await page.locator('.msg[data-role="assistant"]').last().textContent()).toBe(
      'The program returned {"infra":2,"mobile":2,"website":3}.',
    );
    await page.screenshot({ path: join(results, "openai-compatible.png"), fullPage: true });

    expect(endpoint.requests).toHaveLength(2);
    const [first] = endpoint.requests;
    expect(first?.authorization).toBe("Bearer test-key");
    expect(first?.body.model).toBe("fake-model");
    expect(first?.body.stream).toBe(true);
    expect(first?.body.tools?.map((tool) => tool.function.name)).toEqual(["codemode"]);
    expect(first?.body.tools?.[0]?.function.description).toContain("tracker");
  });
});
