// "./my-connector.ts" of the conformance README: a third-party connector.
import { functionConnector } from "@codemode/connector-function";
import { z } from "zod";

export function myConnector() {
  let id = 0;
  return functionConnector({
    name: "notes",
    methods: {
      add_note: {
        inputSchema: z.object({ text: z.string().min(1) }),
        execute: async ({ text }) => ({ id: ++id, text }),
      },
    },
  });
}
