import type { OperationSpec } from "./operation-spec.ts";

/** One segment of a path template: literal text, or a pattern with `{parameters}` in it. */
type Segment = string | RegExp;

interface Template {
  operation: OperationSpec;
  segments: Segment[];
  /** literal segments: a concrete path wins over a templated one, as OpenAPI says */
  literals: number;
}

function segmentOf(text: string): Segment {
  if (!text.includes("{")) return text;
  const pattern = text
    .split(/\{[^}]*\}/)
    .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("[^/]+");
  return new RegExp(`^${pattern}$`);
}

/**
 * Finds the declared operation a request to `path` (from the base URL, a query allowed) with
 * `method` reaches, so that the escape hatch sends what that operation would (its credentials).
 * Work per lookup: the path's length, plus the templates with as many segments.
 */
export function operationMatcher(
  operations: readonly OperationSpec[],
): (method: string, path: string) => OperationSpec | undefined {
  const byShape = new Map<string, Template[]>();
  for (const operation of operations) {
    const segments = operation.path.split("/").map(segmentOf);
    const key = `${operation.method} ${segments.length}`;
    const templates = byShape.get(key) ?? [];
    const literals = segments.filter((segment) => typeof segment === "string").length;
    templates.push({ operation, segments, literals });
    byShape.set(key, templates);
  }
  return (method, path) => {
    const parts = (path.split("?")[0] ?? "").split("/");
    let best: Template | undefined;
    for (const template of byShape.get(`${method} ${parts.length}`) ?? []) {
      if (best && best.literals >= template.literals) continue;
      const matches = template.segments.every((segment, index) => {
        const part = parts[index] as string;
        return typeof segment === "string" ? segment === part : segment.test(part);
      });
      if (matches) best = template;
    }
    return best?.operation;
  };
}
