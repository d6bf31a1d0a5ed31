// What an attacker who writes the program (or replaces the harness) can do to the page, in Chromium:
// flood it with calls, kill its sandbox's process or worker, send malformed or late messages, and
// call everything reachable from the sandbox's globals. Each test names the symptom it guards. The
// cases every executor shares (a flood of calls bounded in flight, calls made while the result is
// read) are the conformance suite's "hostile sandbox" group.
import {
  type Connector,
  createCodemodeRuntime,
  type ExecuteRequest,
  type HostNamespaces,
  memoryStore,
} from "@codemode/core";
import { afterEach, describe, expect, it } from "vitest";
import {
  disposeAll,
  executor,
  hostileFrame,
  longestStall,
  resultOf,
} from "../test/hostile-frame.ts";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

afterEach(disposeAll);

describe("IframeSandboxExecutor: calls in flight", () => {
  it("keeps the page responsive while a pass floods it with calls past the limit, refused in the sandbox", async () => {
    const sandbox = executor({ maxConcurrentCalls: 64 });
    const globals: HostNamespaces = { ns: { slow: () => sleep(5).then(() => 1) } };
    const calls = (count: number) => `async () => {
      const calls = [];
      for (let i = 0; i < ${count}; i++) calls.push(ns.slow(i));
      const settled = await Promise.allSettled(calls);
      const refused = settled.filter((s) => s.status === "rejected");
      return { settled: settled.length, refused: refused.length, message: refused[0]?.reason.message };
    }`;
    // The page's longest stall (the longest its main thread went without running a 10 ms timer)
    // during the flood, against the same during a pass of 64 calls that the page serves alike: the
    // least of three tries each, so a stall the machine's load caused in one try does not count (a
    // page the flood held stalls in every try), and the bound grows with what the load costs the
    // calm pass.
    const floods: number[] = [];
    const calm: number[] = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const { value: outcome, stall } = await longestStall(() =>
        sandbox.execute({ code: calls(30_000), globals }),
      );
      const result = resultOf(outcome) as { settled: number; refused: number; message: string };
      expect(result.settled).toBe(30000);
      expect(result.refused).toBeGreaterThan(0);
      expect(result.message).toMatch(/ns\.slow was not called: more than 64 calls .* in flight/);
      floods.push(stall);
      const baseline = await longestStall(() => sandbox.execute({ code: calls(64), globals }));
      expect(resultOf(baseline.value)).toMatchObject({ settled: 64, refused: 0 });
      calm.push(baseline.stall);
    }
    const bound = Math.max(400, 5 * Math.min(...calm));
    expect(
      Math.min(...floods),
      `the page's main thread is never held for long (stalls ${floods.map(Math.round)} ms in the flood, ${calm.map(Math.round)} ms in a calm pass)`,
    ).toBeLessThan(bound);
  }, 120_000);

  it("refuses, on the page, calls past the limit from a harness that does not keep it", async () => {
    const { heard } = hostileFrame(
      `(data, port) => {
        let refused = 0;
        port.onmessage = (event) => {
          if (event.data.reply[0] === "error" && event.data.reply[3] === "BUDGET_EXCEEDED") refused++;
          if (refused === 1000 - 8) port.postMessage({ type: "log", nonce: data.nonce, line: "refused " + refused });
        };
        for (let id = 1; id <= 1000; id++) {
          port.postMessage({ type: "call", nonce: data.nonce, id, namespace: "ns", method: "echo", input: "1" });
        }
      }`,
      { maxConcurrentCalls: 8 },
    );
    await expect.poll(() => heard.logs, { timeout: 20_000 }).toEqual([`refused ${1000 - 8}`]);
    expect(heard.calls).toHaveLength(8);
  });
});

