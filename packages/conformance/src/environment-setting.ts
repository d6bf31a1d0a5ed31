// The settings a long hunt reads from the environment (`CODEMODE_INTEGRITY_RUNS=500`), where the
// runtime has one: in workerd and the browser there is no `process`, and every setting is unset.

/** The environment variable `name`, or undefined where there is none or no environment. */
export function environment(name: string): string | undefined {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } })
    .process;
  try {
    return process?.env?.[name];
  } catch {
    return undefined;
  }
}

/** The number a setting holds, or undefined when it is unset, blank or not a finite number. */
export function numberFrom(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === "") return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
