// The test server's helper: where it finds PostgreSQL's programs, what it says when they are missing,
// and the port it picks.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ephemeralLow, freePort, postgresBinaries } from "./postgres-server.ts";

const empty = mkdtempSync(join(tmpdir(), "codemode-no-pg-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

describe("postgresBinaries", () => {
  it("names the Debian package when initdb and pg_ctl are nowhere", () => {
    expect(() => postgresBinaries({ PATH: empty }, join(empty, "none"))).toThrow(
      /initdb, pg_ctl.*Debian's package `postgresql` \(apt-get install -y postgresql\)/,
    );
  });

  it("takes CODEMODE_PG_BIN first, then the PATH, then the newest of Debian's folders", () => {
    const debian = join(empty, "postgresql");
    for (const version of ["9", "15", "notes"]) {
      mkdirSync(join(debian, version, "bin"), { recursive: true });
      for (const program of ["initdb", "pg_ctl"]) {
        writeFileSync(join(debian, version, "bin", program), "");
      }
    }
    const newest = join(debian, "15", "bin");
    expect(postgresBinaries({ PATH: empty }, debian)).toBe(newest);
    const older = join(debian, "9", "bin");
    expect(postgresBinaries({ PATH: `${empty}${delimiter}${older}` }, debian)).toBe(older);
    expect(postgresBinaries({ CODEMODE_PG_BIN: older, PATH: newest }, debian)).toBe(older);
  });
});

describe("freePort", () => {
  it("picks a free port below the ephemeral range, which no port-0 server or outgoing connection takes", async () => {
    const low = ephemeralLow();
    const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThan(1_023);
      expect(port).toBeLessThan(low);
    }
  });
});
