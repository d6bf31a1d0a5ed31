// One vitest project per runtime. Packages pick the runtimes they run on in their own vitest.config.ts.
// Test files: `*.test.ts` run in Node; `*.workers.test.ts` in workerd and `*.browser.test.ts` in Chromium
// (the packages that run there add those projects).
import type { TestProjectInlineConfiguration } from "vitest/config";

/**
 * How long `expect.poll` waits for its condition unless a test says (vitest's default, 1 s, is tuned
 * to a quiet machine): an outer bound only, a poll ends as soon as its condition holds.
 */
const POLL = { timeout: 60_000 };

/**
 * How long a test may take unless it says: a bound that only a hang reaches. CI machines have two
 * cores and run several packages' tasks at once (and CI runs side by side); the slowest tests take
 * 10–25 s there, so a bound a few times that fails a loaded machine, not a hang.
 */
export const TEST_TIMEOUT_MS = 180_000;

export function nodeProject(): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name: "node",
      environment: "node",
      testTimeout: TEST_TIMEOUT_MS,
      expect: { poll: POLL },
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      exclude: ["**/*.workers.test.ts", "**/*.browser.test.ts", "**/node_modules/**"],
    },
  };
}

type BrowserOptions = NonNullable<NonNullable<TestProjectInlineConfiguration["test"]>["browser"]>;

/** How the browser projects start Debian's Chromium (scripts/run.mjs installs it; nothing is downloaded). */
export const CHROMIUM_LAUNCH_OPTIONS = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
  ],
};

/**
 * The Chromium project: `*.browser.test.ts` in vitest browser mode. The package passes the provider
 * (`playwright({ launchOptions: CHROMIUM_LAUNCH_OPTIONS })`), since it owns that dependency.
 */
export function browserProject(
  provider: BrowserOptions["provider"],
  commands?: BrowserOptions["commands"],
): TestProjectInlineConfiguration {
  return {
    test: {
      name: "browser",
      include: ["src/**/*.browser.test.ts"],
      testTimeout: TEST_TIMEOUT_MS,
      expect: { poll: POLL },
      browser: {
        enabled: true,
        headless: true,
        screenshotFailures: false,
        instances: [{ browser: "chromium" }],
        provider,
        ...(commands ? { commands } : {}),
      },
    },
  };
}
