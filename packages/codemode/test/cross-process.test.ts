// Pause in one process, approve in another over the same SQLite file: the write is applied exactly
// once and the earlier read is served from the journal, not run again.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const runner = fileURLToPath(new URL("./process-runner.ts", import.meta.url));
const folder = mkdtempSync(join(tmpdir(), "codemode-processes-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function run(...args: string[]) {
  const output = execFileSync(process.execPath, ["--import", "tsx", runner, ...args], {
    encoding: "utf8",
    timeout: 60_000,
  });
  return JSON.parse(output) as {
    status: string;
    executionId: string;
    result?: unknown;
    pending?: unknown[];
  };
}

describe("across processes", () => {
  it("approves in a second process what the first one paused", () => {
    const database = join(folder, "journal.db");
    const ledger = join(folder, "ledger.txt");
    writeFileSync(ledger, "");
    const first = run("start", database, ledger);
    expect(first).toMatchObject({
      status: "paused",
      pending: [{ method: "create", args: { title: "Ship" } }],
    });
    const second = run("approve", database, ledger, first.executionId);
    expect(second).toEqual({
      status: "completed",
      executionId: first.executionId,
      result: { before: 0, made: { created: "Ship" }, after: 1 },
    });
    const entries = readFileSync(ledger, "utf8").split("\n").filter(Boolean);
    const pids = entries.map((line) => line.split(" ").at(-1));
    expect(entries.map((line) => line.split(" ").slice(0, -1).join(" "))).toEqual([
      "read",
      "write Ship",
      "read",
    ]);
    expect(pids[0]).not.toBe(pids[1]);
    expect(pids[1]).toBe(pids[2]);
    expect(run("approve", database, ledger, first.executionId)).toMatchObject({ status: "error" });
    expect(readFileSync(ledger, "utf8").split("\n").filter(Boolean)).toHaveLength(3);
  }, 120_000);
});
