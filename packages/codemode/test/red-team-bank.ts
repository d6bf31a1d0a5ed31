// The bank the red-team consent tests count effects with: `bank.note` writes without approval,
// `bank.send` and `bank.put` (any input) wait for one; each effect that really ran is a ledger line.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { z } from "zod";
import {
  createCodemodeRuntime,
  functionConnector,
  type JournalStore,
  memoryStore,
} from "../src/index.ts";

const executor = new QuickJSExecutor({ timeoutMs: 10_000 });

/** A runtime over `store` with the bank, its ledger, and its AI SDK tool. */
export function bank(store: JournalStore = memoryStore(), ledger: string[] = []) {
  const connector = functionConnector({
    name: "bank",
    methods: {
      note: {
        inputSchema: z.object({ text: z.string() }),
        execute: async ({ text }) => {
          ledger.push(`note ${text}`);
          return ledger.length;
        },
      },
      send: {
        inputSchema: z.object({ to: z.string() }),
        requiresApproval: true,
        execute: async ({ to }) => {
          ledger.push(`send ${to}`);
          return to;
        },
      },
      put: {
        requiresApproval: true,
        execute: async (input: unknown) => {
          ledger.push("put");
          return typeof input;
        },
      },
    },
  });
  const runtime = createCodemodeRuntime({ store, executor, connectors: [connector] });
  return { runtime, ledger, tool: runtime.tool() };
}

export const sendTo = (to: string) =>
  `await bank.note({ text: ${JSON.stringify(to)} }); return await bank.send({ to: ${JSON.stringify(to)} });`;

/** The sends of a ledger, in order. */
export const sends = (ledger: readonly string[]) =>
  ledger.filter((line) => line.startsWith("send"));
