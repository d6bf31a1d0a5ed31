import type { CodeModeOutput } from "../../types.ts";

/** Outcomes a runtime remembers between a tool call's approval check and its `execute`. */
export const MEMORY = 256;

/** A map that keeps its `MEMORY` most recently set keys. */
export class Recent<V> {
  readonly #map = new Map<string, V>();
  set(key: string, value: V) {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > MEMORY) this.#map.delete(this.#map.keys().next().value as string);
  }
  get(key: string) {
    return this.#map.get(key);
  }
  take(key: string) {
    const value = this.#map.get(key);
    this.#map.delete(key);
    return value;
  }
}

/**
 * What one runtime's `codemode` tool (`runtime.tool()`, every tool object it makes) remembers
 * between the requests of the AI SDK, in this process: kept in the runtime's context, so it lives
 * and dies with the runtime.
 */
export interface ToolCallMemory {
  /**
   * First passes that did not ask, by tool call key: the approval check that ran one
   * (`toolApproval` from `codemodeToolApproval(runtime)`, or the tool's `needsApproval`) may belong
   * to another tool object than the `execute` that reports it.
   */
  readonly firstPasses: Recent<CodeModeOutput>;
  /** The denials of a conversation already applied, by messages array. */
  readonly denials: WeakMap<object, { length: number; rejected: Promise<string[]> }>;
}

/** A runtime's tool-call memory, empty. */
export function toolCallMemory(): ToolCallMemory {
  return { firstPasses: new Recent(), denials: new WeakMap() };
}
