// toolSetConnector against the connector suite: a Zod tool that uses its call options, a
// `jsonSchema()` tool that needs approval, a tool that waits for its abort signal, and a tool
// without execute.
import { runConnectorConformance } from "@codemode/conformance";
import { jsonSchema, tool } from "ai";
import { z } from "zod";
import { toolSetConnector } from "./index.ts";

let markWaiting: () => void = () => {};
const waiting = new Promise<void>((resolve) => {
  markWaiting = resolve;
});

runConnectorConformance({
  name: "toolSetConnector",
  createConnector: () =>
    toolSetConnector({
      name: "weather",
      tools: {
        get_forecast: tool({
          description: "The forecast for a city.",
          inputSchema: z.object({ city: z.string().min(1), days: z.number().int().default(1) }),
          execute: async ({ city, days }, { abortSignal }) => ({
            city,
            days,
            aborted: abortSignal?.aborted ?? null,
          }),
        }),
        clear_cache: tool({
          description: "Drop the cached forecasts.",
          inputSchema: jsonSchema<{ city: string }>({
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
          }),
          needsApproval: true,
          execute: async ({ city }) => ({ cleared: city }),
        }),
        wait_for_reply: tool({
          description: "Wait for a reply that never comes.",
          inputSchema: z.object({}),
          execute: (_input, { abortSignal }) =>
            new Promise<{ reply: string }>((_resolve, reject) => {
              if (!abortSignal) return reject(new Error("no abortSignal"));
              if (abortSignal.aborted) reject(abortSignal.reason);
              abortSignal.addEventListener("abort", () => reject(abortSignal.reason), {
                once: true,
              });
              markWaiting();
            }),
        }),
        ask_user: tool({
          description: "Ask the person which city they mean.",
          inputSchema: z.object({ question: z.string() }),
        }),
      },
    }),
  sample: {
    method: "get_forecast",
    input: { city: "Lyon" },
    expected: { city: "Lyon", days: 1, aborted: false },
    failing: { method: "get_forecast", input: { city: "" } },
    waiting: { method: "wait_for_reply", input: {}, started: () => waiting },
  },
});
