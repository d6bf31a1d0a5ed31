import type { OpenAPIV2, OpenAPIV3, OpenAPIV3_1 } from "openapi-types";

/** A Swagger 2.0, OpenAPI 3.0 or OpenAPI 3.1 description, as `openapi-types` types it. */
export type OpenApiDocument = OpenAPIV2.Document | OpenAPIV3.Document | OpenAPIV3_1.Document;

/** A JSON object of unknown shape, as the document walker reads it. */
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Resolves a local JSON pointer (`#/components/parameters/owner`) inside `root`. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  const path = ref.slice(1);
  if (path === "") return root;
  let node: unknown = root;
  for (const raw of path.replace(/^\//, "").split("/")) {
    const segment = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node, segment)) return undefined;
    node = (node as JsonObject)[segment];
  }
  return node;
}

/** Follows `$ref`s (a parameter, a request body, a response) until an object without one. */
export function dereference(root: unknown, value: unknown): JsonObject | undefined {
  let node = value;
  for (let hops = 0; hops < 32; hops++) {
    if (!isObject(node)) return undefined;
    if (typeof node.$ref !== "string") return node;
    node = resolvePointer(root, node.$ref);
  }
  return undefined;
}
