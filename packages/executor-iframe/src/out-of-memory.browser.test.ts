// A pass that runs out of memory, in Chromium. The sandboxes of a page share one renderer process
// (sandboxed frames of a site are grouped), and running out of memory ends that process with every
// sandbox in it: the page must fail each pass it carried once its frame stops answering (the
// heartbeat), not at its timeout.
//
// This file runs in a vitest project of its own (vitest.config.ts), with no other pass after the
// crash and no sandbox kept ready: Playwright 1.65 fails the whole run with an unhandled "Frame has
// been detached" when a page makes a new out-of-process frame after one of its frame processes
// crashed. Browsers without a driver attached make the next sandbox in a new process as usual.
import { afterEach, describe, expect, it } from "vitest";
import { IframeSandboxExecutor } from "./index.ts";

const made: IframeSandboxExecutor[] = [];
afterEach(() => {
  for (const created of made.splice(0)) created.dispose();
});

describe("IframeSandboxExecutor: a sandbox that runs out of memory", () => {
  it("fails the pass beside one that runs out of memory once its frame stops answering, not at its timeout", async () => {
    const TIMEOUT_MS = 150_000;
    const sandbox = new IframeSandboxExecutor({ timeout: TIMEOUT_MS, prewarm: false });
    made.push(sandbox);
    let besideStarted = false;
    const hog = sandbox.execute({
      code: `async () => {
        const kept = [];
        for (;;) kept.push(new Array(2e7).fill(1.5));
      }`,
      globals: {},
    });
    const beside = sandbox.execute({
      code: "async () => { await ns.started(); await new Promise(() => {}); }",
      globals: {
        ns: {
          started: async () => {
            besideStarted = true;
          },
        },
      },
    });
    const [hogged, waited] = await Promise.all([hog, beside]);
    expect(besideStarted).toBe(true);
    // failed by the heartbeat (its message says so), not at the timeout (that would be TIMEOUT):
    // however long the machine took to fill the process's memory, and no clock is read
    const died = { code: "MEMORY", message: expect.stringContaining("its frame answered nothing") };
    expect(hogged, JSON.stringify(hogged)).toMatchObject({ error: died });
    expect(waited, JSON.stringify(waited)).toMatchObject({ error: died });
  }, 200_000);
});
