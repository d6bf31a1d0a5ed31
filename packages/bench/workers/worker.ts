// The bench worker, started by src/workers.bench.ts under local workerd. Every case is timed inside
// a Durable Object (what an agent is), so HTTP and the driver add nothing, and each request times one
// round of one subject, so the driver can alternate subjects round by round.
//   GET /measure?subject=S&case=C → JSON { times: number[] } (ms; `journaled` also { approved })
//   GET /stress?passes=N → how many sequential passes completed.
// Subjects: `ours` (DynamicWorkerExecutor on env.LOADER), `loader` (the same through SandboxLoader,
// as the executor's README advises inside a Durable Object), `unticked` (`loader` without the ticks
// against runaway code, as it runs on Cloudflare; the loop case only), `quickjs` (QuickJSExecutor in workerd),
// `reference` (@cloudflare/codemode 0.5.6, whose runtime needs its facet class exported from this
// module, as its docs say; its executor loads through SandboxLoader too, see #referenceLoader),
// `floor` (a bare Worker Loader load and one RPC call, what any such executor pays, through the same
// extra hop).
// Cases: `empty` (a pass of an empty program, 10 passes per sample: workerd's clock moves in whole
// ms), `calls` (100 sequential awaited calls), `parallel` (the same 100 calls made at once, one
// `Promise.all`), `journaled` (a runtime pass with 100 journaled reads
// that pauses on a write, then the approval pass that replays them), `loop` (a pass whose program
// sums 10^7 numbers in a loop: our executor runs it instrumented, and as written (`unticked`), the
// reference and the floor as written; QuickJS is left out, its interpreter takes seconds).

import { DurableObject, RpcTarget, WorkerEntrypoint } from "cloudflare:workers";
import {
  CodemodeConnector,
  type ConnectorTools,
  createCodemodeRuntime as createReferenceRuntime,
  DynamicWorkerExecutor as ReferenceExecutor,
} from "@cloudflare/codemode";
import type { ExecuteRequest } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { createCodemodeRuntime, type Executor, functionConnector } from "codemode";
import { DynamicWorkerExecutor, sandboxLoader } from "codemode/cloudflare";
import wasmModule from "./quickjs.wasm";

export { CodemodeRuntime } from "@cloudflare/codemode";
export { SandboxLoader } from "codemode/cloudflare";

const CALLS = 100;
const EMPTY_BATCH = 10;
const EMPTY = "async () => 1";
const READS = `async () => {
  let sum = 0;
  for (let i = 0; i < ${CALLS}; i++) sum += (await store.read({ key: i })).value;
  return sum;
}`;
/** the same reads made at once: one `Promise.all` */
const READS_AT_ONCE = `async () => {
  const values = await Promise.all(Array.from({ length: ${CALLS} }, (_, i) => store.read({ key: i })));
  return values.reduce((sum, { value }) => sum + value, 0);
}`;
const READS_THEN_WRITE = `async () => {
  let sum = 0;
  for (let i = 0; i < ${CALLS}; i++) sum += (await store.read({ key: i })).value;
  await store.write({ sum });
  return sum;
}`;
/** the sum of key * 2 over the keys 0 … CALLS - 1 */
const EXPECTED = CALLS * (CALLS - 1);
/** A loop with no host call: what the dynamic worker executor's instrumentation (its ticks) costs. */
const LOOP_COUNT = 10_000_000;
const LOOP = `async () => { let sum = 0; for (let i = 0; i < ${LOOP_COUNT}; i++) sum += i; return sum; }`;
const LOOP_SUM = (LOOP_COUNT * (LOOP_COUNT - 1)) / 2;

const read = async (input: unknown) => {
  const { key } = input as { key: number };
  return { key, value: key * 2 };
};
const store = functionConnector({
  name: "store",
  methods: {
    read: { execute: read },
    write: { requiresApproval: true, execute: async () => true },
  },
});

