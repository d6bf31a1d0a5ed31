// What QuickJSExecutor cannot pass yet in the executor suite, in Node and in workerd alike: nothing.
// (QuickJS's own JSON.stringify keeps its stack in an array that the program's Array.prototype index
// accessors reach; the sandbox's encoder no longer stringifies objects, so that gap is closed.)
import type { KnownGap } from "@codemode/conformance";

export const KNOWN_GAPS: readonly KnownGap[] = [];
