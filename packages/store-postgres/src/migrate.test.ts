// The schema of postgresStore on a real PostgreSQL server: versioned, made in one transaction,
// safe when several processes open an empty database at once, refused when newer.
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { testDatabase } from "../test/database.ts";
import { postgresStore, SCHEMA_VERSION } from "./index.ts";

const database = await testDatabase();
const { pool } = database;

const version = async (schema: string) =>
  (await pool.query(`SELECT value FROM "${schema}".codemode_meta WHERE key = 'schema_version'`))
    .rows[0]?.value;
const tables = async (schema: string) =>
  (
    await pool.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
      [schema],
    )
  ).rows.map((row) => row.table_name as string);

const run = (id: string) => ({
  id,
  code: "async () => 1",
  status: "running" as const,
  connectors: [],
  createdAt: 1,
  updatedAt: 1,
});

describe("postgresStore schema", () => {
  it("makes its tables in the schema, records the version and reopens them with the rows kept", async () => {
    const journal = (await postgresStore(pool, { schema: "reopen" })).journal("default");
    await journal.putSnippet({ name: "kept", code: "1", connectors: [], savedAt: 1 });
    expect(await tables("reopen")).toEqual([
      "codemode_entries",
      "codemode_executions",
      "codemode_meta",
      "codemode_snippets",
      "codemode_tool_calls",
    ]);
    expect(await version("reopen")).toBe(String(SCHEMA_VERSION));
    const again = await postgresStore(database.newPool(), { schema: "reopen" });
    expect(await again.journal("default").getSnippet("kept")).toMatchObject({ name: "kept" });
    expect(await version("reopen")).toBe(String(SCHEMA_VERSION));
  });

  it("uses the public schema by default", async () => {
    await postgresStore(pool);
    expect(await tables("public")).toContain("codemode_executions");
  });

  it("lets eight processes that start at once on an empty schema all open it", async () => {
    // without the advisory lock, all but one fail on the schema or tables the first one made
    const stores = await Promise.all(
      Array.from({ length: 8 }, () =>
        postgresStore(database.newPool({ max: 1 }), { schema: "stampede" }),
      ),
    );
    expect(stores).toHaveLength(8);
    expect(await version("stampede")).toBe(String(SCHEMA_VERSION));
  });

  it("makes processes that start at once on an empty schema wait for the schema's lock, then all open it", async () => {
    // one connection each, as separate processes have; a session holds the schema's lock first,
    // so every start is seen waiting for it, and then all finish
    const holder = new pg.Client(database.config);
    await holder.connect();
    await holder.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", ["codemode:crowd"]);
    const starts = Array.from({ length: 8 }, () =>
      postgresStore(database.newPool({ max: 1 }), { schema: "crowd" }),
    );
    let settled = 0;
    for (const start of starts)
      start.then(
        () => settled++,
        () => settled++,
      );
    // every start reaches the lock (however slowly the machine connects) and none gets past it
    const waiting = async () =>
      (
        await holder.query(
          `SELECT count(*)::int AS n FROM pg_locks
           WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        )
      ).rows[0].n;
    await vi.waitFor(async () => expect(await waiting()).toBe(8), {
      timeout: 30_000,
      interval: 50,
    });
    expect(settled).toBe(0);
    await holder.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", ["codemode:crowd"]);
    await holder.end();
    const stores = await Promise.all(starts);
    expect(await version("crowd")).toBe(String(SCHEMA_VERSION));
    await Promise.all(
      stores.map((store, index) => store.journal("default").createExecution(run(`r${index}`))),
    );
    expect(await stores[0]?.journal("default").listExecutions()).toHaveLength(8);
  });

  it("leaves the schema untouched when a migration fails part way", async () => {
    await pool.query('CREATE SCHEMA "broken"; CREATE TABLE "broken".codemode_entries (x integer)');
    await expect(postgresStore(pool, { schema: "broken" })).rejects.toMatchObject({
      code: "STORE_FAILED",
      message: expect.stringMatching(/codemode_entries.*already exists/),
    });
    // the tables made before the failing statement are gone with it, and no version was written
    expect(await tables("broken")).toEqual(["codemode_entries"]);
    await pool.query('DROP TABLE "broken".codemode_entries');
    await postgresStore(pool, { schema: "broken" });
    expect(await version("broken")).toBe(String(SCHEMA_VERSION));
  });

  it("survives its lent connection dropping between two statements: the connection is not handed back", async () => {
    // node-postgres's lent client emits `error` when its connection drops while no statement runs;
    // nobody else listens then, and an unheard `error` would end the process
    const lending = new pg.Pool(database.config);
    const lent: pg.PoolClient[] = [];
    const pool = Object.assign(Object.create(lending) as pg.Pool, {
      connect: async () => {
        const client = await lending.connect();
        lent.push(client);
        const query = client.query.bind(client) as (config: unknown) => Promise<unknown>;
        let statements = 0;
        Object.assign(client, {
          query: async (config: unknown) => {
            const result = await query(config);
            // after BEGIN, before the next statement: the connection drops
            if (++statements === 1) client.emit("error", new Error("terminating connection"));
            return result;
          },
        });
        return client;
      },
    });
    const store = await postgresStore(pool, { schema: "dropped" });
    expect(await tables("dropped")).toContain("codemode_meta");
    expect(store).toBeDefined();
    expect(lent).toHaveLength(1);
    // released as broken: the pool destroyed it instead of keeping it idle
    expect(lending.idleCount).toBe(0);
    await lending.end();
  });

  it("refuses a journal written by a newer schema", async () => {
    await postgresStore(pool, { schema: "newer" });
    await pool.query(`UPDATE "newer".codemode_meta SET value = '99' WHERE key = 'schema_version'`);
    await expect(postgresStore(pool, { schema: "newer" })).rejects.toThrow(
      new RegExp(`newer version of Code Mode \\(schema 99, this one knows ${SCHEMA_VERSION}\\)`),
    );
  });

  it("gives a run left running by schema 1 a lease of no pass, lapsing 30 s after its last renewal", async () => {
    await postgresStore(pool, { schema: "leases" });
    // schema 1 is the current schema without the lease columns, the tool calls' table, the seed and
    // the entries' operation
    await pool.query(`DROP TABLE "leases".codemode_tool_calls;
      ALTER TABLE "leases".codemode_executions DROP COLUMN lease_owner, DROP COLUMN lease_expires_at, DROP COLUMN seed;
      ALTER TABLE "leases".codemode_entries DROP COLUMN operation;
      UPDATE "leases".codemode_meta SET value = '1' WHERE key = 'schema_version';
      INSERT INTO "leases".codemode_executions (runtime, id, code, status, connectors, created_at, updated_at)
        VALUES ('default', 'left', 'async () => 1', 'running', '[]', 1, 500),
               ('default', 'done', 'async () => 1', 'completed', '[]', 1, 500)`);
    const journal = (await postgresStore(pool, { schema: "leases" })).journal("default");
    expect(await version("leases")).toBe(String(SCHEMA_VERSION));
    expect(SCHEMA_VERSION).toBe(6);
    expect((await journal.getExecution("left"))?.lease).toEqual({ owner: "", expiresAt: 30_500 });
    expect((await journal.getExecution("done"))?.lease).toBeUndefined();
    expect((await journal.listLapsed(30_500)).map((record) => record.id)).toEqual([]);
    expect((await journal.listLapsed(30_501)).map((record) => record.id)).toEqual(["left"]);
  });

  it("brings a schema-2 journal to the current schema: its runs kept (without a seed), tool calls bound", async () => {
    const before = (await postgresStore(pool, { schema: "bindings" })).journal("default");
    await before.createExecution(run("kept"));
    // schema 2 is schema 6 without the tool calls' table, the seed and the entries' operation
    await pool.query(`DROP TABLE "bindings".codemode_tool_calls;
      ALTER TABLE "bindings".codemode_executions DROP COLUMN seed;
      ALTER TABLE "bindings".codemode_entries DROP COLUMN operation;
      UPDATE "bindings".codemode_meta SET value = '2' WHERE key = 'schema_version'`);
    expect(await tables("bindings")).not.toContain("codemode_tool_calls");
    const journal = (await postgresStore(pool, { schema: "bindings" })).journal("default");
    expect(await version("bindings")).toBe(String(SCHEMA_VERSION));
    expect(await tables("bindings")).toContain("codemode_tool_calls");
    expect(await journal.getExecution("kept")).toEqual(run("kept"));
    const binding = { key: "call_1", executionId: "kept", createdAt: 2 };
    expect(await journal.bindToolCall(binding)).toEqual(binding);
    expect(await journal.deleteExecution("kept")).toBe(true);
    expect(await journal.getToolCallBinding("call_1")).toEqual(binding);
  });

  it("refuses a schema name that is not a lowercase identifier", async () => {
    for (const schema of ['a"b', "Upper", "1st", "x".repeat(64), ""]) {
      await expect(postgresStore(pool, { schema })).rejects.toMatchObject({
        code: "INVALID_CONFIG",
        message: expect.stringMatching(/lowercase PostgreSQL identifier/),
      });
    }
  });

  it("refuses something that is not a node-postgres pool or client", async () => {
    for (const client of [undefined, {}, { query: 1 }]) {
      await expect(postgresStore(client as unknown as pg.Pool)).rejects.toMatchObject({
        code: "INVALID_CONFIG",
        message: expect.stringMatching(/needs a node-postgres Pool/),
      });
    }
  });

  it("opens a current schema with a role that may only read and write rows", async () => {
    const role = `codemode_app_${process.pid}`;
    await postgresStore(pool, { schema: "granted" });
    await pool.query(`CREATE ROLE ${role} LOGIN`);
    await pool.query(`GRANT USAGE ON SCHEMA "granted" TO ${role}`);
    await pool.query(
      `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA "granted" TO ${role}`,
    );
    const app = database.newPool({ user: role });
    const journal = (await postgresStore(app, { schema: "granted" })).journal("default");
    await journal.createExecution(run("by-app"));
    expect(await journal.getExecution("by-app")).toMatchObject({ id: "by-app" });
    // an empty schema needs the right to create tables: a clear refusal
    await expect(postgresStore(app, { schema: "not_granted" })).rejects.toMatchObject({
      code: "STORE_FAILED",
      message: expect.stringMatching(/permission denied/),
    });
  });
});
