// A throwaway PostgreSQL server for the tests and the benchmark: `initdb` into a temporary folder,
// `pg_ctl start` on a free loopback port with its unix socket in that folder, and at the end
// `pg_ctl stop` and the folder removed. As root (CI, containers) the server runs as the `postgres`
// user through `runuser`, because initdb and postgres refuse to run as root.
import { spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";

/** Where a test connects: TCP on loopback, as the superuser `postgres`, trust authentication. */
export interface PostgresServer {
  host: string;
  port: number;
  user: string;
  /** the database every server has; tests create their own */
  database: string;
  stop(): void;
}

const MISSING =
  "PostgreSQL's server programs (initdb, pg_ctl) were not found. Install Debian's package `postgresql` " +
  "(apt-get install -y postgresql), or set CODEMODE_PG_BIN to the folder that holds them.";

/**
 * The folder with initdb and pg_ctl: `CODEMODE_PG_BIN`, a folder of the `PATH`, or the newest
 * `<debian>/<version>/bin` (Debian's layout); a clear error naming the package when none has them.
 */
export function postgresBinaries(
  env: Record<string, string | undefined> = process.env,
  debian = "/usr/lib/postgresql",
): string {
  const candidates: string[] = [];
  if (env.CODEMODE_PG_BIN) candidates.push(env.CODEMODE_PG_BIN);
  candidates.push(...(env.PATH ?? "").split(delimiter).filter(Boolean));
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, "bin")));
  }
  const found = candidates.find(
    (folder) => existsSync(join(folder, "initdb")) && existsSync(join(folder, "pg_ctl")),
  );
  if (!found) throw new Error(MISSING);
  return found;
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

/** The uid and gid of the `postgres` user, for running the server when this process is root. */
function postgresUser(): { uid: number; gid: number } {
  const ids = (flag: string) => {
    const result = spawnSync("id", [flag, "postgres"], { encoding: "utf8" });
    return result.status === 0 ? Number(result.stdout.trim()) : Number.NaN;
  };
  const user = { uid: ids("-u"), gid: ids("-g") };
  if (!Number.isInteger(user.uid) || !Number.isInteger(user.gid)) {
    throw new Error(
      "The tests run as root, and PostgreSQL refuses to: they run it as the user `postgres`, which does " +
        "not exist here. Debian's package `postgresql` creates it (apt-get install -y postgresql).",
    );
  }
  return user;
}

/** util-linux's runuser: on PATH, or where Debian keeps it (a PATH without the sbin folders misses it). */
function runuser(): string {
  for (const candidate of ["/usr/sbin/runuser", "/sbin/runuser"]) {
    if (existsSync(candidate)) return candidate;
  }
  return "runuser";
}

/** Runs one of the server's programs, as `postgres` when this process is root; throws with its output. */
function runProgram(program: string, args: string[], asPostgres: boolean): void {
  const [command, commandArgs] = asPostgres
    ? [runuser(), ["-u", "postgres", "--", program, ...args]]
    : [program, args];
  const result = spawnSync(command, commandArgs, { encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(
      `${program} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`,
    );
  }
}

/**
 * Starts a new PostgreSQL server in a temporary folder. `settings` are passed as `-c name=value`
 * (the tests turn `fsync` off; the benchmark passes none).
 */
export async function startPostgres(
  settings: Record<string, string> = {},
): Promise<PostgresServer> {
  const bin = postgresBinaries();
  const asPostgres = process.getuid?.() === 0;
  const folder = mkdtempSync(join(tmpdir(), "codemode-pg-"));
  if (asPostgres) {
    const { uid, gid } = postgresUser();
    chownSync(folder, uid, gid);
  }
  const data = join(folder, "data");
  const log = join(folder, "server.log");
  const remove = () => rmSync(folder, { recursive: true, force: true });
  try {
    runProgram(
      join(bin, "initdb"),
      ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"],
      asPostgres,
    );
  } catch (error) {
    remove();
    throw error;
  }
  const options = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
  // a port found free may be taken before the server binds it: try a few
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const serverOptions = [
      `-p ${port}`,
      `-k '${folder}'`,
      "-c listen_addresses=127.0.0.1",
      ...options,
    ].join(" ");
    try {
      runProgram(
        join(bin, "pg_ctl"),
        ["-D", data, "-l", log, "-w", "-t", "60", "-o", serverOptions, "start"],
        asPostgres,
      );
    } catch (error) {
      if (attempt < 3) continue;
      const serverLog = existsSync(log) ? readFileSync(log, "utf8") : "";
      remove();
      throw new Error(`${(error as Error).message}\n${serverLog}`);
    }
    let stopped = false;
    return {
      host: "127.0.0.1",
      port,
      user: "postgres",
      database: "postgres",
      stop() {
        if (stopped) return;
        stopped = true;
        try {
          runProgram(
            join(bin, "pg_ctl"),
            ["-D", data, "-m", "immediate", "-w", "stop"],
            asPostgres,
          );
        } finally {
          remove();
        }
      },
    };
  }
}
