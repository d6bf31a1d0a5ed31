// One process's part of the cross-process test: `start <db> <ledger>` runs a program that pauses,
// `approve <db> <ledger> <executionId>` approves it. The connector appends each side effect to the
// ledger file, so the test can count them across processes.
import { appendFileSync, readFileSync } from "node:fs";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import Database from "better-sqlite3";
import { createCodemodeRuntime, functionConnector, sqliteStore } from "../src/index.ts";

const [action, database, ledger, executionId] = process.argv.slice(2) as [
  string,
  string,
  string,
  string?,
];
const lines = () => readFileSync(ledger, "utf8").split("\n").filter(Boolean);
const tracker = functionConnector({
  name: "tracker",
  methods: {
    count: {
      execute: async () => {
        appendFileSync(ledger, `read ${process.pid}\n`);
        return lines().filter((line) => line.startsWith("write")).length;
      },
    },
    create: {
      requiresApproval: true,
      execute: async ({ title }: { title: string }) => {
        appendFileSync(ledger, `write ${title} ${process.pid}\n`);
        return { created: title };
      },
    },
  },
});
const runtime = createCodemodeRuntime({
  store: sqliteStore(new Database(database)),
  executor: new QuickJSExecutor(),
  connectors: [tracker],
});
const code = `async () => {
  const before = await tracker.count({});
  const made = await tracker.create({ title: "Ship" });
  const after = await tracker.count({});
  return { before, made, after };
}`;
const output =
  action === "start"
    ? await runtime.execute({ code })
    : await runtime.approve({ executionId: executionId as string });
process.stdout.write(JSON.stringify(output));
