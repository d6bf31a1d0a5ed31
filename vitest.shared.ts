// One vitest project per runtime. Packages pick the runtimes they run on in their own vitest.config.ts.
// Test files: `*.test.ts` run in Node; `*.workers.test.ts` in workerd and `*.browser.test.ts` in Chromium
// (those projects arrive with the packages that need them).
import type { TestProjectInlineConfiguration } from "vitest/config";

export function nodeProject(): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name: "node",
      environment: "node",
      // CI machines have two cores and run several packages' tasks at once
      testTimeout: 30_000,
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      exclude: ["**/*.workers.test.ts", "**/*.browser.test.ts", "**/node_modules/**"],
    },
  };
}