describe("IframeSandboxExecutor: messages the page does not trust", () => {
  it("takes a call only with a new safe positive integer id and string fields", async () => {
    const { heard } = hostileFrame(`(data, port) => {
      const call = (id, extra = {}) => port.postMessage({ type: "call", nonce: data.nonce, id, namespace: "ns", method: "echo", input: "1", ...extra });
      call(1); call(1); call(1.5); call(-1); call(0); call(NaN); call(2 ** 60); call(Infinity);
      call(2, { namespace: ["ns"] });
      call(3, { input: ["1"] });
      call(4);
      call(3);
      port.postMessage({ type: "log", nonce: data.nonce, line: "sent" });
    }`);
    await expect.poll(() => heard.logs, { timeout: 20_000 }).toEqual(["sent"]);
    expect(heard.calls.map(([id]) => id)).toEqual([1, 4]);
  });

  it("refuses a call whose input is larger than a call may send, before decoding it", async () => {
    const { heard } = hostileFrame(`(data, port) => {
      port.onmessage = (event) => {
        const reply = event.data.reply;
        port.postMessage({ type: "log", nonce: data.nonce, line: event.data.id + " " + reply[3] });
      };
      port.postMessage({ type: "call", nonce: data.nonce, id: 1, namespace: "ns", method: "echo", input: JSON.stringify("x".repeat(33 * 1024 * 1024)) });
    }`);
    // 33 MiB cross two message ports first: give a loaded machine time
    await expect.poll(() => heard.logs, { timeout: 20_000 }).toEqual(["1 TOO_LARGE"]);
    expect(heard.calls).toEqual([]);
  });

  it("ends a pass only with an outcome of strings, and hears nothing of it after its end", async () => {
    const { heard } = hostileFrame(`(data, port) => {
      const post = (message) => port.postMessage({ nonce: data.nonce, ...message });
      // String() of this array would be the text of a result: it must not be read as one
      post({ type: "done", outcome: ["ok", ['"forged"']], dropped: 0 });
      post({ type: "done", outcome: ["ok", { length: 1 }], dropped: 0 });
      post({ type: "done", outcome: [["ok"], '"forged"'], dropped: 0 });
      post({ type: "done", outcome: ["ok", '"real"'], dropped: 0 });
      // the same task: the page has not retired the pass yet
      post({ type: "call", id: 1, namespace: "ns", method: "echo", input: "1" });
      post({ type: "log", line: "after the end" });
      post({ type: "done", outcome: ["ok", '"again"'], dropped: 0 });
    }`);
    await expect.poll(() => heard.done.length, { timeout: 20_000 }).toBe(1);
    await sleep(100);
    expect(heard.done).toEqual([["ok", '"real"']]);
    expect(heard.calls, "nothing reaches the host functions after the pass ended").toEqual([]);
    expect(heard.logs).toEqual([]);
  });

  it("refuses the calls of a pass whose signal aborted, without reaching its host functions", async () => {
    const sandbox = executor();
    const controller = new AbortController();
    const reached: unknown[] = [];
    const outcome = await sandbox.execute({
      code: `async () => {
        await ns.stop(1);
        for (let i = 0; i < 20; i++) ns.record(i).catch(() => {});
        return "done";
      }`,
      globals: {
        ns: {
          stop: async () => {
            controller.abort("paused");
            return 1;
          },
          record: async (input) => {
            reached.push(input);
          },
        },
      },
      signal: controller.signal,
    });
    await sleep(100);
    expect(outcome).toMatchObject({ error: { code: "ABORTED" } });
    expect(reached).toEqual([]);
  });
});

