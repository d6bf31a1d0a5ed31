// A runtime over a small issue tracker for the AI SDK tests: `issues.list` reads, `issues.create`
// needs approval and records the titles it opened.
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { z } from "zod";
import { createCodemodeRuntime, functionConnector, memoryStore } from "../src/index.ts";

export function issueTracker() {
  const created: string[] = [];
  const issues = functionConnector({
    name: "issues",
    instructions: "The team's issue tracker.",
    methods: {
      list: {
        description: "List open issues.",
        inputSchema: z.object({}),
        execute: async () => [{ number: 1 }, { number: 3 }],
      },
      create: {
        description: "Open an issue.",
        inputSchema: z.object({ title: z.string() }),
        requiresApproval: true,
        execute: async ({ title }) => {
          created.push(title);
          return { number: created.length + 10 };
        },
      },
    },
  });
  const runtime = createCodemodeRuntime({
    store: memoryStore(),
    executor: new QuickJSExecutor(),
    connectors: [issues],
  });
  return { runtime, created };
}
