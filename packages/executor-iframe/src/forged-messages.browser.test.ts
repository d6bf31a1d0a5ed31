// Forged messages from inside the sandbox, in Chromium: a sandbox document that speaks the protocol
// itself (so every message it posts is forged: wrong or replayed nonces, another pass's nonce,
// malformed and oversized messages, a nested frame), and programs that try to reach the pass's
// channel and nonce by replacing built-ins or through the harness's own functions. Forgeries from
// other windows of the page are covered in iframe-sandbox-executor.browser.test.ts.
//
// Getters and proxies cannot travel in a message at all: postMessage copies with structured clone,
// which reads a getter once in the sender (the copy holds its value) and refuses a Proxy with a
// DataCloneError. The hostile document below checks both.
import { afterEach, describe, expect, it } from "vitest";
import {
  disposeAll,
  hostileFrame as frameOf,
  resultOf,
  executor as trackedExecutor,
} from "../test/hostile-frame.ts";

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

afterEach(disposeAll);

/** A sandbox frame whose document runs `script`, failing the test if the sandbox fails. */
const hostileFrame = (script: string) => frameOf(script, { failing: "throws" });

describe("IframeSandboxExecutor: a sandbox that forges the harness's messages", () => {
  it("is heard only with its own nonce, on its own channel, and only until its first done", async () => {
    // a first pass tells its nonce: the second replays it as an old message
    const first = hostileFrame(`(data, port) => {
      port.postMessage({ type: "done", nonce: data.nonce, outcome: ["ok", JSON.stringify(data.nonce)], dropped: 0 });
    }`);
    await first.ended;
    first.frame.retire();
    const old = JSON.parse(first.heard.done[0]?.[1] ?? '""') as string;
    expect(old).toMatch(/^[0-9a-f]{32}$/);

    // a pass running beside: its nonce must not work on another pass's channel
    const beside = hostileFrame(`(data, port) => {
      port.postMessage({ type: "log", nonce: data.nonce, line: data.nonce });
    }`);
    await expect.poll(() => beside.heard.logs.length, { timeout: 20_000 }).toBe(1);
    const other = beside.heard.logs[0] ?? "";

    const forger = hostileFrame(`(data, port) => {
      const nonce = data.nonce;
      const post = (message) => port.postMessage(message);
      const done = (text) => ["ok", JSON.stringify(text)];
      post({ type: "done", nonce: "0".repeat(32), outcome: done("wrong nonce"), dropped: 0 });
      post({ type: "done", nonce: ${JSON.stringify(old)}, outcome: done("replayed"), dropped: 0 });
      post({ type: "call", nonce: ${JSON.stringify(old)}, id: 1, namespace: "ns", method: "echo", input: "1" });
      post({ type: "done", nonce: ${JSON.stringify(other)}, outcome: done("another pass"), dropped: 0 });
      post({ type: "call", nonce: ${JSON.stringify(other)}, id: 1, namespace: "ns", method: "echo", input: "2" });
      post({ type: "done", outcome: done("no nonce"), dropped: 0 });
      post({ type: "done", nonce: [nonce], outcome: done("nonce in an array"), dropped: 0 });
      post([{ type: "done", nonce, outcome: done("in an array") }]);
      post(JSON.stringify({ type: "done", nonce, outcome: done("as text"), dropped: 0 }));
      // malformed fields with the right nonce
      post({ type: "call", nonce, id: "1", namespace: "ns", method: "echo", input: "3" });
      post({ type: "call", nonce, id: 2, namespace: ["ns"], method: "echo", input: "4" });
      post({ type: "call", nonce, id: 3, namespace: "ns", method: "echo", input: { forged: true } });
      post({ type: "done", nonce, outcome: "ok", dropped: 0 });
      post({ type: "log", nonce, line: { text: "an object line" } });
      post({ type: "log", nonce, line: 42 });
      // a getter is read here and sent as its value; a Proxy cannot be sent at all
      post({ type: "log", nonce, get line() { return "from a getter"; } });
      let refused = "sent";
      try { post(new Proxy({ type: "log", nonce, line: "proxy" }, {})); } catch (error) { refused = error.name; }
      post({ type: "log", nonce, line: "proxy: " + refused });
      // an oversized line, and a nested frame that posts to the page's window
      post({ type: "log", nonce, line: "x".repeat(8 * 1024 * 1024) });
      const nested = document.createElement("iframe");
      nested.srcdoc = "<script>top.postMessage(" + JSON.stringify(JSON.stringify({ type: "done", nonce, outcome: done("nested"), dropped: 0 })) + ", '*'); top.postMessage({ type: 'ready' }, '*');<\\/script>";
      nested.onload = () => {
        parent.postMessage({ type: "done", nonce, outcome: done("on the window"), dropped: 0 }, "*");
        setTimeout(() => {
          post({ type: "done", nonce, outcome: done("real"), dropped: 0 });
          post({ type: "done", nonce, outcome: done("after done"), dropped: 0 });
          post({ type: "call", nonce, id: 9, namespace: "ns", method: "echo", input: "5" });
        }, 50);
      };
      document.body.appendChild(nested);
    }`);
    // the page ends a pass at its first done, as the executor does
    await forger.ended;
    forger.frame.retire();
    await sleep(100);
    expect(forger.heard.done).toEqual([["ok", '"real"']]);
    expect(forger.heard.calls, "no call with a wrong nonce or malformed fields").toEqual([]);
    expect(forger.heard.logs.slice(0, 2)).toEqual(["from a getter", "proxy: DataCloneError"]);
    expect(forger.heard.logs).toHaveLength(3);
    expect(forger.heard.logs[2]).toHaveLength(8 * 1024 * 1024);
    expect(beside.heard.done, "the pass beside heard nothing of the forger").toEqual([]);
    expect(beside.heard.calls).toEqual([]);
  });

  it("holds no more input of calls in flight than the pass's budget, whatever the sandbox sends", async () => {
    // five calls of 400 characters each, none answered: the page takes the first two (800 of 1,000)
    const { frame, heard } = frameOf(
      `(data, port) => {
        const refusals = [];
        const call = (id) => port.postMessage({ type: "call", nonce: data.nonce, id, namespace: "ns", method: "echo", input: JSON.stringify("x".repeat(398)) });
        port.onmessage = (event) => {
          // the answer of call 1 makes room for one more
          if (event.data.id === 1) return call(6);
          refusals.push(event.data.id + " " + event.data.reply[3]);
          if (refusals.length === 3) port.postMessage({ type: "log", nonce: data.nonce, line: refusals.join(", ") });
        };
        for (let id = 1; id <= 5; id++) call(id);
      }`,
      { maxInputCharsInFlight: 1_000, failing: "throws" },
    );
    await expect.poll(() => heard.logs.length, { timeout: 20_000 }).toBe(1);
    expect(heard.calls.map((call) => call[0])).toEqual([1, 2]);
    expect(heard.logs[0]).toBe("3 BUDGET_EXCEEDED, 4 BUDGET_EXCEEDED, 5 BUDGET_EXCEEDED");
    // an answer gives its room back
    frame.reply(1, ["ok", '"done"']);
    await expect.poll(() => heard.calls.length, { timeout: 20_000 }).toBe(3);
    expect(heard.calls[2]?.[0]).toBe(6);
    frame.retire();
  });

  it("keeps an executor healthy when the sandbox logs an oversized line and returns an oversized result", async () => {
    const executor = trackedExecutor({ maxLogChars: 1_000 });
    const outcome = await executor.execute({
      code: `async () => {
        console.log("z".repeat(4 * 1024 * 1024));
        postMessage({ type: "log", line: "y".repeat(4 * 1024 * 1024) });
        return "w".repeat(8 * 1024 * 1024);
      }`,
      globals: {},
    });
    expect((resultOf(outcome) as string).length).toBe(8 * 1024 * 1024);
    expect(outcome.logs.join("").length).toBeLessThan(1_100);
    const next = await executor.execute({ code: "async () => 'next'", globals: {} });
    expect(resultOf(next)).toBe("next");
  });
});

