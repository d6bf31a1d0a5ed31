import { defineConfig } from "vitest/config";
import { nodeProject } from "../../vitest.shared.ts";

const node = nodeProject();

// every test file connects to one PostgreSQL server that the global setup starts for the run
export default defineConfig({
  test: {
    projects: [{ ...node, test: { ...node.test, globalSetup: ["./test/global-setup.ts"] } }],
  },
});
