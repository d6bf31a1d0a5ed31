import { CodemodeError } from "@codemode/core";
import type { JsonSchemaObject } from "@codemode/typegen";
import { bodyFieldsOf, encodeForm, type PreparedRequest } from "./build-request.ts";
import { isObject } from "./openapi-document.ts";

/** The escape hatch's input: any path of the API, outside the declared operations. */
export interface RawRequest {
  method?: string;
  /** from the base URL, starting with `/` */
  path: string;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
  body?: unknown;
  /** `application/json` (default) or `application/x-www-form-urlencoded` */
  contentType?: string;
}

/** Characters of the escape hatch's path (servers refuse much shorter request lines). */
export const MAX_PATH_LENGTH = 8_000;

/** Methods that change nothing: they carry no idempotency key, and need no approval by default. */
export const READ_METHODS: readonly string[] = ["GET", "HEAD", "OPTIONS"];
const METHODS: readonly string[] = [...READ_METHODS, "POST", "PUT", "PATCH", "DELETE"];

function methodOf(input: unknown): string {
  return (isObject(input) && typeof input.method === "string" ? input.method : "GET").toUpperCase();
}

/** The escape hatch's input schema. */
export const REQUEST_SCHEMA: JsonSchemaObject = {
  type: "object",
  properties: {
    method: { type: "string", enum: [...METHODS], default: "GET" },
    path: {
      type: "string",
      description: "From the API's base URL, starting with /, path parameters filled in.",
    },
    query: {
      type: "object",
      description: "Query parameters; arrays repeat the name.",
      additionalProperties: {
        anyOf: [
          { type: "string" },
          { type: "number" },
          { type: "boolean" },
          { type: "array", items: { type: ["string", "number", "boolean"] } },
        ],
      },
    },
    headers: { type: "object", additionalProperties: { type: "string" } },
    body: { description: "Sent as JSON unless contentType says otherwise." },
    contentType: {
      type: "string",
      enum: ["application/json", "application/x-www-form-urlencoded"],
    },
  },
  required: ["path"],
};

/** The request the escape hatch sends; a method or path it may not use is an `INVALID_INPUT` error. */
export function buildRawRequest(where: string, input: unknown): PreparedRequest {
  if (!isObject(input) || typeof input.path !== "string") {
    throw new CodemodeError("INVALID_INPUT", `${where} needs { path: "/…" } at least.`);
  }
  const method = methodOf(input);
  if (!METHODS.includes(method)) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${where} sends ${METHODS.join(", ")}, not ${method}.`,
    );
  }
  if (input.path.length > MAX_PATH_LENGTH) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${where} takes a path of at most ${MAX_PATH_LENGTH} characters, not ${input.path.length}.`,
    );
  }
  // a path, never a URL: credentials go to the configured base URL and nowhere else
  if (!/^\/(?![/\\])/.test(input.path) || /[\s#]/.test(input.path)) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${where} takes a path that starts with a single / (like "/users/octocat"), not "${input.path}".`,
    );
  }
  const query: string[] = [];
  if (isObject(input.query)) {
    for (const [name, value] of Object.entries(input.query)) {
      if (value === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        query.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(item))}`);
      }
    }
  }
  const headers: Record<string, string> = {};
  if (isObject(input.headers)) {
    for (const [name, value] of Object.entries(input.headers)) {
      if (typeof value === "string") headers[name.toLowerCase()] = value;
    }
  }
  let body: string | undefined;
  if (input.body !== undefined) {
    const form = input.contentType === "application/x-www-form-urlencoded";
    headers["content-type"] = form ? "application/x-www-form-urlencoded" : "application/json";
    body = form ? encodeForm(input.body) : JSON.stringify(input.body);
  }
  return {
    method,
    path: input.path,
    query,
    headers,
    cookies: [],
    body,
    bodyFields: bodyFieldsOf(input.body),
  };
}
