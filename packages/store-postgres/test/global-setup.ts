// vitest globalSetup: one PostgreSQL server for the whole run, stopped and removed at the end. Each
// test file makes its own database on it (`test/database.ts`).
import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres-server.ts";

export default async function setup(project: TestProject): Promise<() => void> {
  // the tests need no durability: without fsync the server does not wait for the disk
  const server = await startPostgres({ fsync: "off", max_connections: "200" });
  project.provide("postgres", {
    host: server.host,
    port: server.port,
    user: server.user,
    database: server.database,
  });
  return () => server.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    postgres: { host: string; port: number; user: string; database: string };
  }
}
