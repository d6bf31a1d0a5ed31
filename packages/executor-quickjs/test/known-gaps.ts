// What QuickJSExecutor cannot pass yet in the executor suite, in Node and in workerd alike.
// (QuickJS's own JSON.stringify keeps its stack in an array that the program's Array.prototype index
// accessors reach; the sandbox's encoder no longer stringifies objects, so that gap is closed.)
import type { KnownGap } from "@codemode/conformance";

export const KNOWN_GAPS: readonly KnownGap[] = [
  {
    reason:
      "QuickJS refuses a host call made after the program's promise settled only once its harness has seen it settle: a call made in a job that runs in between (a then callback the program queued before it returned) still reaches the host (the suite's batched calls group, moved in from the Dynamic Worker's and the iframe's own tests, found it)",
    tests: [
      "batched calls > calls queued in a microtask that runs after the program settled are not delivered",
    ],
  },
];
