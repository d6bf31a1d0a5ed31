import {
  getJsonSchemaRefParserDefaultOptions,
  type FileInfo as ParsedFile,
  type Plugin,
} from "@apidevtools/json-schema-ref-parser";
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

/** Values a file may stand for beyond one per byte: `[]`, `{}` and the like are more values than bytes. */
const VALUE_ALLOWANCE = 10_000;

/** What `checkExpansion` keeps for an object whose values it is counting. */
interface Counting {
  node: object;
  values: unknown[];
  next: number;
  count: number;
}

/**
 * Refuses a value that stands for more than `limit` values, counted as JSON would write them out:
 * YAML aliases (`*a`) let a few hundred bytes stand for billions of values, which crawling,
 * bundling, serializing, validating or declaring the document would then spell out. The count
 * follows the objects as they are, shared and all: an object's count is 1 and its values' counts,
 * worked out once per object and never above the limit, so the work grows with the objects and
 * entries the text spelled out, not with what they stand for. A cycle stands for endlessly many.
 */
function checkExpansion(root: unknown, limit: number, what = "the document"): void {
  const refused = () =>
    new Error(`${what} stands for more values than it has bytes (YAML aliases?); it is not read`);
  const counted = new Map<object, number>();
  const open = new Set<object>();
  const stack: Counting[] = [];
  const add = (counting: Counting, count: number) => {
    counting.count += count;
    if (counting.count > limit) throw refused();
  };
  // the count of a value already known, or undefined once it is opened for counting
  const enter = (value: unknown): number | undefined => {
    if (typeof value !== "object" || value === null) return 1;
    const known = counted.get(value);
    if (known !== undefined) return known;
    if (open.has(value)) throw refused();
    open.add(value);
    stack.push({ node: value, values: Object.values(value), next: 0, count: 1 });
    return undefined;
  };
  if (enter(root) !== undefined) return;
  while (true) {
    const counting = stack[stack.length - 1];
    if (!counting) return;
    if (counting.next < counting.values.length) {
      const count = enter(counting.values[counting.next++]);
      if (count !== undefined) add(counting, count);
      continue;
    }
    stack.pop();
    open.delete(counting.node);
    counted.set(counting.node, counting.count);
    const parent = stack[stack.length - 1];
    if (parent) add(parent, counting.count);
  }
}

/** The parser's own JSON and YAML parsers, which turn what a resolver read into values. */
const textParsers = (() => {
  const parsers = getJsonSchemaRefParserDefaultOptions().parse;
  return (["json", "yaml"] as const).map((name) => {
    const plugin = parsers[name];
    const parse = typeof plugin === "object" ? plugin.parse : undefined;
    if (typeof plugin !== "object" || typeof parse !== "function") {
      throw new Error(`@apidevtools/json-schema-ref-parser has no ${name} parser`);
    }
    return { name, plugin, parse };
  });
})();

/**
 * The parser's JSON and YAML parsers, each handing what it parsed to `check` before the parser
 * crawls, bundles or validates it: a refusal there keeps the parsed value from the parser.
 */
function checkedParsers(check: (file: ParsedFile, value: unknown) => void): Record<string, Plugin> {
  const checked: Record<string, Plugin> = {};
  for (const { name, plugin, parse } of textParsers) {
    checked[name] = {
      ...plugin,
      async parse(this: Plugin, file: ParsedFile) {
        const value: unknown = await parse.call(this, file);
        check(file, value);
        return value;
      },
    };
  }
  return checked;
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
  // the parser wraps and retries what a resolver or parser throws: the first refusal is reported
  let refusal: unknown;
  // bytes of each file read through the guard, by the URL the parser asked for
  const sizes = new Map<string, number>();
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
    sizes.set(url, bytes.length);
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
  // what the guard read may not stand for more values than it had bytes: checked as soon as it is
  // parsed, before the parser walks it (local files a path reads are the host's own)
  const check = (file: ParsedFile, value: unknown) => {
    const size = sizes.get(file.url);
    if (size === undefined) return;
    const what =
      kind === "url" && sizes.keys().next().value === file.url ? "the document" : file.url;
    try {
      checkExpansion(value, size + VALUE_ALLOWANCE, what);
    } catch (error) {
      refusal ??= error;
      throw error;
    }
  };
  const parserOptions = {
    parse: checkedParsers(check),
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
    // a parser that refused a file may have been followed by one that read it as text
    if (refusal !== undefined) throw refusal;
    // nor may the document they make up together, with the object it may have started from
    if (received > 0) checkExpansion(document, received + sourceText.length + VALUE_ALLOWANCE);
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
