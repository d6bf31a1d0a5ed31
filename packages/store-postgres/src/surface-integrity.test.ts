// The surface-integrity property over PostgreSQL: two runtimes over one database, each with a pool
// of its own, as two processes behind one endpoint (test/global-setup.ts starts the server); every
// case gets a new PostgreSQL schema.
import { runSurfaceIntegrity } from "@codemode/conformance";
import { QuickJSExecutor } from "@codemode/executor-quickjs";
import { testDatabase } from "../test/database.ts";
import { postgresStore } from "./index.ts";

const database = await testDatabase();
const otherProcess = database.newPool();
let schemas = 0;

runSurfaceIntegrity({
  name: "postgresStore, two pools, QuickJSExecutor",
  createExecutor: () => new QuickJSExecutor(),
  createStores: async () => {
    const schema = `surface_${++schemas}`;
    const one = await postgresStore(database.pool, { schema });
    return [one, await postgresStore(otherProcess, { schema })];
  },
});
