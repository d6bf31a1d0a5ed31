import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { browserProject, CHROMIUM_LAUNCH_OPTIONS } from "../../vitest.shared.ts";
import { recorderCommands } from "./test/request-recorder.ts";

export default defineConfig({
  test: {
    projects: [
      {
        ...browserProject(playwright({ launchOptions: CHROMIUM_LAUNCH_OPTIONS }), recorderCommands),
        // bundled before the first test file loads: found later, Vite would reload the page mid-run
        optimizeDeps: { include: ["@codemode/conformance > fast-check"] },
      },
    ],
  },
});
