// The figures the benchmarks print: medians over rounds, ratios, and the state of the machine they
// ran on (it is shared, so every run says how busy it was).
import { availableParallelism, cpus, loadavg } from "node:os";
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

/** One line on the machine and the server: cores, CPU model, load, Node and PostgreSQL versions. */
export async function machine(pool: pg.Pool): Promise<string> {
  const { rows } = await pool.query("SHOW server_version");
  const server = (rows[0] as { server_version: string }).server_version;
  return (
    `${availableParallelism()} cores (${cpus()[0]?.model.trim() ?? "unknown CPU"}), load ${load()}, ` +
    `Node ${process.versions.node}, PostgreSQL ${server} on this machine (loopback TCP)`
  );
}
