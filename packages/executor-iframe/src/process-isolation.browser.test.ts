// Passes kept apart in renderer processes of their own, in Chromium: with `sandboxUrl` each pass's
// sandbox is loaded from a site of its own (here a loopback address each: 127.0.0.2, 127.0.0.3, …,
// sites as distinct domains are), so a pass that runs out of memory ends only its own process and
// the pass beside it goes on. Without it, see out-of-memory.browser.test.ts.
//
// A project of its own (vitest.config.ts), for the same reason as that file: after a frame process
// crashed, the page makes no new sandbox here (no `prewarm`, and both sandboxes exist before the crash).

import { afterEach, describe, expect, it } from "vitest";
import { commands } from "vitest/browser";
import { IframeSandboxExecutor, sandboxDocument } from "./index.ts";

const made: IframeSandboxExecutor[] = [];
afterEach(() => {
  for (const created of made.splice(0)) created.dispose();
});

describe("IframeSandboxExecutor: sandboxes on sites of their own", () => {
  it("lets the pass beside one that runs out of memory finish, each sandbox in its own process", async () => {
    const origins = await commands.serveSandbox(sandboxDocument(), ["127.0.0.2", "127.0.0.3"]);
    let next = 0;
    const sandbox = new IframeSandboxExecutor({
      // far past the heartbeat's wait (15 s) and the time a busy machine takes to fill the memory
      timeout: 150_000,
      prewarm: false,
      // each pass on a site of its own
      sandboxUrl: () => `${origins[next++ % origins.length]}/`,
    });
    made.push(sandbox);
    let started: () => void = () => {};
    const besideStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const beside = sandbox.execute({
      code: `async () => { await ns.started(); await ns.released(); return "finished beside"; }`,
      globals: {
        ns: {
          started: async () => started(),
          released: () => released,
        },
      },
    });
    await besideStarted;
    const hogged = await sandbox.execute({
      code: `async () => {
        const kept = [];
        for (;;) kept.push(new Array(2e7).fill(1.5));
      }`,
      globals: {},
    });
    expect(hogged, JSON.stringify(hogged)).toMatchObject({ error: { code: "MEMORY" } });
    release();
    expect(await beside).toMatchObject({ result: "finished beside" });
    // the servers' log is the test run's: only the two hosts this test served are its own
    const requests = (await commands.sandboxRequests()).filter((line) =>
      /^127\.0\.0\.[23] /.test(line),
    );
    expect(requests).toEqual(["127.0.0.2 GET /", "127.0.0.3 GET /"]);
  }, 200_000);
});
