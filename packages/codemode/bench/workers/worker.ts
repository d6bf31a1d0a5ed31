// Bench cases timed inside a Durable Object (what an agent is), so HTTP and the driver add nothing.
// GET /measure?executor=dynamic|quickjs&case=empty|calls|journaled&rounds=N → JSON timings in ms.
// GET /stress?passes=N → how many sequential passes completed.

import { DurableObject } from "cloudflare:workers";
import type { ExecuteRequest } from "@codemode/core";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { DynamicWorkerExecutor } from "../../src/cloudflare.ts";
import { createCodemodeRuntime, type Executor, functionConnector } from "../../src/index.ts";
import wasmModule from "./quickjs.wasm";

const CALLS = 100;
const READS = `async () => {
  let sum = 0;
  for (let i = 0; i < ${CALLS}; i++) sum += (await store.read({ key: i })).value;
  return sum;
}`;
const READS_THEN_WRITE = `async () => {
  let sum = 0;
  for (let i = 0; i < ${CALLS}; i++) sum += (await store.read({ key: i })).value;
  await store.write({ sum });
  return sum;
}`;
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

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

export class BenchAgent extends DurableObject<Env> {
  #executor(name: string): Executor {
    return name === "quickjs"
      ? new QuickJSExecutor({ wasmModule })
      : new DynamicWorkerExecutor({ loader: this.env.LOADER });
  }

  async measure(executorName: string, kind: string, rounds: number) {
    const executor = this.#executor(executorName);
    if (kind === "empty" || kind === "calls") {
      const request: ExecuteRequest =
        kind === "empty"
          ? { code: "async () => 1", globals: {} }
          : { code: READS, globals: { store: { read } } };
      const times: number[] = [];
      for (let round = 0; round < rounds; round++) {
        times.push(
          await time(async () => {
            const outcome = await executor.execute(request);
            if ("error" in outcome) throw new Error(outcome.error.message);
          }),
        );
      }
      return { times };
    }
    // a runtime pass with 100 journaled reads that pauses on a write, and its approval pass
    const runtime = createCodemodeRuntime({
      ctx: this.ctx,
      executor,
      connectors: [store],
      name: `bench-${executorName}`,
    });
    const paused: number[] = [];
    const approved: number[] = [];
    for (let round = 0; round < rounds; round++) {
      let executionId = "";
      paused.push(
        await time(async () => {
          const outcome = await runtime.execute({ code: READS_THEN_WRITE });
          if (outcome.status !== "paused")
            throw new Error(`expected a pause, got ${outcome.status}`);
          executionId = outcome.executionId;
        }),
      );
      approved.push(
        await time(async () => {
          const outcome = await runtime.approve({ executionId });
          if (outcome.status !== "completed") throw new Error(`approval ended ${outcome.status}`);
        }),
      );
    }
    return { paused, approved };
  }

  async stress(passes: number) {
    const executor = new DynamicWorkerExecutor({ loader: this.env.LOADER });
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

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const agent = env.BENCH.get(env.BENCH.idFromName("bench"));
    try {
      if (url.pathname === "/measure") {
        const params = url.searchParams;
        return Response.json(
          await agent.measure(
            params.get("executor") ?? "dynamic",
            params.get("case") ?? "empty",
            Number(params.get("rounds") ?? 10),
          ),
        );
      }
      if (url.pathname === "/plain") {
        // the same executor cases outside any Durable Object
        const executor = new DynamicWorkerExecutor({ loader: env.LOADER });
        const times: number[] = [];
        for (let round = 0; round < 6; round++) {
          times.push(
            await time(() => executor.execute({ code: READS, globals: { store: { read } } })),
          );
        }
        return Response.json({ times });
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
