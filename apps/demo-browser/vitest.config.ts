import { defineConfig } from "vitest/config";
import { nodeProject } from "../../vitest.shared.ts";

// One node project: the unit tests (the chat endpoint and the whole chat loop in Node), and the
// end-to-end test that starts `wrangler dev` and drives the page in Chromium (test/*.e2e.test.ts).
// Files run one at a time: the e2e file owns a server.
const node = nodeProject();

export default defineConfig({
  test: {
    fileParallelism: false,
    // bounds for a loaded two-core machine (CI runs two packages' tasks at once): a test ends as
    // soon as what it waits for happens; these only end one that hangs
    projects: [{ ...node, test: { ...node.test, testTimeout: 120_000, hookTimeout: 240_000 } }],
  },
});
