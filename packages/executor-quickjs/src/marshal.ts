// Moving values between the host and a QuickJS sandbox: primitives read and made directly through
// the API, everything else through the sandbox's own parts (the encoder, `JSON.parse`, the codec,
// the renderer), so no sandbox value is converted, called or read on the host.
import { createValueCodec } from "@codemode/core";
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import type { Sandbox } from "./sandbox.ts";

/** Encodes inputs the host reads directly (numbers, booleans, null, undefined), as the sandbox would. */
export const hostCodec = createValueCodec();
/** A tagged reply this short may be a lone primitive (`{"$codemode":"bigint","value":"…"}`). */
const SHORT_TAGGED_CHARS = 64;

/** Numbers, booleans, null and undefined, read without a trip through the codec. */
export function readPrimitive(
  context: QuickJSContext,
  handle: QuickJSHandle,
): { value: unknown } | undefined {
  switch (context.typeof(handle)) {
    case "number":
      return { value: context.getNumber(handle) };
    case "boolean":
      return { value: context.sameValue(handle, context.true) };
    case "undefined":
      return { value: undefined };
    case "object":
      return context.sameValue(handle, context.null) ? { value: null } : undefined;
    default:
      return undefined;
  }
}

/** A primitive the codec decoded on the host, as a sandbox value; undefined for anything else. */
export function primitiveHandle(
  context: QuickJSContext,
  value: unknown,
): QuickJSHandle | undefined {
  switch (typeof value) {
    case "undefined":
      return context.undefined;
    case "boolean":
      return value ? context.true : context.false;
    case "number":
      return context.newNumber(value);
    case "bigint":
      return context.newBigInt(value);
    default:
      return value === null ? context.null : undefined;
  }
}

/** A sandbox string's text; "" for anything that is not a string (nothing is converted). */
export function readString(context: QuickJSContext, handle: QuickJSHandle | undefined): string {
  return handle && context.typeof(handle) === "string" ? context.getString(handle) : "";
}

/** A console line or value cut at the line limit, as the renderer cuts it. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** A call's input as codec text: numbers, booleans, null and undefined are read directly. */
export function encodeInput(sandbox: Sandbox, input: QuickJSHandle | undefined): string {
  const primitive = input ? readPrimitive(sandbox.context, input) : { value: undefined };
  return primitive ? hostCodec.encode(primitive.value) : sandbox.encode(input as QuickJSHandle);
}

/**
 * Codec text as a value in the sandbox: plain JSON with the captured `JSON.parse`, tagged values
 * with the codec, except a lone tagged primitive (`undefined`, `NaN`, a bigint), which the host makes.
 */
export function decodeInSandbox(sandbox: Sandbox, text: string): QuickJSHandle {
  const { context } = sandbox;
  const tagged = text.includes('"$codemode"');
  if (tagged && text.length <= SHORT_TAGGED_CHARS) {
    const handle = primitiveHandle(context, hostCodec.decode(text));
    if (handle) return handle;
  }
  const decode = tagged ? sandbox.member("codec", "decode") : sandbox.intrinsic("JSON.parse");
  const self = tagged ? sandbox.part("codec") : context.undefined;
  const textHandle = context.newString(text);
  try {
    return sandbox.call(decode, self, textHandle);
  } finally {
    textHandle.dispose();
  }
}

/**
 * Strings as they are (at most `max` characters and one more, which `cut` turns into "…", are read
 * from the sandbox) and other primitives as text on the host; objects through the renderer.
 */
export function renderValue(sandbox: Sandbox, value: QuickJSHandle, max: number): string {
  const { context } = sandbox;
  if (context.typeof(value) === "string") {
    if ((context.getLength(value) ?? 0) <= max) return context.getString(value);
    const start = context.newNumber(0);
    const end = context.newNumber(max + 1);
    try {
      const head = sandbox.call(sandbox.intrinsic("String.prototype.slice"), value, start, end);
      try {
        return context.getString(head);
      } finally {
        head.dispose();
      }
    } finally {
      start.dispose();
      end.dispose();
    }
  }
  const primitive = readPrimitive(context, value);
  if (primitive) return Object.is(primitive.value, -0) ? "-0" : String(primitive.value);
  const renderer = sandbox.part("renderer");
  const rendered = sandbox.call(sandbox.member("renderer", "render"), renderer, value);
  try {
    return readString(context, rendered);
  } finally {
    rendered.dispose();
  }
}

/** One console line of a call's arguments, each rendered as the renderer would, cut at `max`. */
export function consoleLine(
  sandbox: Sandbox,
  prefix: string,
  args: QuickJSHandle[],
  max: number,
): string {
  let line = prefix;
  for (let index = 0; index < args.length && line.length <= max; index++) {
    const room = max - line.length;
    line +=
      (index > 0 ? " " : "") + cut(renderValue(sandbox, args[index] as QuickJSHandle, room), max);
  }
  return cut(line, max);
}
