// A namespace as the program sees it: an object of host functions whose prototype is a Proxy of
// `Object.prototype` that names the methods it has when the program reads one it does not.
import type { QuickJSHandle } from "quickjs-emscripten-core";
import { errorsCall } from "./errors-part.ts";
import { type LoadedReplay, wrapForReplay } from "./replay-rows.ts";
import type { Sandbox } from "./sandbox.ts";

/**
 * The host function behind a method: the input, and in a replay pass how many calls the replay
 * part answered so far (only its wrapper passes that second argument).
 */
export type HostMethod = (
  method: string,
  input: QuickJSHandle | undefined,
  answered?: QuickJSHandle,
) => QuickJSHandle;

/**
 * A namespace object: its methods are host functions (reached through the replay part's wrapper in
 * a replay pass), its prototype a Proxy of `Object.prototype` whose `get` turns reading a method it
 * does not have into a TypeError naming the methods it has (only a miss reaches the Proxy, so
 * calling a method costs nothing extra).
 */
export function namespaceObject(
  sandbox: Sandbox,
  namespace: string,
  methods: string[],
  replay: LoadedReplay | undefined,
  call: HostMethod,
): QuickJSHandle {
  const { context } = sandbox;
  let object: QuickJSHandle | undefined;
  const missing = context.newFunction("get", (target, key, receiver) =>
    onMissing(sandbox, namespace, object as QuickJSHandle, target, key, receiver),
  );
  const handler = context.newObject();
  let prototype: QuickJSHandle;
  try {
    context.setProp(handler, "get", missing);
    prototype = sandbox.construct("Proxy", sandbox.intrinsic("Object.prototype"), handler);
  } finally {
    handler.dispose();
    missing.dispose();
  }
  try {
    object = sandbox.own(context.newObject(prototype));
  } finally {
    prototype.dispose();
  }
  for (const method of methods) {
    const fn = replay
      ? context.newFunction(method, (input, answered) => call(method, input, answered))
      : context.newFunction(method, (input) => call(method, input));
    let visible = fn;
    try {
      if (replay) visible = wrapForReplay(sandbox, replay, namespace, method, fn);
      // An assignment makes the same writable, enumerable, configurable property in one step (no
      // program has run yet, and the prototype's Proxy traps only reads), except for the one name
      // Object.prototype has an accessor for.
      if (method === "__proto__") {
        sandbox.define(object, method, visible, {
          writable: true,
          enumerable: true,
          configurable: true,
        });
      } else context.setProp(object, method, visible);
    } finally {
      fn.dispose();
      if (visible !== fn) visible.dispose();
    }
  }
  return object;
}

/**
 * Reading a method a namespace lacks: the Proxy's `get`. Symbols, `then`, `toJSON` and what
 * `Object.prototype` has are read as usual; anything else throws a TypeError naming the methods.
 */
function onMissing(
  sandbox: Sandbox,
  namespace: string,
  object: QuickJSHandle,
  target: QuickJSHandle | undefined,
  key: QuickJSHandle | undefined,
  receiver: QuickJSHandle | undefined,
): QuickJSHandle {
  const { context } = sandbox;
  if (!target || !key || !receiver) return context.undefined;
  const name = context.typeof(key) === "string" ? context.getString(key) : undefined;
  if (name === undefined || name === "then" || name === "toJSON" || sandbox.has(target, key)) {
    return sandbox.call(sandbox.intrinsic("Reflect.get"), context.undefined, target, key, receiver);
  }
  throw errorsCall(sandbox, "unknownMethod", [namespace, name], object);
}
