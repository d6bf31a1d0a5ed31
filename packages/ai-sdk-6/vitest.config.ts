// The AI SDK suites of connector-ai and the facade, with `ai` resolved to this package's AI SDK 6.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { TEST_TIMEOUT_MS } from "../../vitest.shared.ts";

const here = dirname(fileURLToPath(import.meta.url));
const packages = join(here, "..");
const ai6 = join(here, "node_modules", "ai");

export default defineConfig({
  resolve: {
    alias: [
      { find: /^ai$/, replacement: join(ai6, "dist", "index.mjs") },
      { find: /^ai\/test$/, replacement: join(ai6, "dist", "test", "index.mjs") },
    ],
  },
  test: {
    name: "ai-sdk-6",
    environment: "node",
    testTimeout: TEST_TIMEOUT_MS,
    root: packages,
    include: [
      "connector-ai/src/**/*.test.ts",
      "codemode/src/ai.test.ts",
      "codemode/src/tool.test.ts",
      "codemode/src/tool-chat.test.ts",
      "ai-sdk-6/test/*.test.ts",
    ],
  },
});
