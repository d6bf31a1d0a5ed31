// The official MCP conformance suite (@modelcontextprotocol/conformance, its CLI) against the
// Streamable HTTP servers the codemode/mcp README shows, on loopback: server-initialize, tools-list
// and dns-rebinding-protection (a MUST of the 2025-11-25 spec) pass on both. The same server without
// the protection fails dns-rebinding-protection, so the suite can tell.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { mailRuntime } from "./mail-runtime.ts";
import {
  closeServers,
  type Handler,
  loopback,
  type Protection,
  sessionHandler,
  statelessHandler,
} from "./readme-http-servers.ts";

afterEach(closeServers);

const SCENARIOS = ["server-initialize", "tools-list", "dns-rebinding-protection"] as const;

const require = createRequire(import.meta.url);
const manifest = require.resolve("@modelcontextprotocol/conformance/package.json");
const { bin } = require(manifest) as { bin: { conformance: string } };
const CLI = join(dirname(manifest), bin.conformance);

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/**
 * `conformance server --url <url> --scenario <scenario> -o <dir>`, in a child process (the server
 * under test runs in this one): its exit code, what it printed and the checks it saved.
 */
async function scenario(url: URL, name: string) {
  const dir = await mkdtemp(join(tmpdir(), "mcp-conformance-"));
  try {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, "server", "--url", url.href, "--scenario", name, "-o", dir],
        { timeout: 25_000 },
        (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
      );
    });
    const [saved] = await readdir(dir);
    const checks = saved
      ? (JSON.parse(await readFile(join(dir, saved, "checks.json"), "utf8")) as Check[])
      : [];
    return { code, stdout, checks };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const README_SERVERS: Record<string, (protection: Protection) => Handler> = {
  stateless: (protection) => statelessHandler(mailRuntime().runtime, {}, protection),
  "with sessions": (protection) => sessionHandler(mailRuntime().runtime, {}, protection).handle,
};

describe("the MCP conformance suite against the README's Streamable HTTP servers", () => {
  for (const [kind, server] of Object.entries(README_SERVERS)) {
    it(`passes ${SCENARIOS.join(", ")} (${kind})`, async () => {
      const { url, protection, serve } = await loopback();
      serve(server(protection));
      for (const name of SCENARIOS) {
        const { code, stdout, checks } = await scenario(url, name);
        expect(checks.length, stdout).toBeGreaterThan(0);
        expect(
          checks.filter((check) => check.status !== "SUCCESS"),
          `${name}:\n${stdout}`,
        ).toEqual([]);
        expect(code, stdout).toBe(0);
      }
    });
  }

  it("fails dns-rebinding-protection on the same server without the protection", async () => {
    const { url, serve } = await loopback();
    serve(sessionHandler(mailRuntime().runtime, {}, {}).handle);
    const { code, checks } = await scenario(url, "dns-rebinding-protection");
    expect(code).toBe(1);
    expect(checks).toEqual([
      expect.objectContaining({ id: "localhost-host-rebinding-rejected", status: "FAILURE" }),
      expect.objectContaining({ id: "localhost-host-valid-accepted", status: "SUCCESS" }),
    ]);
  });
});
