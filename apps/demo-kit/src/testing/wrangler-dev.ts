// Starts an app's Worker as `wrangler dev` serves it (wrangler's dev server in a process of its own,
// watching no files: see dev-worker-process.ts) on a loopback port the system picks as the server binds
// it (the process prints its url), with its state in a temporary folder, waits until it answers, and
// stops the whole process group.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DevWorkerProcessOptions, READY_MARK } from "./dev-worker-process.ts";

export interface DevServer {
  url: string;
  /** what wrangler printed, for failure messages */
  output(): string;
  stop(): Promise<void>;
  /** ends wrangler and workerd at once (SIGKILL), as a crash would; the state folder stays */
  kill(): Promise<void>;
}

export interface WranglerDevOptions {
  /** the app's folder (where its wrangler.jsonc is); wrangler is resolved from there too */
  appDir: string;
  /** vars on top of MODEL_PROVIDER=offline */
  vars?: Record<string, string>;
  /** the path polled until it answers 2xx (default /api/model) */
  readyPath?: string;
  /** how long all attempts may take together (default 150 s: bundles and workerd on a loaded machine) */
  timeoutMs?: number;
  /**
   * the local state folder (Durable Object SQLite and the rest): given, it is kept when the server
   * stops, so another server can start over the same state; default a temporary folder, removed
   */
  stateDir?: string;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once("exit", () => resolve());
  });

function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Starts made before giving up: a failed one (exited, or never answered) is ended and tried again. */
const ATTEMPTS = 3;
/**
 * How long one start may take to answer before it is ended and tried again in a fresh process. A
 * start takes seconds, on a loaded machine some more; one that has not answered by then is stuck
 * (seen under load: after a restart over the same state the Worker's workerd never came up, and
 * wrangler's proxy held every request).
 */
const ATTEMPT_MS = 60_000;

/** `wrangler dev` for the app with the offline model (`vars` may add more), at the returned url. */
export async function startWranglerDev(options: WranglerDevOptions): Promise<DevServer> {
  const deadline = Date.now() + (options.timeoutMs ?? 150_000);
  const failures: string[] = [];
  for (let attempt = 1; ; attempt++) {
    const started = await startOnce(options, Math.min(deadline, Date.now() + ATTEMPT_MS));
    if ("server" in started) return started.server;
    failures.push(`attempt ${attempt}: ${started.failure}`);
    if (attempt >= ATTEMPTS || Date.now() >= deadline) {
      throw new Error(
        `wrangler dev did not start (${options.appDir}) in ${attempt} attempts:\n${failures.join("\n\n")}`,
      );
    }
  }
}

async function startOnce(
  options: WranglerDevOptions,
  deadline: number,
): Promise<{ server: DevServer } | { failure: string }> {
  const { appDir } = options;
  const state = options.stateDir ?? (await mkdtemp(join(tmpdir(), `${basename(appDir)}-state-`)));
  const vars = { MODEL_PROVIDER: "offline", ...options.vars };
  const processOptions: DevWorkerProcessOptions = { appDir, state, vars };
  const args = [
    fileURLToPath(new URL("./dev-worker-process.ts", import.meta.url)),
    JSON.stringify(processOptions),
  ];
  const child = spawn(process.execPath, args, {
    cwd: appDir,
    detached: true, // its own process group, so stop() ends workerd too
    stdio: ["ignore", "pipe", "pipe"],
    // no fetch of Request.cf data from the network: the demos run offline
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      NO_COLOR: "1",
    },
  });
  let log = "";
  let url: string | undefined;
  const readyLine = new RegExp(`^${READY_MARK}(http://\\S+)$`, "m");
  child.stdout?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
    url ??= readyLine.exec(log)?.[1];
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  const server: DevServer = {
    get url() {
      if (url === undefined) throw new Error("the dev server has not said where it listens yet");
      return url;
    },
    output: () => log,
    async stop() {
      killGroup(child, "SIGTERM");
      const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5_000);
      await exited(child);
      clearTimeout(timer);
      killGroup(child, "SIGKILL"); // anything left in the group
      if (!options.stateDir) await rm(state, { recursive: true, force: true });
    },
    async kill() {
      killGroup(child, "SIGKILL");
      await exited(child);
    },
  };

  // the process prints its url once wrangler's server is ready; then the app must answer there
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const how = child.exitCode ?? child.signalCode;
      await server.stop();
      return { failure: `wrangler dev exited with ${how}:\n${log}` };
    }
    if (url !== undefined) {
      try {
        // a bound per request: a server whose Worker never came up holds the request forever
        const response = await fetch(`${url}${options.readyPath ?? "/api/model"}`, {
          signal: AbortSignal.timeout(Math.max(1, Math.min(10_000, deadline - Date.now()))),
        });
        if (response.ok) return { server };
      } catch {
        // not answering yet
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await server.stop();
  const where = url ?? "(it had not said where it listens)";
  return { failure: `wrangler dev did not answer at ${where} in time:\n${log}` };
}
