// The official MCP conformance suite (@modelcontextprotocol/conformance, its CLI) run against an MCP
// server's URL in a child process: the exit code, what it printed and the checks it saved.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** One check of a scenario, as the suite saves it. */
export interface ConformanceCheck {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

const require = createRequire(import.meta.url);
const manifest = require.resolve("@modelcontextprotocol/conformance/package.json");
const { bin } = require(manifest) as { bin: { conformance: string } };
const CLI = join(dirname(manifest), bin.conformance);

/**
 * `conformance server --url <url> --scenario <scenario>`: its exit code, output and checks. `timeoutMs`
 * ends a CLI that hangs; it is an outer bound for a loaded machine, not how long a scenario takes.
 */
export async function mcpConformanceScenario(
  url: string,
  scenario: string,
  timeoutMs = 90_000,
): Promise<{ code: number; stdout: string; checks: ConformanceCheck[] }> {
  const dir = await mkdtemp(join(tmpdir(), "mcp-conformance-"));
  try {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        [CLI, "server", "--url", url, "--scenario", scenario, "-o", dir],
        { timeout: timeoutMs },
        (error, out) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout: out }),
      );
    });
    const [saved] = await readdir(dir);
    const checks = saved
      ? (JSON.parse(await readFile(join(dir, saved, "checks.json"), "utf8")) as ConformanceCheck[])
      : [];
    return { code, stdout, checks };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
