import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { nodeProject, TEST_TIMEOUT_MS } from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    projects: [
      nodeProject(),
      {
        plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.jsonc" } })],
        test: {
          name: "workers",
          include: ["test/workers/**/*.workers.test.ts"],
          testTimeout: TEST_TIMEOUT_MS,
        },
      },
    ],
  },
});
