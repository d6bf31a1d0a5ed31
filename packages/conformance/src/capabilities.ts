// What an executor declares to the executor suite: the limits it enforces and the globals its sandbox
// has on purpose. The suite's groups and the attack corpus both read these, so they sit here, apart
// from the runner that wires the groups.

/**
 * What an executor can enforce; a test that needs a capability the executor lacks is skipped.
 * `timeout` ends a pass that waits too long. `replay` answers the calls of `request.replay` in the
 * sandbox while they match (see `ReplayHint`). Ending code that never yields (an endless loop) is
 * not optional: the "runaway code" group runs for every executor.
 */
export type ExecutorCapability = "timeout" | "memoryLimit" | "abort" | "console" | "replay";

/** Platform globals an executor may give the sandbox on purpose (all other host globals must be absent). */
export type SandboxGlobal = "fetch" | "setTimeout";
