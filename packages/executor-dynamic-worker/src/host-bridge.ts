import { RpcTarget } from "cloudflare:workers";
import type { HostNamespaces } from "@codemode/core";
import { callHost, errorReply, type LogSink, type ReplyLimit } from "@codemode/executor-kit";
import type { LogBatch } from "./harness-source.ts";

export interface HostBridgeOptions {
  globals: HostNamespaces;
  logs: LogSink;
  replyLimit: ReplyLimit;
  /** runs a saved program's source with an encoded input; answers with a reply string */
  evaluate(source: string, input: string): Promise<string>;
  /** the sandbox answered this many more recorded calls itself (see `ReplayHint`) */
  advance?(count: number): void;
}

const LATE = errorReply({
  name: "Error",
  code: "ABORTED",
  message:
    "The run ended before this call finished; its result was dropped. Await every call before returning.",
});
const ENDED = (what: string) =>
  errorReply({
    name: "Error",
    code: "ABORTED",
    message: `The run has ended; ${what} was not run.`,
  });

/**
 * The one host object a sandbox worker holds, passed to it as an RPC argument. Every namespace call
 * and the console lines that came before it arrive here. Once the pass is over (`close`), new calls
 * are refused and calls still in flight are answered at once, so the sandbox isolate is not kept
 * alive by them; the host work they started runs to its end but its result is dropped.
 */
export class HostBridge extends RpcTarget {
  readonly #options: HostBridgeOptions;
  #closed = false;
  #close!: () => void;
  readonly #closing = new Promise<string>((resolve) => {
    this.#close = () => resolve(LATE);
  });

  constructor(options: HostBridgeOptions) {
    super();
    this.#options = options;
  }

  call(
    namespace: unknown,
    method: unknown,
    input: unknown,
    logs: unknown,
    replayed?: unknown,
  ): Promise<string> | string {
    const ns = String(namespace);
    const name = String(method);
    const text = typeof input === "string" ? input : "null";
    return this.#serve(logs, replayed, `${ns}.${name}`, () =>
      callHost(this.#options.globals, ns, name, text, this.#options.replyLimit),
    );
  }

  evaluate(
    source: unknown,
    input: unknown,
    logs: unknown,
    replayed?: unknown,
  ): Promise<string> | string {
    const text = typeof input === "string" ? input : "null";
    return this.#serve(logs, replayed, "codemode.run", () =>
      this.#options.evaluate(String(source), text),
    );
  }

  /** What every message from the sandbox gets: its logs and replay count taken, then the work, unless the pass is over. */
  #serve(
    logs: unknown,
    replayed: unknown,
    what: string,
    work: () => Promise<string>,
  ): Promise<string> | string {
    this.addLogs(logs);
    this.addReplayed(replayed);
    if (this.#closed) return ENDED(what);
    return Promise.race([work(), this.#closing]);
  }

  /** Takes a batch of console lines from the sandbox (ignored once the pass is over). */
  addLogs(batch: unknown): void {
    if (this.#closed || !Array.isArray(batch)) return;
    const [lines, dropped] = batch as NonNullable<LogBatch>;
    if (Array.isArray(lines)) for (const line of lines) this.#options.logs.add(String(line));
    if (typeof dropped === "number") this.#options.logs.drop(dropped);
  }

  /** Counts calls the sandbox answered from the recorded ones (ignored once the pass is over). */
  addReplayed(count: unknown): void {
    if (this.#closed || typeof count !== "number" || !Number.isSafeInteger(count) || count <= 0) {
      return;
    }
    this.#options.advance?.(count);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#close();
  }
}
