// Shared by the Chromium tests that attack the page: executors disposed after each test, and a
// sandbox frame whose document speaks the protocol itself, so every message it posts is forged.
import type { ExecuteResult } from "@codemode/core";
import type { HostReply } from "@codemode/executor-kit";
import { IframeSandboxExecutor, type IframeSandboxExecutorOptions } from "../src/index.ts";
import { MAX_BATCH_CHARS, type PassHandlers, SandboxFrame } from "../src/sandbox-frame.ts";
import type { HarnessOutcome } from "../src/worker-harness.ts";

const made: IframeSandboxExecutor[] = [];
const frames: SandboxFrame[] = [];

/** An executor that `disposeAll` disposes. */
export function executor(options?: IframeSandboxExecutorOptions): IframeSandboxExecutor {
  const created = new IframeSandboxExecutor(options);
  made.push(created);
  return created;
}

/** Removes every frame and disposes every executor made since the last call (for `afterEach`). */
export function disposeAll(): void {
  for (const frame of frames.splice(0)) frame.remove();
  for (const created of made.splice(0)) created.dispose();
}

export function resultOf(outcome: ExecuteResult): unknown {
  if ("error" in outcome)
    throw new Error(`expected a result, got ${JSON.stringify(outcome.error)}`);
  return outcome.result;
}

/** The longest the page's main thread went without running a 10 ms timer, while `work` ran. */
export async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ value: T; stall: number }> {
  let last = performance.now();
  let stall = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
  }, 10);
  try {
    const value = await work();
    return { value, stall };
  } finally {
    clearInterval(timer);
  }
}

/** What the page heard from one pass of a hostile frame. */
export interface Heard {
  calls: [number, string, string, string][];
  logs: string[];
  done: HarnessOutcome[];
  failed: string[];
}

/**
 * A sandbox whose document is `script` instead of the harness: it gets the pass as
 * `run(data, port, relayPort)` and answers the page's heartbeat on the relay's port unless told not
 * to. With `reply`, the page answers every call it starts with that reply at once; with
 * `failing: "throws"`, a failure of the sandbox throws instead of being heard. `ended` settles at the
 * pass's first `done`.
 */
export function hostileFrame(
  script: string,
  options: {
    maxConcurrentCalls?: number;
    maxInputCharsInFlight?: number;
    heartbeat?: boolean;
    reply?: HostReply;
    failing?: "heard" | "throws";
  } = {},
): { frame: SandboxFrame; heard: Heard; ended: Promise<void> } {
  const answer =
    options.heartbeat === false
      ? ""
      : `if (relay) relay.onmessage = () => relay.postMessage({ type: "pong" });`;
  const source = `<!doctype html><html><head><script>
    addEventListener("message", (event) => {
      if (event.source !== parent || !event.ports[0]) return;
      const relay = event.ports[1];
      ${answer}
      (${script})(event.data, event.ports[0], relay);
    });
    parent.postMessage({ type: "ready" }, "*");
  </script></head><body></body></html>`;
  const frame = new SandboxFrame(source);
  frames.push(frame);
  const heard: Heard = { calls: [], logs: [], done: [], failed: [] };
  const { reply } = options;
  let end: () => void = () => {};
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  const handlers: PassHandlers = {
    call: (...args) => {
      heard.calls.push(args);
      if (reply !== undefined) frame.reply(args[0], reply);
    },
    log: (line) => heard.logs.push(line),
    done: (outcome) => {
      heard.done.push(outcome);
      end();
    },
    failed: (error) => {
      if (options.failing === "throws") throw new Error(`the sandbox failed: ${error.message}`);
      heard.failed.push(`${error.code}: ${error.message}`);
    },
  };
  frame.start(
    {
      spec: {
        namespaces: { ns: ["echo"] },
        timers: false,
        maxLineChars: 100,
        maxLogLines: 10,
        maxConcurrentCalls: options.maxConcurrentCalls ?? 256,
        maxInputCharsInFlight: options.maxInputCharsInFlight ?? 32 * 1024 * 1024,
        maxBatchChars: MAX_BATCH_CHARS,
      },
      code: "async () => 1",
    },
    handlers,
  );
  return { frame, heard, ended };
}
