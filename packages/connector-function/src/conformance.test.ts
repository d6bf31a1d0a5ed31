// functionConnector against the connector suite: a Zod method, a typed JSON Schema method that needs
// approval and can be reverted, a method that waits for its signal, and lifecycle hooks that release
// what a run opened.
import { runConnectorConformance } from "@codemode/conformance";
import { z } from "zod";
import { functionConnector, jsonSchema } from "./index.ts";

const open = new Set<string>();
let markWaiting: () => void = () => {};
const waiting = new Promise<void>((resolve) => {
  markWaiting = resolve;
});

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
        wait_for_reply: {
          description: "Wait for a reply that never comes.",
          inputSchema: z.object({}),
          execute: (_input, { signal }) =>
            new Promise((_resolve, reject) => {
              if (signal.aborted) reject(signal.reason);
              signal.addEventListener("abort", () => reject(signal.reason), { once: true });
              markWaiting();
            }),
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
    waiting: { method: "wait_for_reply", input: {}, started: () => waiting },
  },
});
