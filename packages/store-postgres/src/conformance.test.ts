// postgresStore against the store suite and the journal-integrity test, on a real PostgreSQL server
// (test/global-setup.ts): every store is a new PostgreSQL schema in this file's database.
import { runJournalIntegrity, runJournalStoreConformance } from "@codemode/conformance";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { testDatabase } from "../test/database.ts";
import { postgresStore } from "./index.ts";

const database = await testDatabase();
let schemas = 0;
const newStore = () => postgresStore(database.pool, { schema: `store_${++schemas}` });

runJournalStoreConformance({ name: "postgresStore", createStore: newStore });

// the durable runtime's guarantees (ARCHITECTURE §7) over this store, adversarially
runJournalIntegrity({
  name: "postgresStore, QuickJSExecutor",
  createExecutor: () => new QuickJSExecutor(),
  createStore: newStore,
});
