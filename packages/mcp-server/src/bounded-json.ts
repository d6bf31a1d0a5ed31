// The compact, bounded JSON of @codemode/mcp-server's replies: built with its own stack (no depth can
// overflow it) and abandoned as soon as it passes its limit.

const isPrimitiveKey = (key: unknown) =>
  typeof key === "string" ||
  typeof key === "number" ||
  typeof key === "boolean" ||
  typeof key === "bigint";

interface Frame {
  /** the values still to write, and for an object their keys */
  values: readonly unknown[];
  keys: readonly string[] | undefined;
  index: number;
  wrote: boolean;
}

/**
 * Compact JSON for a model (Map and Set as objects and arrays, bigint as a string, dates as ISO
 * text, binary data by size), or `undefined` once the text would pass `limit` characters. It walks
 * with its own stack (any depth) and stops as soon as the text or the work (a value that shares
 * itself, a cycle, keys with nothing to write) passes the limit: its work is linear in `limit`.
 */
export function boundedJson(
  value: unknown,
  limit: number,
): { text: string; depth: number } | undefined {
  const parts: string[] = [];
  let length = 0;
  let work = 0;
  let depth = 0;
  const budget = 2 * limit + 16;
  const stack: Frame[] = [];
  const emit = (text: string): boolean => {
    length += text.length;
    work += text.length;
    if (length > limit) return false;
    parts.push(text);
    return true;
  };
  /** writes a scalar, or opens a frame for a container; false when over the limit */
  const open = (item: unknown): boolean => {
    work++;
    if (work > budget) return false;
    switch (typeof item) {
      case "string":
        return item.length + 2 + length <= limit && emit(JSON.stringify(item));
      case "number":
        return emit(Number.isFinite(item) ? String(item) : "null");
      case "boolean":
        return emit(item ? "true" : "false");
      case "bigint":
        return emit(`"${item.toString()}"`);
      case "object":
        break;
      default:
        return emit("null");
    }
    if (item === null) return emit("null");
    if (item instanceof Date) {
      return emit(Number.isNaN(item.getTime()) ? "null" : `"${item.toISOString()}"`);
    }
    if (item instanceof ArrayBuffer || ArrayBuffer.isView(item)) {
      return emit(`"<${(item as ArrayBuffer).byteLength} bytes>"`);
    }
    if (item instanceof RegExp) return emit(JSON.stringify(String(item)));
    let values: readonly unknown[];
    let keys: string[] | undefined;
    if (Array.isArray(item)) values = item;
    else if (item instanceof Set) values = [...item];
    else if (item instanceof Map) {
      if ([...item.keys()].every(isPrimitiveKey)) {
        keys = [...item.keys()].map((key) => String(key));
        values = [...item.values()];
      } else {
        values = [...item.entries()];
      }
    } else {
      keys = Object.keys(item);
      values = keys.map((key) => (item as Record<string, unknown>)[key]);
    }
    work += values.length;
    if (work > budget || !emit(keys ? "{" : "[")) return false;
    stack.push({ values, keys, index: 0, wrote: false });
    if (stack.length > depth) depth = stack.length;
    return true;
  };
  const skipped = (item: unknown) =>
    item === undefined || typeof item === "function" || typeof item === "symbol";

  if (!open(skipped(value) ? null : value)) return undefined;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.index >= frame.values.length) {
      stack.pop();
      if (!emit(frame.keys ? "}" : "]")) return undefined;
      continue;
    }
    const at = frame.index++;
    const item = frame.values[at];
    if (frame.keys) {
      if (skipped(item)) {
        work++;
        if (work > budget) return undefined;
        continue;
      }
      const key = frame.keys[at] as string;
      if (key.length + 3 + length > limit) return undefined;
      if (!emit(`${frame.wrote ? "," : ""}${JSON.stringify(key)}:`)) return undefined;
    } else if (frame.wrote && !emit(",")) return undefined;
    frame.wrote = true;
    if (!open(skipped(item) ? null : item)) return undefined;
  }
  return { text: parts.join(""), depth };
}
