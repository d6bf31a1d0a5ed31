import SwaggerParser from "@apidevtools/swagger-parser";
import { CodemodeError } from "@codemode/core";
import type { OpenAPI } from "openapi-types";
import { isObject, type OpenApiDocument } from "./openapi-document.ts";
import { parseUrl } from "./platform.ts";

/** Documents already read, by the object the application passed: connectors are made per request. */
const loaded = new WeakMap<object, Map<string, Promise<OpenApiDocument>>>();

/** True when some `$ref` in the document points outside it (another file, a URL). */
function hasExternalRefs(document: object): boolean {
  return /"\$ref":"(?!#)/.test(JSON.stringify(document));
}

/**
 * Makes the document's server URLs absolute against the URL it was read from. swagger-parser does
 * this for URLs that start with "/", but drops the port; the others (`v1`, `./v1`) it leaves.
 */
function resolveServers(document: OpenApiDocument, source: string): void {
  const from = parseUrl(source);
  const servers = (document as { servers?: unknown }).servers;
  if (!from || !/^https?:$/.test(from.protocol) || !Array.isArray(servers)) return;
  const portless = `${from.protocol}//${from.hostname}/`;
  for (const server of servers) {
    if (!isObject(server) || typeof server.url !== "string") continue;
    if (from.port && server.url.startsWith(portless)) {
      server.url = `${from.protocol}//${from.host}/${server.url.slice(portless.length)}`;
    } else if (!/^[a-z][a-z0-9+.-]*:/i.test(server.url) && !server.url.includes("{")) {
      server.url = parseUrl(server.url, source)?.href ?? server.url;
    }
  }
}

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** How a document is read. */
export interface LoadOptions {
  validate: boolean;
  /** fetch documents and `$ref`s from loopback and private addresses (refused by default) */
  internalUrls: boolean;
}

async function read(source: string | object, options: LoadOptions): Promise<OpenApiDocument> {
  const parser = new SwaggerParser();
  const parserOptions = { resolve: { http: { safeUrlResolver: !options.internalUrls } } };
  // Local `$ref`s stay as they are: component schemas keep their names (and cycles stay references)
  // for the declarations. External ones are pulled into the document by bundling.
  const document = (
    typeof source === "string" || hasExternalRefs(source)
      ? await parser.bundle(
          typeof source === "string" ? source : (copy(source) as OpenAPI.Document),
          parserOptions,
        )
      : await parser.parse(source as OpenAPI.Document, parserOptions)
  ) as OpenApiDocument;
  if (typeof source === "string") resolveServers(document, source);
  if (options.validate) {
    // validation dereferences what it is given: it gets a copy
    await SwaggerParser.validate(copy(document) as OpenAPI.Document, {
      ...parserOptions,
      dereference: { circular: "ignore" },
    });
  }
  return document;
}

/**
 * Parses (and by default validates) an OpenAPI 3.0/3.1 or Swagger 2.0 document given as an object,
 * a URL or, where the platform has a file system, a path. Objects are read once per identity.
 */
export function loadDocument(source: unknown, options: LoadOptions): Promise<OpenApiDocument> {
  if (typeof source !== "string" && !isObject(source)) {
    return Promise.reject(
      new CodemodeError(
        "INVALID_CONFIG",
        "openApiConnector needs a document: an OpenAPI or Swagger object, a URL or a path.",
      ),
    );
  }
  const byFlag = isObject(source) ? (loaded.get(source) ?? new Map()) : undefined;
  const key = `${options.validate}:${options.internalUrls}`;
  const cached = byFlag?.get(key);
  if (cached) return cached;
  const promise = read(source, options).catch((error: unknown) => {
    let message = error instanceof Error ? error.message : String(error);
    if (typeof source === "string" && !options.internalUrls && /Unable to resolve/.test(message)) {
      message += " (loopback and private addresses are refused unless internalUrls is true)";
    }
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector could not read its document: ${message}`,
      { cause: error },
    );
  });
  if (byFlag && isObject(source)) {
    byFlag.set(key, promise);
    loaded.set(source, byFlag);
    promise.catch(() => byFlag.delete(key));
  }
  return promise;
}
