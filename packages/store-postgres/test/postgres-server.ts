// A throwaway PostgreSQL server for the tests and the benchmark: `initdb` into a temporary folder,
// `pg_ctl start` on a free loopback port with its unix socket in that folder, and at the end
// `pg_ctl stop` and the folder removed. As root (CI, containers) the server runs as the `postgres`
// user through `runuser`, because initdb and postgres refuse to run as root. The fault tests also
// restart it (a crash or a clean shutdown, then a start on the same port) and pause it (SIGSTOP).
import { spawn, spawnSync } from "node:child_process";
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
  /**
   * Stops the server (`immediate`: as if it crashed, recovering from its log when it starts again;
   * `fast`: a clean shutdown), waits `downMs`, and starts it again on the same port and data.
   */
  restart(options?: { mode?: "immediate" | "fast"; downMs?: number }): Promise<void>;
  /** Stops (SIGSTOP) the postmaster and every process it started: a server that hangs. Linux only. */
  pause(): void;
  /** Lets the processes `pause` stopped go on (SIGCONT). */
  resume(): void;
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

/**
 * Binds `port` of 127.0.0.1 and lets it go at once: the port bound (for 0, the one the system
 * picked), or undefined when something else holds it.
 */
function listenable(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.on("error", () => resolve(undefined));
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        resolve(typeof address === "object" && address ? address.port : undefined),
      );
    });
  });
}

/**
 * The system's range of ephemeral ports: a port below it is never given to a socket that binds port
 * 0 or connects without binding, so only someone who names it can take it.
 */
export function ephemeralLow(): number {
  try {
    const [low] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8")
      .trim()
      .split(/\s+/);
    return Number(low) || 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A TCP port on 127.0.0.1 that nothing listens on right now, below the ephemeral range where one is
 * free: a server restarted on the same port must still find it free after being down a while, while
 * every other test's servers bind port 0 and make connections.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralLow();
  const low = Math.min(10_000, high - 1_000);
  for (let tries = 0; tries < 50; tries++) {
    const port = await listenable(low + Math.floor(Math.random() * (high - low)));
    if (port !== undefined) return port;
  }
  const port = await listenable(0);
  if (port === undefined) throw new Error("no free port on 127.0.0.1");
  return port;
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

/** The command that runs one of the server's programs, through `runuser` when this process is root. */
function commandOf(program: string, args: string[], asPostgres: boolean): [string, string[]] {
  return asPostgres ? [runuser(), ["-u", "postgres", "--", program, ...args]] : [program, args];
}

/** Runs one of the server's programs, as `postgres` when this process is root; throws with its output. */
function runProgram(program: string, args: string[], asPostgres: boolean): void {
  const [command, commandArgs] = commandOf(program, args, asPostgres);
  const result = spawnSync(command, commandArgs, { encoding: "utf8", timeout: 120_000 });
  if (result.status !== 0) {
    throw new Error(
      `${program} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stdout}${result.stderr}`,
    );
  }
}

/** `runProgram` without blocking the event loop (a test's own clients go on meanwhile). */
function runProgramAsync(program: string, args: string[], asPostgres: boolean): Promise<void> {
  const [command, commandArgs] = commandOf(program, args, asPostgres);
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `${program} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output}`,
          ),
        );
    });
  });
}

/** The postmaster's process id, from the first line of `postmaster.pid` in its data folder. */
function postmasterPid(data: string): number {
  const pid = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
  if (!Number.isInteger(pid) || pid <= 0) throw new Error(`no postmaster pid in ${data}`);
  return pid;
}

/** The processes whose parent is `parent` (read from /proc: Linux only). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // it ended meanwhile
    }
    // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ")"
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === parent) children.push(Number(name));
  }
  return children;
}

/** Sends `signal` to `pid`; a process that already ended is fine. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
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
    let paused: number[] = [];
    const resume = () => {
      for (const pid of paused) signal(pid, "SIGCONT");
      paused = [];
    };
    return {
      host: "127.0.0.1",
      port,
      user: "postgres",
      database: "postgres",
      async restart({ mode = "immediate", downMs = 0 } = {}) {
        resume();
        const pgCtl = join(bin, "pg_ctl");
        await runProgramAsync(pgCtl, ["-D", data, "-m", mode, "-w", "stop"], asPostgres);
        await new Promise((resolve) => setTimeout(resolve, downMs));
        // the clients know this port: if something took it meanwhile, wait for it (a few seconds)
        for (let attempt = 1; ; attempt++) {
          try {
            await runProgramAsync(
              pgCtl,
              ["-D", data, "-l", log, "-w", "-t", "60", "-o", serverOptions, "start"],
              asPostgres,
            );
            return;
          } catch (error) {
            if (attempt >= 20 || (await listenable(port)) !== undefined) throw error;
            await new Promise((resolve) => setTimeout(resolve, 250));
          }
        }
      },
      pause() {
        if (paused.length) return;
        // the postmaster first, so that it starts no process while its children are listed
        const postmaster = postmasterPid(data);
        signal(postmaster, "SIGSTOP");
        paused = [postmaster];
        for (const child of childrenOf(postmaster)) {
          signal(child, "SIGSTOP");
          paused.push(child);
        }
      },
      resume,
      stop() {
        if (stopped) return;
        stopped = true;
        resume();
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
