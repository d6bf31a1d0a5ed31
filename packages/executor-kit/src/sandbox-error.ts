import type { SandboxError } from "@codemode/core";

/**
 * The `SandboxError` of a program that threw, from what the sandbox described (`Described`): code
 * `UNKNOWN_METHOD` with the namespace and method it names when the sandbox's own unknown-method
 * error ended the pass, `THROWN` otherwise. Every field is checked: the sandbox is not trusted.
 */
export function thrownError(info: {
  name: unknown;
  message: unknown;
  stack?: unknown;
  code?: unknown;
  method?: unknown;
}): SandboxError {
  const text = (value: unknown, max: number) =>
    typeof value === "string" ? value.slice(0, max) : "";
  const error: SandboxError = {
    name: text(info.name, 200) || "Error",
    message: text(info.message, 100_000),
    code: "THROWN",
  };
  const stack = text(info.stack, 100_000);
  if (stack) error.stack = stack;
  const method = unknownMethodOf(info.code, info.method);
  if (method) {
    error.code = "UNKNOWN_METHOD";
    error.method = method;
  }
  return error;
}

function unknownMethodOf(
  code: unknown,
  text: unknown,
): { namespace: string; name: string } | undefined {
  if (code !== "UNKNOWN_METHOD" || typeof text !== "string" || text.length > 2_000)
    return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === "string" &&
      typeof parsed[1] === "string"
    ) {
      return { namespace: parsed[0], name: parsed[1] };
    }
  } catch {
    // not what the sandbox's own error writes: an ordinary throw
  }
  return undefined;
}
