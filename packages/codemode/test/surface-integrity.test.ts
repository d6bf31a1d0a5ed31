// The surface-integrity property (@codemode/conformance) with its TanStack AI and MCP surfaces:
// generated schedules mix the AI SDK binding's tool calls and answers and the host's decisions with
// TanStack chat requests answering `codemodeApproval` interrupts and MCP sessions of the codemode
// MCP server (elicitation and `client-tools`, runs shared or not) — two runtimes over one memory
// store, and over one SQLite file opened twice. The programs run on the conformance package's
// in-process executor: what this tries is the surfaces, not a sandbox (and it keeps 120 cases a
// storage to a few seconds).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runSurfaceIntegrity } from "@codemode/conformance";
import Database from "better-sqlite3";
import { afterAll } from "vitest";
import { InProcessExecutor } from "../../conformance/src/in-process-executor.ts";
import { memoryStore, sqliteStore } from "../src/index.ts";
import { SURFACES } from "./surface-adapters.ts";

const executor = new InProcessExecutor();

runSurfaceIntegrity({
  name: "TanStack AI and MCP, memoryStore, two runtimes",
  createExecutor: () => executor,
  createStores: () => {
    const store = memoryStore();
    return [store, store];
  },
  surfaces: SURFACES,
});

const folder = mkdtempSync(join(tmpdir(), "codemode-surface-"));
let files = 0;
afterAll(() => rmSync(folder, { recursive: true, force: true }));

runSurfaceIntegrity({
  name: "TanStack AI and MCP, sqliteStore (better-sqlite3), one file, two processes",
  createExecutor: () => executor,
  createStores: () => {
    const path = join(folder, `journal-${files++}.db`);
    const open = () => {
      const db = new Database(path);
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
      return sqliteStore(db);
    };
    return [open(), open()];
  },
  surfaces: SURFACES,
});