describe("IframeSandboxExecutor: a program that pretends to be the harness", () => {
  it("posts from its worker to no one: the forged outcome is not the pass's", async () => {
    const executor = trackedExecutor();
    const outcome = await executor.execute({
      code: `async () => {
        const outcome = ["ok", JSON.stringify("forged")];
        postMessage({ type: "ready" });
        for (const nonce of ["", "0".repeat(32), undefined]) {
          postMessage({ type: "done", nonce, outcome, dropped: 0 });
          postMessage({ type: "call", nonce, id: 1, namespace: "ns", method: "echo", input: '"forged"' });
        }
        await ns.echo("real call");
        return "real";
      }`,
      globals: { ns: { echo: async (input) => input } },
    });
    expect(resultOf(outcome)).toBe("real");
  });

  it("cannot learn the channel or the nonce by replacing postMessage, event data or listeners", async () => {
    const executor = trackedExecutor();
    const calls: unknown[] = [];
    const outcome = await executor.execute({
      code: `async () => {
        const caught = { ports: [], texts: [] };
        const keep = (value) => { try { caught.texts.push(JSON.stringify(value)); } catch {} };
        const send = MessagePort.prototype.postMessage;
        MessagePort.prototype.postMessage = function (message, ...rest) {
          caught.ports.push(this); keep(message); return send.call(this, message, ...rest);
        };
        const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data");
        Object.defineProperty(MessageEvent.prototype, "data", {
          get() { const value = data.get.call(this); keep(value); if (this.target) caught.ports.push(this.target); return value; },
          configurable: true,
        });
        const listen = EventTarget.prototype.addEventListener;
        EventTarget.prototype.addEventListener = function (...args) { caught.ports.push(this); return listen.apply(this, args); };
        console.log("a line");
        await ns.echo("a call");
        const nonces = caught.texts.map((text) => /"nonce":"([0-9a-f]+)"/.exec(text)?.[1]).filter(Boolean);
        for (const port of caught.ports) {
          for (const nonce of nonces) {
            try { send.call(port, { type: "done", nonce, outcome: ["problem", "forged by the program"], dropped: 0 }); } catch {}
          }
        }
        await ns.echo("after");
        return { ports: caught.ports.length, nonces: nonces.length };
      }`,
      globals: {
        ns: {
          echo: async (input) => {
            calls.push(input);
            return input;
          },
        },
      },
    });
    expect(resultOf(outcome)).toEqual({ ports: 0, nonces: 0 });
    expect(calls).toEqual(["a call", "after"]);
  });

  it("cannot end the pass through the harness's functions, found in stack frames or callers", async () => {
    const executor = trackedExecutor();
    const code = `function program() {
      const found = new Set();
      Error.prepareStackTrace = (error, frames) => {
        for (const frame of frames) { const fn = frame.getFunction(); if (fn) found.add(fn); }
        return "";
      };
      void new Error("probe").stack;
      for (let fn = program.caller, step = 0; typeof fn === "function" && step < 20; step++) {
        found.add(fn);
        try { fn = fn.caller; } catch { break; }
      }
      found.delete(program);
      const forged = {
        type: "run", nonce: "forged",
        spec: { namespaces: { console: [] }, timers: false, maxLineChars: 10, maxLogLines: 10 },
        code: "async () => 'forged'",
      };
      const port = new MessageChannel().port1;
      let tried = 0;
      for (const fn of found) {
        for (const input of [forged, ["problem", "forged"], { data: forged, ports: [port] }]) {
          try { fn(input); tried++; } catch {}
        }
      }
      return "own result";
    }`;
    const outcome = await executor.execute({ code, globals: {} });
    // whatever the program called, the pass ends as data with its own result or error
    if ("error" in outcome) expect(outcome.error.code).toBe("THROWN");
    else expect(outcome.result).toBe("own result");
    const next = await executor.execute({ code: "async () => 'next'", globals: {} });
    expect(resultOf(next)).toBe("next");
  });
});
