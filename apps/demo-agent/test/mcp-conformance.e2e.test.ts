// The official MCP conformance suite against the notes MCP server the Worker serves at /mcp (the one
// the README tells you to try from outside), under `wrangler dev` on loopback: server-initialize,
// tools-list and dns-rebinding-protection pass.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type DevServer,
  mcpConformanceScenario,
  startWranglerDev,
} from "@codemode/demo-kit/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const appDir = join(dirname(fileURLToPath(import.meta.url)), "..");

describe("the MCP conformance suite against the demo's /mcp", () => {
  let server: DevServer;
  beforeAll(async () => {
    server = await startWranglerDev({ appDir });
  });
  afterAll(() => server?.stop());

  for (const scenario of ["server-initialize", "tools-list", "dns-rebinding-protection"]) {
    it(`passes ${scenario}`, async () => {
      const url = `${server.url.replace("localhost", "127.0.0.1")}/mcp`;
      const { code, stdout, checks } = await mcpConformanceScenario(url, scenario);
      expect(checks.length, stdout).toBeGreaterThan(0);
      expect(
        checks.filter((check) => check.status !== "SUCCESS"),
        `${stdout}\n${server.output().slice(-2000)}`,
      ).toEqual([]);
      expect(code, stdout).toBe(0);
    });
  }
});
