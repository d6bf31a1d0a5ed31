import { playwright } from "@vitest/browser-playwright";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { browserProject, CHROMIUM_LAUNCH_OPTIONS } from "../../vitest.shared.ts";
import { recorderCommands } from "./test/request-recorder.ts";

// This package stays on vitest 4 (its own devDependency) while the workspace is on 5: under vitest 5's
// browser mode the sandbox that runs out of memory takes the test page down with it ("The chromium
// page crashed"), so the test that the page fails every pass of a dead sandbox at once cannot run.

/** Crashes a renderer process on purpose: in a project (a browser) of its own, see the file. */
const OUT_OF_MEMORY = "src/out-of-memory.browser.test.ts";

function chromium(): TestProjectInlineConfiguration {
  return browserProject(playwright({ launchOptions: CHROMIUM_LAUNCH_OPTIONS }), recorderCommands);
}
const main = chromium();
const crash = chromium();

export default defineConfig({
  test: {
    projects: [
      {
        ...main,
        test: { ...main.test, exclude: [OUT_OF_MEMORY, "**/node_modules/**"] },
        // bundled before the first test file loads: found later, Vite would reload the page mid-run
        optimizeDeps: { include: ["@codemode/conformance > fast-check"] },
      },
      {
        ...crash,
        test: { ...crash.test, name: "browser-out-of-memory", include: [OUT_OF_MEMORY] },
      },
    ],
  },
});