describe("IframeSandboxExecutor: a sandbox that dies", () => {
  it("gives the program no way to close its own worker (which would end it without a word)", async () => {
    // its limit is past the test's timeout: a pass whose worker was closed would never answer, so
    // its result is the proof and no clock is read
    const sandbox = executor({ timeout: 600_000 });
    const outcome = await sandbox.execute({
      code: `async () => {
        const found = [];
        for (let object = globalThis; object; object = Object.getPrototypeOf(object)) {
          if (typeof Object.getOwnPropertyDescriptor(object, "close")?.value === "function") found.push(object.close);
        }
        for (const close of found) { try { close.call(globalThis); } catch {} }
        return (await ns.echo(found.length)) + " close functions found";
      }`,
      globals: { ns: { echo: async (input) => input } },
    });
    expect(outcome).toMatchObject({ result: "0 close functions found" });
  });

  it("fails a pass at once when the page removes its iframe", async () => {
    // its limit is past the test's timeout: ABORTED with this message says the removal ended it
    const sandbox = executor({ timeout: 600_000 });
    const outcome = await sandbox.execute({
      code: "async () => { await ns.wait(); await new Promise(() => {}); }",
      globals: {
        ns: {
          wait: async () => {
            for (const frame of document.querySelectorAll("iframe")) frame.remove();
          },
        },
      },
    });
    expect(outcome).toMatchObject({ error: { code: "ABORTED" } });
    expect((outcome as { error: { message: string } }).error.message).toMatch(/iframe was removed/);
  });

  it("fails a pass whose harness stops answering the heartbeat", async () => {
    const { heard } = hostileFrame("() => {}", { heartbeat: false });
    // the page waits 15 s for an answer
    await expect.poll(() => heard.failed, { timeout: 60_000 }).toHaveLength(1);
    expect(heard.failed[0]).toMatch(/^MEMORY: .*answered nothing for 15 s/);
  }, 90_000);
});

