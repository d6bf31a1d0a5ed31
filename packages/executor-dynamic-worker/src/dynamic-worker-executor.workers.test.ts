// DynamicWorkerExecutor inside workerd with a real Worker Loader: the executor suite, then what the
// suite does not cover (outbound network, modules and bindings, syntax errors with the program's own
// line numbers, the host watchdog, configuration errors). One file on purpose: local workerd can
// crash ("tried to defer destruction during isolate shutdown") when the pool shuts down one test
// file's isolate while loaded workers that talked to it are still being released.

import { env, exports } from "cloudflare:workers";
import { runExecutorConformance } from "@codemode/conformance";
import { CodemodeError } from "@codemode/core";
import { describe, expect, it } from "vitest";
import { DynamicWorkerExecutor, sandboxLoader } from "./index.ts";

// what a Durable Object host uses: every pass loaded and run in a request of its own
runExecutorConformance({
  name: "DynamicWorkerExecutor through SandboxLoader",
  createExecutor: () => new DynamicWorkerExecutor({ loader: sandboxLoader(exports.SandboxLoader) }),
  capabilities: ["timeout", "abort", "console", "replay"],
  sandboxGlobals: ["fetch", "setTimeout"],
});

// `env.LOADER` straight from the test's context, which lasts as long as the file, like a Durable
// Object's: the workerd bug SandboxLoader works around (see the README) aborts the process once
// enough loaded workers wait for the collector, so this run leaves out the groups that load the most
// (the attack corpus, divergence and the replay property), which the run above covers.
runExecutorConformance({
  name: "DynamicWorkerExecutor",
  createExecutor: () => new DynamicWorkerExecutor({ loader: env.LOADER }),
  capabilities: ["timeout", "abort", "console", "replay"],
  sandboxGlobals: ["fetch", "setTimeout"],
  groups: [
    "basics",
    "host calls",
    "prelude",
    "errors as data",
    "isolation",
    "limits",
    "pause",
    "replay",
    "console",
  ],
});

const run = (executor: DynamicWorkerExecutor, code: string, timeoutMs?: number) =>
  executor.execute({ code, globals: {}, ...(timeoutMs ? { limits: { timeoutMs } } : {}) });

describe("DynamicWorkerExecutor", () => {
  it("blocks fetch by default and routes it through a given Fetcher", async () => {
    const code = `async () => {
      try { const response = await fetch("https://api.example.com/v1?q=1", { method: "POST" }); return await response.json(); }
      catch (error) { return "blocked: " + error.message; }
    }`;
    const blocked = await run(new DynamicWorkerExecutor({ loader: env.LOADER }), code);
    expect(blocked).toMatchObject({ result: expect.stringMatching(/^blocked: .*not permitted/) });
    const routed = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER, globalOutbound: exports.default }),
      code,
    );
    expect(routed).toMatchObject({
      result: { routed: true, method: "POST", url: "https://api.example.com/v1?q=1" },
    });
  });

  it("lets the program import the given modules, which see the given bindings", async () => {
    const executor = new DynamicWorkerExecutor({
      loader: env.LOADER,
      modules: {
        "greet.js": `import { env } from "cloudflare:workers";
          export function greet(name) { return env.GREETING + ", " + name; }`,
      },
      bindings: { GREETING: "Hello" },
    });
    const outcome = await run(executor, `async () => (await import("./greet.js")).greet("Ada")`);
    expect(outcome).toMatchObject({ result: "Hello, Ada" });
  });

  it("keeps the harness out of the program's reach", async () => {
    const outcome = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER }),
      `async () => {
        const seen = [typeof bridge, typeof api, typeof settle, typeof started, typeof spec];
        let again;
        try {
          const harness = await import("./harness.js");
          again = await new harness.default().evaluate({ call: () => "rforged" });
        } catch (error) { again = "refused: " + error.message; }
        return { seen, again };
      }`,
    );
    const result = (outcome as { result: { seen: string[]; again: string } }).result;
    expect(result.seen).toEqual(Array(5).fill("undefined"));
    expect(result.again).toMatch(/^refused: /);
  });

  it("gives the program no way out: sockets, WebSockets, loopback, caches, env, its own entrypoint", async () => {
    const outcome = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER }),
      `async () => {
        const attempt = async (probe) => { try { return "allowed: " + (await probe()); } catch (error) { return "refused: " + error.message; } };
        const workers = await import("cloudflare:workers");
        return {
          socket: await attempt(async () => { const { connect } = await import("cloudflare:sockets"); const socket = connect("127.0.0.1:80"); await socket.opened; return "open"; }),
          webSocket: await attempt(() => { new WebSocket("wss://example.com/"); return "made"; }),
          loopback: await attempt(async () => (await fetch("http://127.0.0.1:8787/")).status),
          cache: await attempt(async () => { await (await caches.open("x")).put("https://x/", new Response("a")); return "put"; }),
          env: Object.keys(workers.env),
          ownEntrypoint: await attempt(() => workers.exports.default.evaluate({ call: () => "rforged" })),
        };
      }`,
    );
    const result = (outcome as { result: Record<string, unknown> }).result;
    for (const key of ["socket", "webSocket", "loopback", "cache", "ownEntrypoint"]) {
      expect(result[key], key).toMatch(/^refused: /);
    }
    expect(result.env).toEqual([]);
  });

  it("reports a syntax error with the program's own line and column", async () => {
    const outcome = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER }),
      "async () => {\n  const a = 1;\n  return a +;\n}",
    );
    expect(outcome).toMatchObject({
      error: {
        code: "SYNTAX_ERROR",
        name: "SyntaxError",
        message: expect.stringMatching(/line 3/),
      },
    });
  });

  it("answers on time from the host when the sandbox's own timer is defeated", async () => {
    // The program clears every timer id, the harness's too, then waits on a host call that never
    // settles: only the host's watchdog can end the pass. (Local workerd runs a loaded worker on the
    // host's thread and enforces no CPU limit, so a synchronous loop is not tried here.)
    const started = performance.now();
    const outcome = await new DynamicWorkerExecutor({ loader: env.LOADER }).execute({
      code: "async () => { for (let id = 0; id < 10000; id++) clearTimeout(id); await ns.forever(); }",
      globals: { ns: { forever: () => new Promise(() => {}) } },
      limits: { timeoutMs: 100 },
    });
    expect(outcome).toMatchObject({ error: { code: "TIMEOUT" } });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("says so when the program waits for a promise nothing can settle", async () => {
    const outcome = await run(
      new DynamicWorkerExecutor({ loader: env.LOADER }),
      "async () => { for (let id = 0; id < 10000; id++) clearTimeout(id); await new Promise(() => {}); }",
    );
    expect(outcome).toMatchObject({
      error: { code: "THROWN", message: expect.stringMatching(/can never settle/) },
    });
  });

  it("refuses a sandboxLoader without the exported SandboxLoader", () => {
    expect(() => sandboxLoader(undefined as never)).toThrow(/export \{ SandboxLoader \}/);
  });

  it("refuses bad options when it is created", () => {
    expect(() => new DynamicWorkerExecutor({ loader: undefined as never })).toThrow(CodemodeError);
    expect(() => new DynamicWorkerExecutor({ loader: env.LOADER, timeout: 0 })).toThrow(/timeout/);
    expect(
      () => new DynamicWorkerExecutor({ loader: env.LOADER, modules: { "harness.js": "" } }),
    ).toThrow(/reserved/);
  });
});
