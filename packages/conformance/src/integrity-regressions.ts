// Shrunk counterexamples the journal-integrity property found, kept as fixed cases: each runs on
// every executor and store, checked against the guarantee it broke, so a fix stays fixed. (Found
// against the runtime before its rework; where the shrunk case kept statements that do not matter,
// the case here is the smaller one that fails the same way.)
import type { Guarantee } from "./integrity-invariants.ts";
import type { Case } from "./integrity-schedule.ts";

export interface Regression {
  name: string;
  guarantee: Guarantee;
  testCase: Case;
}

export const REGRESSIONS: readonly Regression[] = [
  {
    name: "an approved call is not sent where the service moved it after the person saw it",
    guarantee: 1,
    testCase: {
      program: [
        { kind: "call", call: { method: "read", key: 1 } },
        { kind: "call", call: { method: "write", key: 2 } },
      ],
      schedule: { first: "none", actions: [{ kind: "move" }, { kind: "approve", during: "none" }] },
    },
  },
  {
    name: "an approve that loses a race to another covers no call the winner's pass paused at later",
    guarantee: 1,
    testCase: {
      program: [
        // biome-ignore lint/suspicious/noThenProperty: the statement's field, not a thenable
        { kind: "tryPause", then: "timeout" },
        { kind: "call", call: { method: "write", key: 9 } },
      ],
      schedule: {
        first: "none",
        actions: [
          { kind: "race", with: "approve" },
          { kind: "approve", during: "abort" },
        ],
      },
    },
  },
  {
    name: "pending() lists no call of a run that expiry ended while its pass was live",
    guarantee: 1,
    testCase: {
      program: [
        { kind: "forge", target: "everything" },
        { kind: "snippet", name: "reads" },
      ],
      schedule: { first: "expire", actions: [] },
    },
  },
  {
    name: "a call still in flight beside a pausing write does not run again on a quick approval",
    guarantee: 2,
    testCase: {
      program: [
        {
          kind: "all",
          items: [
            { method: "slow", key: 0, ms: 1 },
            { method: "write", key: 0 },
          ],
        },
      ],
      schedule: { first: "none", actions: [{ kind: "approve", during: "none" }] },
    },
  },
  {
    name: "a connector error whose message getter throws is recorded as a failure",
    guarantee: 3,
    testCase: {
      program: [
        { kind: "call", call: { method: "fail", shape: "getter" } },
        { kind: "call", call: { method: "slow", key: 0, ms: 1 } },
      ],
      schedule: { first: "none", actions: [] },
    },
  },
  {
    name: "the sandbox cannot complete an in-flight call with codemode.__step_record",
    guarantee: 3,
    testCase: {
      program: [
        { kind: "all", items: [{ forge: "codemode" }, { method: "slow", key: 0, ms: 6 }] },
        { kind: "call", call: { method: "write", key: 0 } },
      ],
      schedule: { first: "none", actions: [{ kind: "approve", during: "none" }] },
    },
  },
  {
    name: "a pass aborted mid-call reports only after the call has settled",
    guarantee: 4,
    testCase: {
      program: [
        {
          kind: "all",
          items: [
            { method: "slow", key: 0, ms: 1 },
            { method: "read", key: 0 },
          ],
        },
        { kind: "call", call: { method: "read", key: 0 } },
      ],
      schedule: { first: "abort", actions: [] },
    },
  },
  {
    name: "a result forged in the live pass is not what the replay gives the program",
    guarantee: 5,
    testCase: {
      program: [
        { kind: "all", items: [{ forge: "codemode" }, { method: "slow", key: 0, ms: 1 }] },
        { kind: "call", call: { method: "write", key: 0 } },
        { kind: "call", call: { method: "slow", key: 0, ms: 1 } },
      ],
      schedule: { first: "none", actions: [{ kind: "race", with: "approve" }] },
    },
  },
  {
    name: "a replayed connector error keeps its name, message, code and data",
    guarantee: 5,
    testCase: {
      program: [
        { kind: "call", call: { method: "fail", shape: "subclass" } },
        { kind: "call", call: { method: "write", key: 0 } },
      ],
      schedule: { first: "none", actions: [{ kind: "approve", during: "none" }] },
    },
  },
  {
    name: "a rollback report names a call whose result could not be recorded",
    guarantee: 6,
    testCase: {
      program: [
        {
          kind: "all",
          items: [
            { method: "read", key: 0 },
            { method: "unrec", kind: "function" },
          ],
        },
      ],
      schedule: { first: "none", actions: [{ kind: "rollback" }] },
    },
  },
  {
    name: "expiry does not take a run whose first pass is still calling",
    guarantee: 7,
    testCase: {
      program: [
        { kind: "call", call: { method: "slow", key: 0, ms: 15 } },
        { kind: "call", call: { method: "read", key: 0 } },
      ],
      schedule: { first: "expire", actions: [] },
    },
  },
  {
    // found on PostgreSQL, where the loser's read of what waits can come after the winner's pass
    // has paused again: the approval must not cover that new pause, asked before it existed
    name: "of two racing approvals, the one whose read comes late covers no call paused after it was asked",
    guarantee: 1,
    testCase: {
      program: [
        { kind: "call", call: { method: "write", key: 0 } },
        { kind: "call", call: { method: "write", key: 9 } },
      ],
      schedule: { first: "none", actions: [{ kind: "race", with: "approve" }] },
    },
  },
  {
    name: "of two racing approvals, the late one runs nothing after the winner's pass reported paused",
    guarantee: 4,
    testCase: {
      program: [
        { kind: "snippet", name: "gated" },
        { kind: "call", call: { method: "write", key: 9 } },
      ],
      schedule: { first: "none", actions: [{ kind: "race", with: "approve" }] },
    },
  },
  {
    // found on PostgreSQL: the rejection read the first call waiting, an approval racing it ran
    // that call, and the rejection then ended the pause that came after, at the second call
    name: "a rejection racing an approval ends the pause it names or nothing",
    guarantee: 1,
    testCase: {
      program: [
        { kind: "call", call: { method: "write", key: 0 } },
        { kind: "call", call: { method: "write", key: 9 } },
      ],
      schedule: { first: "none", actions: [{ kind: "race", with: "reject" }] },
    },
  },
];