/** The same two methods as a connector of the reference. */
class ReferenceStore extends CodemodeConnector {
  name() {
    return "store";
  }
  tools(): ConnectorTools {
    return {
      read: { execute: read },
      write: { requiresApproval: true, execute: async () => true },
    };
  }
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const FLOOR_MODULE = `import { WorkerEntrypoint } from "cloudflare:workers";
export default class extends WorkerEntrypoint {
  async run(host) { return await host.ping(1); }
  async loop() { return (${LOOP})(); }
}`;

type Case = "empty" | "calls" | "parallel" | "journaled" | "loop";
type Timings = { times: number[]; approved?: number[] };

export class BenchAgent extends DurableObject<Env> {
  /** made once per object, as an agent would: its WebAssembly instance and spare sandbox are reused */
  #quickjs: QuickJSExecutor | undefined;

  #executor(subject: string): Executor {
    if (subject === "quickjs") {
      this.#quickjs ??= new QuickJSExecutor({ wasmModule });
      return this.#quickjs;
    }
    if (subject === "loader" || subject === "unticked") {
      return new DynamicWorkerExecutor({
        loader: sandboxLoader(this.ctx.exports.SandboxLoader),
        // local workerd's clock moves while code runs, so "auto" puts ticks in here; on Cloudflare
        // it leaves them out, as `unticked` does
        interruptRunaway: subject === "loader" ? "auto" : false,
      });
    }
    return new DynamicWorkerExecutor({ loader: this.env.LOADER });
  }

  /**
   * The reference's loader: the same request-scoped loading as ours (SandboxLoader passes its
   * harness's arguments and answer through untouched). On `env.LOADER` in this object the reference
   * stalled local workerd within a round, the collector problem the executor's README describes;
   * through this both pay the same extra hop.
   */
  #referenceLoader(): WorkerLoader {
    return sandboxLoader(this.ctx.exports.SandboxLoader) as unknown as WorkerLoader;
  }

  /** one pass of `code` with `store.read` in scope, through the subject's executor */
  async #pass(subject: string, code: string): Promise<unknown> {
    if (subject === "reference") {
      const executor = new ReferenceExecutor({ loader: this.#referenceLoader() });
      const outcome = await executor.execute(code, [{ name: "store", fns: { read } }]);
      if (outcome.error) throw new Error(outcome.error);
      return outcome.result;
    }
    if (subject === "floor") return this.ctx.exports.FloorPass.run(new Ping());
    const executor = this.#executor(subject);
    const request: ExecuteRequest = { code, globals: { store: { read } } };
    const outcome = await executor.execute(request);
    if ("error" in outcome) throw new Error(outcome.error.message);
    return outcome.result;
  }

  /**
   * One timed round of a case. The case runs once untimed first: subjects share this object's
   * isolate, and what one leaves behind (most likely garbage to collect) slows whatever runs next
   * (Dynamic Worker passes cost QuickJS's next pass 5–10 ms), which no subject should pay for another.
   */
  async measure(subject: string, kind: Case): Promise<Timings> {
    await this.#once(subject, kind);
    return this.#once(subject, kind);
  }

  async #once(subject: string, kind: Case): Promise<Timings> {
    if (kind === "empty") {
      const total = await time(async () => {
        for (let pass = 0; pass < EMPTY_BATCH; pass++) await this.#pass(subject, EMPTY);
      });
      return { times: [total / EMPTY_BATCH] };
    }
    if (kind === "calls" || kind === "parallel") {
      if (subject === "floor") return { times: [] };
      let sum: unknown;
      const elapsed = await time(async () => {
        sum = await this.#pass(subject, kind === "calls" ? READS : READS_AT_ONCE);
      });
      if (sum !== EXPECTED) throw new Error(`${subject} summed ${String(sum)}`);
      return { times: [elapsed] };
    }
    if (kind === "loop") {
      let sum: unknown;
      const elapsed = await time(async () => {
        sum =
          subject === "floor"
            ? await this.ctx.exports.FloorPass.loop()
            : await this.#pass(subject, LOOP);
      });
      if (sum !== LOOP_SUM) throw new Error(`${subject} summed ${String(sum)}`);
      return { times: [elapsed] };
    }
    return subject === "reference" ? this.#journaledReference() : this.#journaledOurs(subject);
  }

  async #journaledOurs(subject: string): Promise<Timings> {
    const runtime = createCodemodeRuntime({
      ctx: this.ctx,
      executor: this.#executor(subject),
      connectors: [store],
      name: `bench-${subject}`,
    });
    let executionId = "";
    const paused = await time(async () => {
      const outcome = await runtime.execute({ code: READS_THEN_WRITE });
      if (outcome.status !== "paused") throw new Error(`expected a pause, got ${outcome.status}`);
      executionId = outcome.executionId;
    });
    const approved = await time(async () => {
      const outcome = await runtime.approve({ executionId });
      if (outcome.status !== "completed") throw new Error(`approval ended ${outcome.status}`);
    });
    await runtime.clearHistory();
    return { times: [paused], approved: [approved] };
  }

  async #journaledReference(): Promise<Timings> {
    const runtime = createReferenceRuntime({
      ctx: this.ctx,
      executor: new ReferenceExecutor({ loader: this.#referenceLoader() }),
      connectors: [new ReferenceStore(this.ctx, this.env)],
      name: "bench-reference",
    });
    let executionId = "";
    const paused = await time(async () => {
      const outcome = (await runtime.execute({ code: READS_THEN_WRITE })) as {
        status: string;
        executionId?: string;
      };
      if (outcome.status !== "paused") throw new Error(`expected a pause, got ${outcome.status}`);
      executionId = outcome.executionId ?? "";
    });
    const approved = await time(async () => {
      const outcome = (await runtime.approve({ executionId })) as { status: string };
      if (outcome.status !== "completed") throw new Error(`approval ended ${outcome.status}`);
    });
    await runtime.pruneExecutions(0);
    return { times: [paused], approved: [approved] };
  }

  async stress(passes: number) {
    const executor = this.#executor("loader");
    let completed = 0;
    const failures: string[] = [];
    for (let pass = 0; pass < passes; pass++) {
      const outcome = await executor.execute({
        code: "async () => (await store.read({ key: 1 })).value",
        globals: { store: { read } },
      });
      if ("error" in outcome) failures.push(outcome.error.message);
      else completed++;
    }
    return { completed, failures: failures.slice(0, 5) };
  }
}

