// A database of its own for one test file, on the server `test/global-setup.ts` started: made when
// the file starts; its pools end with the file.
import pg from "pg";
import { afterAll, inject } from "vitest";

export interface TestDatabase {
  /** a pool on the file's database (ended with it) */
  pool: pg.Pool;
  /** how to connect to it */
  config: pg.PoolConfig;
  /** another pool on the same database, as another process would have (ended with it) */
  newPool(options?: pg.PoolConfig): pg.Pool;
}

let count = 0;

/** Makes the file's database; its pools end in `afterAll`. */
export async function testDatabase(): Promise<TestDatabase> {
  const server = inject("postgres");
  const name = `codemode_test_${process.pid}_${++count}_${Date.now().toString(36)}`;
  const admin = new pg.Client(server);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const config: pg.PoolConfig = { ...server, database: name };
  const pools: pg.Pool[] = [];
  const newPool = (options: pg.PoolConfig = {}) => {
    const pool = new pg.Pool({ ...config, ...options });
    pools.push(pool);
    return pool;
  };
  const pool = newPool();
  // The database is not dropped: the run's server and its folder are removed when the run ends,
  // and a DROP DATABASE waits for the server's checkpoint, which on a busy machine outlasts a hook.
  afterAll(() => Promise.all(pools.map((each) => each.end())));
  return { pool, config, newPool };
}
