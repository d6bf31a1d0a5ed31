// functionConnector against the connector suite: a Zod method, a typed JSON Schema method that needs
// approval and can be reverted, and lifecycle hooks that release what a run opened.
import { runConnectorConformance } from "@codemode/conformance";
import { z } from "zod";
import { functionConnector, jsonSchema } from "./index.ts";

const open = new Set<string>();

runConnectorConformance({
  name: "functionConnector",
  createConnector: () =>
    functionConnector({
      name: "notes",
      methods: {
        add_note: {
          description: "Add a note.",
          inputSchema: z.object({ text: z.string().min(1), tags: z.array(z.string()).default([]) }),
          execute: (input, context) => {
            open.add(context.executionId);
            return { ...input, aborted: context.signal.aborted };
          },
        },
        "delete-note": {
          inputSchema: jsonSchema<{ id: number }>({
            type: "object",
            properties: { id: { type: "integer" } },
            required: ["id"],
          }),
          requiresApproval: true,
          execute: ({ id }) => ({ deleted: id }),
          revert: () => {},
        },
      },
      onPassEnd: () => {},
      disposeExecution: (executionId) => {
        open.delete(executionId);
      },
    }),
  sample: {
    method: "add_note",
    input: { text: "buy milk" },
    expected: { text: "buy milk", tags: [], aborted: false },
    failing: { method: "add_note", input: { text: "" } },
  },
});
