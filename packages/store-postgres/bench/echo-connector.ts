// The connector the runtime benchmarks call: `svc.read(input)` answers its input at once, so what a
// pass costs beyond the executor is the journal's work. Nothing is kept between calls.
import type { Connector } from "@codemode/core";

/** A connector `svc` with one method, `read`, that answers its input. */
export function echoConnector(): Connector {
  return {
    specificationVersion: "v1",
    name: "svc",
    methods: () => ({
      read: {
        description: "Answers its input.",
        inputSchema: { type: "object", properties: { i: { type: "number" } }, required: ["i"] },
      },
    }),
    async invoke(method, input) {
      if (method !== "read") throw new Error(`svc has no method ${method}`);
      return input;
    },
  };
}

/** A program making `calls` journaled calls of `svc.read`, one after the other; it returns their sum. */
export function readsProgram(calls: number): string {
  return `async () => { let n = 0; for (let i = 0; i < ${calls}; i++) n += (await svc.read({ i })).i; return n; }`;
}