/**
 * The floor: a bare worker loaded and called once, with a host object it calls back, in a request of
 * its own (the hop SandboxLoader adds, and for the same reason).
 */
export class FloorPass extends WorkerEntrypoint<Env> {
  async run(host: Ping): Promise<unknown> {
    return this.#entry().run(host);
  }

  /** the loop of the `loop` case, as written (no ticks), in a bare loaded worker */
  async loop(): Promise<unknown> {
    return this.#entry().loop();
  }

  #entry() {
    const worker = this.env.LOADER.load({
      compatibilityDate: "2026-04-20",
      mainModule: "floor.js",
      modules: { "floor.js": FLOOR_MODULE },
      globalOutbound: null,
    });
    return worker.getEntrypoint() as unknown as {
      run(host: unknown): Promise<unknown>;
      loop(): Promise<unknown>;
    };
  }
}

/** What the floor's loaded worker calls back. */
class Ping extends RpcTarget {
  ping(value: number) {
    return value;
  }
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const agent = env.BENCH.get(env.BENCH.idFromName("bench"));
    try {
      if (url.pathname === "/measure") {
        const params = url.searchParams;
        return Response.json(
          await agent.measure(
            params.get("subject") ?? "ours",
            (params.get("case") ?? "empty") as Case,
          ),
        );
      }
      if (url.pathname === "/stress") {
        return Response.json(await agent.stress(Number(url.searchParams.get("passes") ?? 100)));
      }
      return new Response("not found", { status: 404 });
    } catch (error) {
      return new Response(String((error as Error).stack ?? error), { status: 500 });
    }
  },
};
