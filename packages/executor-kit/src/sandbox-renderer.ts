/** Renders console arguments and thrown values as text. */
export interface SandboxRenderer {
  /** one value: strings as they are, other values JSON-like */
  render(value: unknown): string;
  /** one console line: the prefix, then the arguments separated by spaces */
  line(prefix: string, args: unknown[]): string;
}

/**
 * Runs INSIDE the sandbox, compiled there the first time something is logged (its source text is
 * evaluated lazily, so a pass that never logs does not pay for it). Self-contained: no imports and
 * no references outside its body.
 *
 * Strings print as they are, errors as `Name: message`, `Date` as its ISO string, `Map`/`Set` as
 * `Map(n) {k => v}` / `Set(n) {v}`, binary data by type and length, other values as compact JSON
 * (`{"a":1,"b":[1,2]}`) that also shows `undefined`, `NaN`, `-0` and bigints (`1n`). Depth, item
 * counts and the line's length are bounded; cycles print as `[Circular]`.
 */
export function createRenderer(maxLineChars: number): SandboxRenderer {
  const stringify = JSON.stringify;
  const keysOf = Object.keys;
  const isArray = Array.isArray;
  const ErrorType = Error;

  function cut(text: string): string {
    return text.length > maxLineChars ? `${text.slice(0, maxLineChars)}…` : text;
  }

  function render(value: unknown): string {
    let budget = maxLineChars;
    const seen: unknown[] = [];
    function text(out: string): string {
      budget -= out.length;
      return out;
    }
    function list(items: string[], more: number, separator: string): string {
      const shown = items.join(separator);
      return more > 0 ? `${shown}${separator}… ${more} more` : shown;
    }
    function walk(item: unknown, depth: number): string {
      if (budget <= 0) return "…";
      switch (typeof item) {
        case "string":
          return text(depth === 0 ? item : stringify(item));
        case "number":
          return text(item === 0 && 1 / item < 0 ? "-0" : String(item));
        case "bigint":
          return text(`${item}n`);
        case "boolean":
        case "undefined":
          return text(String(item));
        case "symbol":
          return text(item.toString());
        case "function":
          return text(`[Function ${(item as { name?: string }).name || "(anonymous)"}]`);
      }
      if (item === null) return text("null");
      if (item instanceof ErrorType) return text(`${item.name || "Error"}: ${item.message}`);
      if (item instanceof Date) {
        return text(Number.isNaN(item.getTime()) ? "Invalid Date" : item.toISOString());
      }
      if (item instanceof RegExp) return text(String(item));
      if (seen.includes(item)) return text("[Circular]");
      if (depth > 5) return text(isArray(item) ? "[Array]" : "[Object]");
      seen.push(item);
      try {
        if (item instanceof Map) {
          const parts: string[] = [];
          for (const [key, entry] of item) {
            if (parts.length >= 100 || budget <= 0) break;
            parts.push(`${walk(key, depth + 1)} => ${walk(entry, depth + 1)}`);
          }
          return `Map(${item.size}) {${list(parts, item.size - parts.length, ", ")}}`;
        }
        if (item instanceof Set) {
          const parts: string[] = [];
          for (const entry of item) {
            if (parts.length >= 100 || budget <= 0) break;
            parts.push(walk(entry, depth + 1));
          }
          return `Set(${item.size}) {${list(parts, item.size - parts.length, ", ")}}`;
        }
        if (item instanceof ArrayBuffer) return text(`ArrayBuffer(${item.byteLength})`);
        if (item instanceof DataView) return text(`DataView(${item.byteLength})`);
        if (ArrayBuffer.isView(item)) {
          const name = (item.constructor as { name?: string } | undefined)?.name ?? "TypedArray";
          const view = item as unknown as ArrayLike<number | bigint>;
          const parts: string[] = [];
          for (let index = 0; index < view.length && index < 100 && budget > 0; index++) {
            parts.push(walk(view[index], depth + 1));
          }
          return `${name}(${view.length}) [${list(parts, view.length - parts.length, ", ")}]`;
        }
        if (isArray(item)) {
          const parts: string[] = [];
          for (let index = 0; index < item.length && index < 100 && budget > 0; index++) {
            parts.push(walk(item[index], depth + 1));
          }
          return `[${list(parts, item.length - parts.length, ",")}]`;
        }
        const keys = keysOf(item as object);
        const parts: string[] = [];
        for (const key of keys) {
          if (parts.length >= 100 || budget <= 0) break;
          parts.push(
            `${stringify(key)}:${walk((item as Record<string, unknown>)[key], depth + 1)}`,
          );
        }
        return `{${list(parts, keys.length - parts.length, ",")}}`;
      } finally {
        seen.pop();
      }
    }
    try {
      return cut(walk(value, 0));
    } catch {
      try {
        return cut(String(value));
      } catch {
        return "[a value that cannot be shown]";
      }
    }
  }

  return {
    render,
    line(prefix, args) {
      let out = prefix;
      for (let index = 0; index < args.length && out.length <= maxLineChars; index++) {
        out += (index > 0 ? " " : "") + render(args[index]);
      }
      return cut(out);
    },
  };
}
