// What an executor declares to the executor suite: the limits it enforces, the globals its sandbox
// has on purpose, and the settings the suite may create it with. The suite's groups and the attack
// corpus both read these, so they sit here, apart from the runner that wires the groups.

/**
 * What an executor can enforce; a test that needs a capability the executor lacks is skipped.
 * `timeout` ends a pass that waits too long. `replay` answers the calls of `request.replay` in the
 * sandbox while they match (see `ReplayHint`). `callLimit` keeps at most `maxConcurrentCalls` host
 * calls of a pass in flight (`ExecutorSettings`): a call past it fails in the sandbox with
 * `BUDGET_EXCEEDED`. Ending code that never yields (an endless loop) is not optional: the "runaway
 * code" group runs for every executor.
 */
export type ExecutorCapability =
  | "timeout"
  | "memoryLimit"
  | "abort"
  | "console"
  | "replay"
  | "callLimit";

/** Platform globals an executor may give the sandbox on purpose (all other host globals must be absent). */
export type SandboxGlobal = "fetch" | "setTimeout";

/**
 * What the suite may ask of an executor it creates (`createExecutor(settings)`); an executor that
 * declares the matching capability must honour it. Without settings, the executor's defaults.
 */
export interface ExecutorSettings {
  /** `callLimit`: the host calls of one pass in flight at once, at most */
  maxConcurrentCalls?: number;
}
