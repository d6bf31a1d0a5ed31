// The suites this package runs must read AI SDK 6: a check that the alias is in effect (AI SDK 7
// added its tracing channel export; 6 has none).
import * as ai from "ai";
import { expect, it } from "vitest";

it("runs against AI SDK 6", () => {
  expect("AI_SDK_TELEMETRY_TRACING_CHANNEL" in ai).toBe(false);
  expect(typeof ai.streamText).toBe("function");
});
