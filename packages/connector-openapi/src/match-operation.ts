import type { OperationSpec } from "./operation-spec.ts";
import { parseUrl } from "./platform.ts";

/** One segment of a path template: literal text, or a pattern with `{parameters}` in it. */
type Segment = string | RegExp;

interface Template {
  operation: OperationSpec;
  segments: Segment[];
  /** literal segments: a concrete path wins over a templated one, as OpenAPI says */
  literals: number;
}

/** How a path is compared with the templates. */
export interface MatchOptions {
  /**
   * Compare the way lenient servers read paths, so that another spelling of a declared path still
   * finds its operation: literal segments in any case, empty segments (`//`, a trailing `/`) and
   * `;` parameters ignored, a backslash as a separator, percent-encoded unreserved characters
   * decoded. Default: exactly, a path as the URL parser sends it (`new URL(…).pathname`) against
   * the document's templates with their literal text percent-encoded the same way.
   */
  loose?: boolean;
}

const UNRESERVED_ESCAPE = /%(2[dDeE]|3[0-9]|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g;

/**
 * Literal text of a template as it is sent: the URL parser percent-encodes what a path cannot
 * carry as it is (a space, `"`, `<`, non-ASCII letters), so a request path read back from a URL
 * holds `%20` where the document wrote a space. (The `x` keeps `.` and `..` from being resolved.)
 */
function asSent(literal: string): string {
  const parsed = parseUrl(`http://h/x${literal}`);
  return parsed ? parsed.pathname.slice(2) : literal;
}

function segmentOf(text: string, loose: boolean): Segment {
  if (!text.includes("{")) return loose ? text.toLowerCase() : asSent(text);
  const pattern = text
    .split(/\{[^}]*\}/)
    .map((literal) => (loose ? literal : asSent(literal)))
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${pattern}$`, loose ? "i" : "");
}

function partsOf(path: string, loose: boolean): string[] {
  const bare = path.split("?")[0] ?? "";
  if (!loose) return bare.split("/");
  return bare
    .replace(/\\/g, "/")
    .split("/")
    .map((part) =>
      (part.split(";")[0] ?? "").replace(UNRESERVED_ESCAPE, (hex) =>
        String.fromCharCode(Number.parseInt(hex.slice(1), 16)),
      ),
    )
    .filter((part) => part !== "");
}

/**
 * Finds the declared operation a request to `path` (from the base URL, a query allowed) with
 * `method` reaches, so that the escape hatch applies that operation's policy and credentials, and
 * a typed call whose parameters spell another operation's path is caught. Work per lookup: the
 * path's length, plus the templates with as many segments.
 */
export function operationMatcher(
  operations: readonly OperationSpec[],
  { loose = false }: MatchOptions = {},
): (method: string, path: string) => OperationSpec | undefined {
  const byShape = new Map<string, Template[]>();
  for (const operation of operations) {
    const segments = partsOf(operation.path, loose).map((part) => segmentOf(part, loose));
    const key = `${operation.method} ${segments.length}`;
    const templates = byShape.get(key) ?? [];
    const literals = segments.filter((segment) => typeof segment === "string").length;
    templates.push({ operation, segments, literals });
    byShape.set(key, templates);
  }
  return (method, path) => {
    const parts = partsOf(path, loose);
    let best: Template | undefined;
    for (const template of byShape.get(`${method} ${parts.length}`) ?? []) {
      if (best && best.literals >= template.literals) continue;
      const matches = template.segments.every((segment, index) => {
        const part = parts[index] as string;
        if (typeof segment !== "string") return segment.test(part);
        return segment === (loose ? part.toLowerCase() : part);
      });
      if (matches) best = template;
    }
    return best?.operation;
  };
}
