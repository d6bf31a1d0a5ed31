import { playwright } from "@vitest/browser-playwright";
import { defineConfig } from "vitest/config";
import { browserProject, CHROMIUM_LAUNCH_OPTIONS } from "../../vitest.shared.ts";
import { recorderCommands } from "./test/request-recorder.ts";
import { sandboxServerCommands } from "./test/sandbox-server.ts";

// This package stays on vitest 4 (its own devDependency) while the workspace is on 5: under vitest 5's
// browser mode the sandbox that runs out of memory takes the test page down with it ("The chromium
// page crashed"), so the test that the page fails every pass of a dead sandbox at once cannot run.
// vitest.shared.ts is typed by the workspace's vitest 5: its projects are cast to this vitest's type.

/** Crash a renderer process on purpose: each in a project (a browser) of its own, see the files. */
const OUT_OF_MEMORY = "src/out-of-memory.browser.test.ts";
const PROCESS_ISOLATION = "src/process-isolation.browser.test.ts";

function chromium() {
  return browserProject(
    playwright({ launchOptions: CHROMIUM_LAUNCH_OPTIONS }) as never,
    { ...recorderCommands, ...sandboxServerCommands } as never,
  );
}
const main = chromium();
const crash = chromium();
const isolated = chromium();

const config = {
  test: {
    projects: [
      {
        ...main,
        test: { ...main.test, exclude: [OUT_OF_MEMORY, PROCESS_ISOLATION, "**/node_modules/**"] },
        // bundled before the first test file loads: found later, Vite would reload the page mid-run
        optimizeDeps: { include: ["@codemode/conformance > fast-check"] },
      },
      {
        ...crash,
        test: { ...crash.test, name: "browser-out-of-memory", include: [OUT_OF_MEMORY] },
      },
      {
        ...isolated,
        test: { ...isolated.test, name: "browser-process-isolation", include: [PROCESS_ISOLATION] },
      },
    ],
  },
};

export default defineConfig(config as never);
