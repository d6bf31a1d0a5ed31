/**
 * The part of the platform's `AbortSignal` Code Mode uses. Every runtime it targets (Workers, Node,
 * browsers) has `AbortSignal`; core is compiled without their type libraries, so it names the shape.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}
