// "./tasks" of the README examples: a connector of the application's own.
import { functionConnector } from "codemode";
import { z } from "zod";

export const tasks = functionConnector({
  name: "tasks",
  methods: {
    list: {
      description: "List tasks.",
      inputSchema: z.object({ status: z.enum(["open", "done"]).optional() }),
      execute: async ({ status }) => [{ id: 1, title: "Ship it", status: status ?? "open" }],
    },
    create: {
      description: "Create a task.",
      inputSchema: z.object({ title: z.string() }),
      requiresApproval: true,
      execute: async ({ title }) => ({ id: 2, title, status: "open" }),
    },
  },
});
