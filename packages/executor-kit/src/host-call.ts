import {
  CodemodeError,
  createValueCodec,
  type ExecuteResult,
  type HostNamespaces,
} from "@codemode/core";
import { errorRecordOf, knownEncodings, messageOf } from "@codemode/core/internal";
import { errorReply, type HostReply, okReply } from "./sandbox-wire.ts";

/** A failure as it crosses the boundary. */
export interface ErrorInfo {
  name: string;
  message: string;
  stack?: string | undefined;
  code?: string | undefined;
  /** the value codec's text of the error's own data properties (an HTTP error's `status`) */
  data?: string | undefined;
}

/** How large an encoded result may be before it is refused, and why (said to the model). */
export interface ReplyLimit {
  chars: number;
  /** completes "more than …", e.g. "the sandbox's memory (64 MiB) can hold" */
  reason: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const isEnumerable = Object.prototype.propertyIsEnumerable;
const hostCodec = createValueCodec();

/** The namespaces' names and their method names; throws `INVALID_CONFIG` for what cannot be a global. */
export function describeNamespaces(globals: HostNamespaces): Record<string, string[]> {
  if (typeof globals !== "object" || globals === null) {
    throw new CodemodeError("INVALID_CONFIG", "request.globals must be an object of namespaces.");
  }
  const out: Record<string, string[]> = {};
  for (const name of Object.keys(globals)) {
    if (!IDENTIFIER.test(name)) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `The namespace name "${name}" is not a JavaScript identifier.`,
      );
    }
    const methods = globals[name];
    if (typeof methods !== "object" || methods === null) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `The namespace "${name}" must be an object of functions.`,
      );
    }
    out[name] = Object.keys(methods).filter((method) => typeof methods[method] === "function");
  }
  return out;
}

/** The message of a thrown value of any shape (core's, shared). */
export { messageOf };

/** A failure of any shape as it crosses: name, message, code and data (core's `errorRecordOf`). */
export function errorInfoOf(error: unknown): ErrorInfo {
  const { name, message, code, data } = errorRecordOf(error);
  return {
    name,
    message,
    code,
    ...(data ? { data: hostCodec.encode(data) } : {}),
  };
}

/** The reply to a host call that returned: the value's encoding, or an error reply. */
export function resultReply(
  namespace: string,
  method: string,
  value: unknown,
  limit?: ReplyLimit,
  known?: string,
): HostReply {
  let text: string;
  try {
    text = known ?? hostCodec.encode(value);
  } catch (error) {
    return errorReply({
      name: "TypeError",
      message: `${namespace}.${method} returned a value that cannot cross the sandbox boundary: ${messageOf(error)}`,
      code: "NOT_SERIALIZABLE",
    });
  }
  if (limit && text.length > limit.chars) {
    return errorReply({
      name: "RangeError",
      message:
        `${namespace}.${method} returned ${text.length} characters, more than ${limit.reason}. ` +
        "Ask for less (a page, fewer fields).",
      code: "TOO_LARGE",
    });
  }
  return okReply(text);
}

/**
 * The host half of one sandbox call: finds `globals[namespace][method]`, decodes the input, calls it
 * and answers with its `HostReply`. Never rejects: every failure is an error reply.
 */
export async function callHost(
  globals: HostNamespaces,
  namespace: string,
  method: string,
  inputText: string,
  limit?: ReplyLimit,
): Promise<HostReply> {
  // only what describeNamespaces lists is served: an own, enumerable function of an own namespace
  const methods = isEnumerable.call(globals, namespace) ? globals[namespace] : undefined;
  const fn = methods && isEnumerable.call(methods, method) ? methods[method] : undefined;
  if (typeof fn !== "function") {
    return errorReply({
      name: "TypeError",
      message: `${namespace}.${method} is not a host method.`,
      code: "UNKNOWN_METHOD",
    });
  }
  let input: unknown;
  try {
    input = hostCodec.decode(inputText);
  } catch (error) {
    return errorReply({
      name: "TypeError",
      message: `The input of ${namespace}.${method} is unreadable: ${messageOf(error)}`,
    });
  }
  try {
    // a journaled run takes the input's text to record it, and hands back the text it recorded
    // of the result: neither value is encoded a second time
    const reply = knownEncodings.withInput(input, inputText, () => fn.call(methods, input));
    const recorded = knownEncodings.takeReply(reply);
    const value = await reply;
    return resultReply(namespace, method, value, limit, recorded?.text);
  } catch (error) {
    return errorReply(errorInfoOf(error));
  }
}

/** A pass's result from its encoding, or NOT_SERIALIZABLE when the host cannot read it. */
export function decodeResult(text: string, logs: string[]): ExecuteResult {
  try {
    return { result: hostCodec.decode(text), logs };
  } catch (error) {
    return {
      error: {
        name: "TypeError",
        code: "NOT_SERIALIZABLE",
        message: `The code's return value could not be read on the host: ${messageOf(error)}`,
      },
      logs,
    };
  }
}
