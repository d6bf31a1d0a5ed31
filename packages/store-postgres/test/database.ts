// A database of its own for one test file, on the server `test/global-setup.ts` started: made when
// the file starts, dropped when it ends.
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

/** Makes the file's database and registers its removal in `afterAll`. */
export async function testDatabase(): Promise<TestDatabase> {
  const server = inject("postgres");
  const name = `codemode_test_${process.pid}_${++count}_${Date.now().toString(36)}`;
  const admin = new pg.Client(server);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const config: pg.PoolConfig = { ...server, database: name };
  const pools: pg.Pool[] = [];
  // a pool's end() resolves before its connections have closed: wait for each one's "end"
  const closed: Promise<void>[] = [];
  const newPool = (options: pg.PoolConfig = {}) => {
    const pool = new pg.Pool({ ...config, ...options });
    pool.on("connect", (client) => {
      closed.push(new Promise((resolve) => client.once("end", () => resolve())));
    });
    pools.push(pool);
    return pool;
  };
  const pool = newPool();
  afterAll(async () => {
    await Promise.all(pools.map((each) => each.end()));
    await Promise.all(closed);
    const drop = new pg.Client(server);
    await drop.connect();
    await drop.query(`DROP DATABASE "${name}"`);
    await drop.end();
  });
  return { pool, config, newPool };
}
