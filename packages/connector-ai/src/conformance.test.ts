// toolSetConnector against the connector suite: a Zod tool that uses its call options, a
// `jsonSchema()` tool that needs approval, and a tool without execute.
import { runConnectorConformance } from "@codemode/conformance";
import { jsonSchema, tool } from "ai";
import { z } from "zod";
import { toolSetConnector } from "./index.ts";

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
  },
});
