// A lent connection whose server ends it in the same read as the message that made it ready: the
// `error` node-postgres emits then is heard, not thrown out of the process. The server is the test's
// real PostgreSQL behind a loopback relay that adds PostgreSQL's own notice of an administrator's
// termination right after the first ReadyForQuery, in one write (what `pg_terminate_backend` does
// when it lands just as a connection is made, found by the fault tests as a crashed worker).
import { createConnection, createServer, type Server, type Socket } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabase } from "../test/database.ts";
import { postgresStore } from "./index.ts";
import { lendConnection } from "./lend-connection.ts";

const database = await testDatabase();

/** PostgreSQL's ErrorResponse for a connection an administrator terminated (SQLSTATE 57P01). */
function terminatedNotice(): Buffer {
  const field = (code: string, text: string) =>
    Buffer.concat([Buffer.from(code), Buffer.from(text), Buffer.from([0])]);
  const body = Buffer.concat([
    field("S", "FATAL"),
    field("V", "FATAL"),
    field("C", "57P01"),
    field("M", "terminating connection due to administrator command"),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

/**
 * A relay to the test server that passes the server's messages on until the first ReadyForQuery
 * ('Z'), sends that together with `terminatedNotice()` in one write, and closes both ends.
 */
async function terminatingRelay(): Promise<{ server: Server; port: number; cut: () => number }> {
  const target = database.config as { host: string; port: number };
  let cut = 0;
  const server = createServer((inbound: Socket) => {
    const outbound = createConnection({ host: target.host, port: target.port });
    inbound.on("error", () => outbound.destroy());
    outbound.on("error", () => inbound.destroy());
    inbound.pipe(outbound);
    let pending = Buffer.alloc(0);
    outbound.on("data", (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      let at = 0;
      while (pending.length - at >= 5) {
        const end = at + 1 + pending.readInt32BE(at + 1);
        if (end > pending.length) break;
        if (pending[at] === "Z".charCodeAt(0)) {
          cut++;
          inbound.end(Buffer.concat([pending.subarray(0, end), terminatedNotice()]));
          outbound.destroy();
          return;
        }
        at = end;
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the relay has no port");
  return { server, port: address.port, cut: () => cut };
}

/** A node-postgres client that notes an `error` nobody hears instead of ending the process with it. */
function listeningClients(unheard: Error[]): typeof pg.Client {
  return class extends pg.Client {
    override emit(event: string | symbol, ...args: unknown[]): boolean {
      if (event === "error" && this.listenerCount("error") === 0) {
        unheard.push(args[0] as Error);
        return false;
      }
      return super.emit(event, ...args);
    }
  };
}

describe("lendConnection", () => {
  let relay: Awaited<ReturnType<typeof terminatingRelay>>;
  beforeAll(async () => {
    relay = await terminatingRelay();
  });
  afterAll(() => new Promise<void>((resolve) => relay.server.close(() => resolve())));

  const relayed = (unheard: Error[]) => {
    const pool = new pg.Pool({
      ...database.config,
      port: relay.port,
      Client: listeningClients(unheard),
    });
    pool.on("error", () => {});
    return pool;
  };

  it("hears a lent connection ended in the same read that made it ready, and does not hand it back", async () => {
    const unheard: Error[] = [];
    const pool = relayed(unheard);
    const before = relay.cut();
    const lent = await lendConnection(pool);
    expect(relay.cut()).toBe(before + 1);
    expect(unheard).toEqual([]);
    expect(lent.broken).toBe(true);
    lent.release();
    expect(pool.totalCount).toBe(0);
    await pool.end();
  });

  it("lets postgresStore fail with STORE_FAILED, nothing thrown out of the process", async () => {
    const unheard: Error[] = [];
    const pool = relayed(unheard);
    await expect(postgresStore(pool, { schema: "cut" })).rejects.toMatchObject({
      code: "STORE_FAILED",
    });
    expect(unheard).toEqual([]);
    expect(pool.totalCount).toBe(0);
    await pool.end();
  });

  it("lends a connection that works, and hands it back for reuse", async () => {
    const pool = database.newPool({ max: 1 });
    const lent = await lendConnection(pool);
    expect(lent.broken).toBe(false);
    expect((await lent.client.query({ text: "SELECT 1 AS one" })).rows).toEqual([{ one: 1 }]);
    lent.release();
    expect(pool.idleCount).toBe(1);
  });

  it("uses a pool whose connect answers with a promise and ignores the callback", async () => {
    const lending = database.newPool({ max: 1 });
    const pool = Object.assign(Object.create(lending) as pg.Pool, {
      connect: () => lending.connect(),
    });
    const lent = await lendConnection(pool);
    expect((await lent.client.query({ text: "SELECT 2 AS two" })).rows).toEqual([{ two: 2 }]);
    lent.release(true);
    expect(lending.totalCount).toBe(0);
  });

  it("fails with STORE_FAILED when the pool cannot connect", async () => {
    const pool = new pg.Pool({ ...database.config, port: 1 });
    await expect(lendConnection(pool)).rejects.toMatchObject({ code: "STORE_FAILED" });
    await pool.end();
  });
});
