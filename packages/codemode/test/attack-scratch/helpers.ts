import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { createCodemodeRuntime, functionConnector, memoryStore } from "../../src/index.ts";

export type Ev = { kind: "exec" | "revert"; method: string; executionId: string; seq: number; input: unknown };

export function ledgerConnector(ledger: Ev[], extra: Record<string, any> = {}, name = "bank") {
  const m = (method: string, opts: any = {}) => ({
    description: method,
    ...opts,
    execute:
      opts.deferred
        ? undefined
        : async (input: any, ctx: any) => {
            ledger.push({ kind: "exec", method, executionId: ctx.executionId, seq: ctx.seq, input });
            if (opts.impl) return opts.impl(input, ctx);
            return { ok: method, seq: ctx.seq };
          },
    revert: async (input: any, _result: any, ctx: any) => {
      ledger.push({ kind: "revert", method, executionId: ctx.executionId, seq: ctx.seq, input });
    },
  });
  const methods: Record<string, any> = {
    read: m("read"),
    write: m("write"),
    send: m("send", { requiresApproval: true }),
    ask: { description: "ask", deferred: true },
  };
  for (const [k, v] of Object.entries(extra)) {
    if (v.deferred) methods[k] = { description: k, ...v };
    else methods[k] = m(k, v);
  }
  for (const k of Object.keys(methods)) {
    const def = methods[k];
    if (def.execute === undefined) delete def.execute;
    delete def.impl;
  }
  return functionConnector({ name, methods });
}

export const executor = new QuickJSExecutor({ timeoutMs: 10_000 });

export function makeRuntime(ledger: Ev[], extra: Record<string, any> = {}, store = memoryStore(), more: any = {}) {
  return createCodemodeRuntime({ store, executor, connectors: [ledgerConnector(ledger, extra)], ...more });
}

export function dupes(ledger: Ev[], kind: "exec" | "revert" = "exec") {
  const seen = new Map<string, number>();
  for (const e of ledger.filter((e) => e.kind === kind)) {
    const k = `${e.executionId}:${e.seq}`;
    seen.set(k, (seen.get(k) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1);
}
