export {
  type JournalStoreConformanceOptions,
  runJournalStoreConformance,
} from "./journal-store-conformance.ts";
export { conformanceTest, type KnownGap } from "./known-gaps.ts";
