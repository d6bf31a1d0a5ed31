import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import {
  browserProject,
  CHROMIUM_LAUNCH_OPTIONS,
  nodeProject,
  TEST_TIMEOUT_MS,
} from "../../vitest.shared.ts";

export default defineConfig({
  test: {
    projects: [
      nodeProject(),
      browserProject(playwright({ launchOptions: CHROMIUM_LAUNCH_OPTIONS })),
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
