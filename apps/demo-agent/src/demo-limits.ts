// The agent's limits, in a module of their own so Node tests can read them.

/** A pass's time limit: a runaway program ends with TIMEOUT after this long. */
export const RUN_TIMEOUT_MS = 10_000;
/** How long a pass's lease lasts unrenewed (above the pass's limit): a run a dead process left running ends this long after. */
export const LEASE_MS = 15_000;
