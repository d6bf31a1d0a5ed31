import { isObject, type JsonObject, type OpenApiDocument } from "./openapi-document.ts";

/**
 * The base URL the document names: its first `servers` entry with the variables at their defaults
 * (OpenAPI 3), or `schemes`, `host` and `basePath` (Swagger 2, https when it is listed or none is).
 */
export function serverUrl(document: OpenApiDocument): string | undefined {
  const root = document as unknown as JsonObject;
  if (typeof root.swagger === "string") {
    if (typeof root.host !== "string") return undefined;
    const schemes = Array.isArray(root.schemes) ? root.schemes : [];
    const scheme = schemes.includes("https") || schemes.length === 0 ? "https" : String(schemes[0]);
    return `${scheme}://${root.host}${typeof root.basePath === "string" ? root.basePath : ""}`;
  }
  const server = Array.isArray(root.servers) ? root.servers[0] : undefined;
  if (!isObject(server) || typeof server.url !== "string") return undefined;
  const variables = isObject(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && variable.default !== undefined ? String(variable.default) : whole;
  });
}
