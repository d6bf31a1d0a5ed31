import SwaggerParser from "@apidevtools/swagger-parser";
import { CodemodeError } from "@codemode/core";
import type { OpenAPI } from "openapi-types";
import { type AddressPolicy, destinationRefusal } from "./address-policy.ts";
import { guardedFetch } from "./guarded-fetch.ts";
import { isObject, type OpenApiDocument } from "./openapi-document.ts";
import { deadline, fromUtf8, parseUrl, platformFetch } from "./platform.ts";
import { discardBody, readBody } from "./read-body.ts";

/** Documents already read, by the object the application passed: connectors are made per request. */
const loaded = new WeakMap<object, Map<string, Promise<OpenApiDocument>>>();

/** True when some `$ref` in the document's JSON text points outside it (another file, a URL). */
function hasExternalRefs(text: string): boolean {
  return /"\$ref":"(?!#)/.test(text);
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

/**
 * Refuses a document whose values, counted as JSON would write them out, outnumber `limit`: YAML
 * aliases (`*a`) let a few hundred bytes stand for billions of values, which serializing,
 * validating or declaring the document would then spell out. Stops counting at the limit.
 */
function checkExpansion(document: unknown, limit: number): void {
  const stack: unknown[] = [document];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > limit) {
      throw new Error(
        `the document stands for more values than it has bytes (YAML aliases?); it is not read`,
      );
    }
    if (typeof node === "object" && node !== null) {
      for (const value of Object.values(node)) stack.push(value);
    }
  }
}

/** How a document is read. */
export interface LoadOptions {
  validate: boolean;
  /** where documents and their `$ref`s may come from */
  policy: AddressPolicy;
  /** bytes of the document and every file its `$ref`s reach, together */
  maxBytes: number;
  /** how long reading may take, all files together */
  timeoutMs: number;
  /** redirects one read follows */
  maxRedirects: number;
  /** tells cached reads of one document object apart (the options above, as text) */
  key: string;
}

/** Where a document comes from, which decides what its `$ref`s may read. */
type SourceKind = "object" | "url" | "path";

interface FileInfo {
  url: string;
}

const isHttp = (url: string) => /^https?:\/\//i.test(url);

async function read(source: string | object, options: LoadOptions): Promise<OpenApiDocument> {
  let kind: SourceKind = "object";
  if (typeof source === "string") {
    const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(source)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== "http" && scheme !== "https" && scheme !== "file") {
      throw new Error(`a document is an object, an http(s) URL or a path, not a ${scheme}: URL`);
    }
    kind = scheme === "http" || scheme === "https" ? "url" : "path";
  }
  const fetch = platformFetch();
  const time = deadline(
    options.timeoutMs,
    () =>
      new Error(
        `reading the document took longer than ${options.timeoutMs} ms; the host can allow more with limits.documentTimeoutMs`,
      ),
  );
  let budget = options.maxBytes;
  let received = 0;
  // the parser wraps and retries what a resolver throws: the first refusal is the one reported
  let refusal: unknown;
  const readUrl = async (url: string): Promise<string> => {
    if (!fetch) throw new Error("this platform has no fetch to read the document with");
    const response = await guardedFetch(
      { fetch, policy: options.policy, maxRedirects: options.maxRedirects },
      {
        method: "GET",
        url,
        headers: { accept: "application/json, application/yaml;q=0.9, */*;q=0.8" },
        body: undefined,
        portableHeaders: new Set(["accept"]),
        origin: parseUrl(url)?.origin ?? "",
        originTrusted: false,
        signal: time.signal,
        where: `GET ${url}`,
        redact: (text) => text,
      },
    );
    if (!response.ok) {
      await discardBody(response);
      throw new Error(`GET ${url} answered HTTP ${response.status}`);
    }
    const bytes = await readBody(response, {
      limit: budget,
      tooLarge: () =>
        new CodemodeError(
          "TOO_LARGE",
          `the document and the files it refers to are larger than ${options.maxBytes} bytes together, so the rest was not read; the host can allow more with limits.documentBytes`,
        ),
    });
    budget -= bytes.length;
    received += bytes.length;
    return fromUtf8(bytes);
  };
  const guarded = {
    order: 1,
    // a path reads local files only; a URL or an object reads http(s) only, through the guard
    canRead: (file: FileInfo) => kind !== "path" || isHttp(file.url),
    read: async (file: FileInfo) => {
      try {
        if (kind === "path") {
          throw new Error(
            `a document given as a path reads local files only, not ${file.url}; give the document as a URL to read it from the network`,
          );
        }
        if (!isHttp(file.url)) {
          throw new Error(
            `it refers to ${file.url}, but a document read from a URL or given as an object reads only http and https URLs, never local files`,
          );
        }
        return await readUrl(file.url);
      } catch (error) {
        refusal ??= error;
        throw error;
      }
    },
  };
  const parserOptions = {
    resolve: {
      http: false,
      file: kind === "path" ? { canRead: (file: FileInfo) => !isHttp(file.url) } : false,
      guarded,
    },
  } as unknown as SwaggerParser.Options;
  const parser = new SwaggerParser();
  const sourceText = typeof source === "string" ? "" : JSON.stringify(source);
  try {
    if (typeof source === "string" && kind === "url") {
      // the document URL itself, before the parser reads it, so that a refusal names the document
      // URL (the guard checks every request again: this one, its redirects and the `$ref`s)
      const url = parseUrl(source);
      const refused = url && (await destinationRefusal(url, options.policy));
      if (refused) throw new Error(`the document URL ${source} was refused: ${refused}.`);
    }
    // Local `$ref`s stay as they are: component schemas keep their names (and cycles stay
    // references) for the declarations. External ones are pulled into the document by bundling.
    const document = (
      typeof source === "string" || hasExternalRefs(sourceText)
        ? await parser.bundle(
            typeof source === "string" ? source : (copy(source) as OpenAPI.Document),
            parserOptions,
          )
        : await parser.parse(source as OpenAPI.Document, parserOptions)
    ) as OpenApiDocument;
    // what was read from the network may not stand for more values than it had bytes
    if (received > 0) checkExpansion(document, received + sourceText.length + 10_000);
    if (typeof source === "string") resolveServers(document, source);
    if (options.validate) {
      // validation dereferences what it is given: it gets a copy
      await SwaggerParser.validate(copy(document) as OpenAPI.Document, {
        ...parserOptions,
        dereference: { circular: "ignore" },
      });
    }
    return document;
  } catch (error) {
    throw refusal ?? error;
  } finally {
    time.done();
  }
}

/**
 * Parses (and by default validates) an OpenAPI 3.0/3.1 or Swagger 2.0 document given as an object,
 * a URL or, where the platform has a file system, a path. A URL, and every `$ref` of a document
 * read from one or given as an object, is read through the guard (addresses, redirects, a byte
 * limit and a time limit), never from local files; a path reads local files only. Objects are
 * read once per identity.
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
  const cached = byFlag?.get(options.key);
  if (cached) return cached;
  const promise = read(source, options).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector could not read its document: ${message}`,
      { cause: error },
    );
  });
  if (byFlag && isObject(source)) {
    byFlag.set(options.key, promise);
    loaded.set(source, byFlag);
    promise.catch(() => byFlag.delete(options.key));
  }
  return promise;
}
