import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { nodeProject, TEST_TIMEOUT_MS } from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    projects: [
      // the instrumenter is plain JavaScript: its own tests run in Node, where they can run its output
      nodeProject(),
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.jsonc" } })],
        test: {
          name: "workers",
          include: ["src/**/*.workers.test.ts"],
          testTimeout: TEST_TIMEOUT_MS,
        },
      },
    ],
  },
});
