import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { recorderCommands } from "./test/request-recorder.ts";

// Debian's Chromium (scripts/run.mjs installs it); no browser is downloaded.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "browser",
          include: ["src/**/*.browser.test.ts"],
          testTimeout: 30_000,
          browser: {
            enabled: true,
            headless: true,
            screenshotFailures: false,
            commands: recorderCommands,
            instances: [{ browser: "chromium" }],
            provider: playwright({
              launchOptions: {
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
              },
            }),
          },
        },
      },
    ],
  },
});
