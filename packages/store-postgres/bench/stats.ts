// The figures the benchmarks print: medians over rounds, ratios, and the state of the machine they
// ran on (it is shared, so every run says how busy it was).
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type pg from "pg";

/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median() of no values");
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** `a / b` to two decimals, with a ×. */
export function ratio(a: number, b: number): string {
  return b === 0 ? "–" : `${(a / b).toFixed(2)}×`;
}

/** The load averages (1, 5, 15 minutes), to one decimal. */
export function load(): string {
  return loadavg()
    .map((value) => value.toFixed(1))
    .join(" / ");
}

/**
 * The disk's pace right now: the median of 20 writes of 8 kB, each followed by fsync, in the
 * temporary folder (where the benchmark's server keeps its data). A commit waits for one.
 */
export function fsyncMs(): number {
  const folder = mkdtempSync(join(tmpdir(), "codemode-fsync-"));
  const file = openSync(join(folder, "probe"), "w");
  const page = Buffer.alloc(8192, 1);
  const times: number[] = [];
  try {
    for (let index = 0; index < 20; index++) {
      const started = performance.now();
      writeSync(file, page, 0, page.length, 0);
      fsyncSync(file);
      times.push(performance.now() - started);
    }
  } finally {
    closeSync(file);
    rmSync(folder, { recursive: true, force: true });
  }
  return median(times);
}

/**
 * One line on the machine and the server: cores, CPU model, load, the disk's fsync time, Node and
 * PostgreSQL versions.
 */
export async function machine(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query("SHOW server_version");
  const server = (rows[0] as { server_version: string }).server_version;
  return (
    `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), load ${load()}, ` +
    `fsync ${fsyncMs().toFixed(2)} ms, ` +
    `Node ${process.versions.node}, PostgreSQL ${server} on this machine (loopback TCP)`
  );
}