describe("IframeSandboxExecutor: everything reachable from the sandbox", () => {
  // Walks every value reachable from the worker's global object (own properties, accessors,
  // prototypes) and what the harness hands to rewritten built-ins (getters on Object.prototype,
  // Promise.prototype.then, Symbol.toPrimitive, Map and iterator methods), then calls each function
  // found with hostile arguments. Only the connector methods and the `codemode` SDK may reach the host.
  const walker = `async () => {
    // the walk's own tools, taken first: what it calls may replace any built-in
    const apply = Reflect.apply, ownKeys = Reflect.ownKeys, describe = Reflect.getOwnPropertyDescriptor;
    const protoOf = Reflect.getPrototypeOf, define = Reflect.defineProperty;
    const now = performance.now.bind(performance), later = setTimeout.bind(globalThis);
    const PromiseType = Promise, race = Promise.race.bind(Promise), then = Promise.prototype.then;
    const setHas = Set.prototype.has, setAdd = Set.prototype.add, push = Array.prototype.push;
    const seen = new Set();
    const queue = [globalThis];
    let head = 0;
    const handed = [];
    const enqueue = (value) => { if ((typeof value === "object" && value !== null) || typeof value === "function") apply(push, queue, [value]); };
    const keep = (value) => { if ((typeof value === "object" && value !== null) || typeof value === "function") apply(push, handed, [value]); };
    // rewritten built-ins: whatever the harness hands them is collected
    const hooks = ["type", "nonce", "id", "reply", "data", "ports", "port", "then", "outcome", "line", "input", "namespace", "method", "spec", "code", "prelude"];
    for (const key of hooks) {
      define(Object.prototype, key, {
        get() { keep(this); return undefined; },
        set(value) { keep(this); keep(value); },
        configurable: true,
      });
    }
    Promise.prototype.then = function (...args) { keep(this); for (const arg of args) keep(arg); return apply(then, this, args); };
    Object.prototype[Symbol.toPrimitive] = function () { keep(this); return "primitive"; };
    for (const name of ["get", "set", "delete", "values", "has"]) {
      const original = Map.prototype[name];
      Map.prototype[name] = function (...args) { keep(this); for (const arg of args) keep(arg); return apply(original, this, args); };
    }
    const forgedRun = { type: "run", nonce: "forged", spec: { namespaces: {}, timers: false, maxLineChars: 10, maxLogLines: 1, maxConcurrentCalls: 1 }, code: "async () => 'forged'" };
    const forgedDone = { type: "done", nonce: "forged", outcome: ["ok", '"forged"'], dropped: 0 };
    const channel = new MessageChannel();
    const argumentSets = [[], [forgedRun, [channel.port2]], [forgedDone], ["ok", '"forged"'], [{ data: forgedRun, ports: [channel.port1] }]];
    const receivers = [undefined, globalThis, channel.port1];
    // these only block the worker's thread (the pass would end at its timeout)
    const skip = new Set([Atomics.wait, Atomics.pause]);
    let calls = 0;
    const started = now();
    const visit = async (value) => {
      if (apply(setHas, seen, [value])) return;
      apply(setAdd, seen, [value]);
      let keys = [];
      try { keys = ownKeys(value); } catch {}
      for (const key of keys) {
        let descriptor;
        try { descriptor = describe(value, key); } catch { continue; }
        if (!descriptor) continue;
        enqueue(descriptor.value); enqueue(descriptor.get); enqueue(descriptor.set);
      }
      try { enqueue(protoOf(value)); } catch {}
      if (typeof value !== "function" || apply(setHas, skip, [value])) return;
      for (const args of argumentSets) {
        for (const self of receivers) {
          calls++;
          try {
            const returned = apply(value, self, args);
            if (returned instanceof PromiseType) await race([apply(then, returned, [undefined, () => {}]), new PromiseType((r) => later(r, 2))]);
          } catch {}
        }
      }
    };
    while (head < queue.length && now() - started < 20000) {
      const next = queue[head++];
      for (let index = 0; index < handed.length; index++) enqueue(handed[index]);
      handed.length = 0;
      await visit(next);
    }
    return { calls, seen: seen.size, walked: head >= queue.length };
  }`;

  it("reaches nothing on the host but the connector methods and the codemode SDK", async () => {
    const reached: string[] = [];
    const invoked: string[] = [];
    const inner = executor({ timeout: 60_000 });
    const spying = {
      specificationVersion: "v1" as const,
      execute: (request: ExecuteRequest) => {
        const globals: HostNamespaces = {};
        for (const [namespace, methods] of Object.entries(request.globals)) {
          globals[namespace] = {};
          for (const [method, fn] of Object.entries(methods)) {
            (globals[namespace] as Record<string, unknown>)[method] = (input: unknown) => {
              reached.push(`${namespace}.${method}`);
              return fn(input);
            };
          }
        }
        return inner.execute({ ...request, globals });
      },
    };
    const connector: Connector = {
      specificationVersion: "v1",
      name: "ns",
      methods: () => ({ echo: { description: "Echo." }, other: { description: "Other." } }),
      invoke: async (method, input) => {
        invoked.push(method);
        return input;
      },
    };
    const runtime = createCodemodeRuntime({
      store: memoryStore(),
      executor: spying,
      connectors: [connector],
      limits: { maxCalls: 100_000 },
    });
    const page = { before: Object.keys(window), cookie: document.cookie };
    const output = await runtime.execute({ code: walker });
    expect(output.status, JSON.stringify(output)).toBe("completed");
    const result = (output as { result: { calls: number; seen: number; walked: boolean } }).result;
    expect(result.walked, "the walk got through everything it found").toBe(true);
    expect(result.calls, JSON.stringify(result)).toBeGreaterThan(10_000);
    const allowed = new Set([
      "ns.echo",
      "ns.other",
      "codemode.search",
      "codemode.describe",
      // the prelude's own channel, behind codemode.step and codemode.run
      "codemode.__step_decide",
      "codemode.__step_record",
      "codemode.__snippet",
    ]);
    expect([...new Set(reached)].filter((name) => !allowed.has(name))).toEqual([]);
    expect(invoked.every((method) => method === "echo" || method === "other")).toBe(true);
    await sleep(200);
    const after = reached.length;
    await sleep(300);
    expect(reached.length, "nothing reaches the host after the pass").toBe(after);
    // (the window's indexed keys are its frames: the sandbox kept ready for the next pass)
    const added = Object.keys(window).filter(
      (key) => !/^\d+$/.test(key) && !page.before.includes(key),
    );
    expect(added).toEqual([]);
    expect(document.cookie).toBe(page.cookie);
  }, 90_000);
});
