// The test worker: `TestAgent` holds a durable runtime in its own SQLite (as an application would),
// `StoreHost` lends its SQLite to the store suite.
import { DurableObject } from "cloudflare:workers";
import { DynamicWorkerExecutor } from "../../src/cloudflare.ts";
import { type CodemodeRuntime, createCodemodeRuntime } from "../../src/index.ts";
import { readLedger, trackerConnector } from "./tracker.ts";

export class TestAgent extends DurableObject<Env> {
  readonly runtime: CodemodeRuntime;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.runtime = createCodemodeRuntime({
      ctx: this.ctx,
      executor: new DynamicWorkerExecutor({ loader: env.LOADER }),
      connectors: [trackerConnector(ctx.storage.sql)],
      name: "agent",
    });
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
