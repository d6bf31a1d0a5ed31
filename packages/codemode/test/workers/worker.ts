// The test worker: `TestAgent` holds a durable runtime in its own SQLite (as an application would),
// `StoreHost` lends its SQLite to the store suite.
import { DurableObject } from "cloudflare:workers";
import { DynamicWorkerExecutor } from "../../src/cloudflare.ts";
import { type CodemodeRuntime, createCodemodeRuntime } from "../../src/index.ts";
import { type FaultMode, readLedger, trackerConnector } from "./tracker.ts";

export class TestAgent extends DurableObject<Env> {
  readonly runtime: CodemodeRuntime;
  /** the same runtime a minute later: what expiry sees once a run's liveness has lapsed */
  readonly #later: CodemodeRuntime;
  /** fault points armed in this instance's memory: an eviction disarms them */
  readonly #armed = new Map<string, FaultMode>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const options: Parameters<typeof createCodemodeRuntime>[0] = {
      ctx: this.ctx,
      executor: new DynamicWorkerExecutor({ loader: env.LOADER }),
      connectors: [
        trackerConnector(ctx.storage.sql, {
          trip: async (point) => {
            const mode = this.#armed.get(point);
            if (mode === undefined) return;
            // held until the object is evicted: its storage then refuses every statement
            while (mode === "stall") {
              await new Promise((done) => setTimeout(done, 20));
              ctx.storage.sql.exec("SELECT 1");
            }
            this.#armed.delete(point);
            // a timer lets the object's storage commit what it wrote so far
            if (mode === "abort-after-commit") await new Promise((done) => setTimeout(done, 5));
            ctx.abort(`fault injected at ${point}`);
          },
        }),
      ],
      name: "agent",
    };
    this.runtime = createCodemodeRuntime(options);
    this.#later = createCodemodeRuntime({ ...options, now: () => Date.now() + 60_000 });
  }

  execute(code: string) {
    return this.runtime.execute({ code });
  }
  approve(executionId: string) {
    return this.runtime.approve({ executionId });
  }
  reject(executionId: string, seq: number) {
    return this.runtime.reject({ executionId, seq });
  }
  rollback(executionId: string) {
    return this.runtime.rollback({ executionId });
  }
  /**
   * a rollback a minute later: a revert an evicted instance had taken is stale by then, in doubt
   * (reverted again only when named in `revertAgain`)
   */
  rollbackLater(executionId: string, revertAgain?: number[]) {
    return this.#later.rollback({ executionId, ...(revertAgain ? { revertAgain } : {}) });
  }
  pending() {
    return this.runtime.pending();
  }
  async status(id: string): Promise<string | undefined> {
    return (await this.runtime.execution(id))?.status;
  }
  saveSnippet(name: string, executionId: string) {
    return this.runtime.saveSnippet(name, {
      executionId,
      description: "Create a task and list all.",
    });
  }
  snippets() {
    return this.runtime.snippets();
  }
  /** the next time a tracker method reaches `point`, it acts as `mode` says */
  arm(point: string, mode: FaultMode) {
    this.#armed.set(point, mode);
  }
  /** expiry a minute later (a running run's liveness lasts 30 s after its last renewal) */
  expirePaused(maxAgeMs: number) {
    return this.#later.expirePaused({ maxAgeMs });
  }
  /** a run's status and its journal as `[seq, method, state]` */
  async journal(id: string) {
    const execution = await this.runtime.execution(id);
    return {
      status: execution?.status,
      calls: execution?.calls.map((call): [number, string, string] => [
        call.seq,
        call.method,
        call.state,
      ]),
    };
  }
  rows(table: "tracker_tasks" | "tracker_comments") {
    return this.ctx.storage.sql.exec(`SELECT * FROM ${table} ORDER BY id`).toArray();
  }
  ledger() {
    return readLedger(this.ctx.storage.sql);
  }
  tables() {
    return this.ctx.storage.sql
      .exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .toArray()
      .map((row) => String(row.name));
  }
}

export class StoreHost extends DurableObject<Env> {}

export default {
  async fetch(): Promise<Response> {
    return new Response("codemode test worker");
  },
};
