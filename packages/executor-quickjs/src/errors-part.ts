// The sandbox's errors part (`sandboxErrors` of the kit, compiled in the sandbox): the host asks it
// to describe a thrown value and to make the errors the program sees, so they are the sandbox's own
// objects, made by its captured constructors.
import { Lifetime, type QuickJSHandle } from "quickjs-emscripten-core";
import { readError, type ThrownInfo } from "./classify-error.ts";
import { readString } from "./marshal.ts";
import type { Sandbox } from "./sandbox.ts";

/**
 * Calls a function of the errors part with string arguments (and values, which stay the caller's);
 * returns its result. A value thrown is thrown as its handle.
 */
export function errorsCall(
  sandbox: Sandbox,
  name: "fail" | "inputError" | "unknownMethod",
  strings: string[],
  ...values: QuickJSHandle[]
): QuickJSHandle {
  const { context } = sandbox;
  const args = strings.map((text) => context.newString(text));
  try {
    return sandbox.call(sandbox.member("errors", name), sandbox.part("errors"), ...args, ...values);
  } finally {
    for (const arg of args) arg.dispose();
  }
}

/**
 * What a thrown value says, through the errors part (its own reading if that fails): name, message,
 * stack and code as strings, and the unknown method it names. Disposes the value.
 */
export function describeError(sandbox: Sandbox, error: QuickJSHandle): ThrownInfo {
  const { context } = sandbox;
  try {
    const described = sandbox.call(
      sandbox.member("errors", "describe"),
      sandbox.part("errors"),
      error,
    );
    try {
      const [name, message, stack, code, method] = [0, 1, 2, 3, 4].map((index) => {
        const item = context.getProp(described, index);
        const text = readString(context, item);
        item.dispose();
        return text;
      }) as [string, string, string, string, string];
      return {
        name,
        message,
        stack: stack || undefined,
        code: code || undefined,
        ...(method ? { method } : {}),
      };
    } finally {
      described.dispose();
    }
  } catch (failure) {
    if (!(failure instanceof Lifetime)) throw failure;
    failure.dispose();
    return readError(context, error);
  } finally {
    if (error.alive) error.dispose();
  }
}
