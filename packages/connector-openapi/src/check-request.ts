import { CodemodeError } from "@codemode/core";
import type { PreparedRequest } from "./build-request.ts";

/** Headers and parameters that make many servers run another method than the one sent. */
const METHOD_OVERRIDES = new Set([
  "x-http-method-override",
  "x-http-method",
  "x-method-override",
  "_method",
]);

/** Headers the platform's HTTP client owns; a request that sets them could reach another site or request. */
const TRANSPORT_HEADERS = new Set([
  "host",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "upgrade",
  "te",
  "trailer",
  "expect",
]);

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/**
 * Whether a path has a dot segment (`.` or `..`), also percent-encoded (`%2e%2e`, `%2E.`), behind
 * an encoded separator (`..%2F`, `..%5C`), with a backslash as separator, or with a `;` parameter
 * (`..;`): URL parsers and servers resolve these, so the request would leave the path it names.
 */
export function hasDotSegment(path: string): boolean {
  const bare = path.split(/[?#]/)[0] ?? "";
  for (const segment of bare.replace(/%2f|%5c|\\/gi, "/").split("/")) {
    const name = (segment.replace(/%2e/gi, ".").replace(/%3b/gi, ";").split(";")[0] ?? "").trim();
    if (name === "." || name === "..") return true;
  }
  return false;
}

/**
 * Characters a built path may not hold: `#` ends the path (fetch drops the fragment, so the server
 * would get a shorter path than the one checked), and URL parsers remove tabs and line breaks and
 * trim control characters. Parameters are percent-encoded, so only a path the document or
 * `request()` wrote can hold one.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const PATH_BREAKERS = /[#\u0000-\u001f\u007f]/;

/** The name of each `name=value` pair of a query string or form body, decoded, lower case. */
function pairNames(pairs: readonly string[]): string[] {
  return pairs.map((pair) => decoded(pair.split("=")[0] ?? "").toLowerCase());
}

/**
 * What no request the sandbox shapes may carry, typed method or escape hatch alike, as an
 * `INVALID_INPUT` error that says why: a `#` or a control character in its path (the URL sent
 * would not hold the path checked); a dot segment in its path (it would leave the
 * operation's path, and the base path, with that operation's credentials); a method override in a
 * header, the query or a top-level body field, JSON, form or multipart (`X-HTTP-Method-Override:
 * DELETE` or `_method=DELETE` turns an approved or ungated GET or POST into another method on
 * servers that honour it); a header the HTTP client owns (`Host`, framing).
 */
export function checkRequest(where: string, request: PreparedRequest): void {
  const breaker = PATH_BREAKERS.exec(request.path);
  if (breaker) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${where}: the path ${JSON.stringify(request.path.slice(0, 200))} has ${JSON.stringify(breaker[0])}, which would end or change the path before it is sent; send the path without it.`,
    );
  }
  if (hasDotSegment(request.path)) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${where}: the path ${JSON.stringify(request.path.slice(0, 200))} has a "." or ".." segment, which would reach another path than the one named; send the path without it.`,
    );
  }
  const override = (what: string) =>
    new CodemodeError(
      "INVALID_INPUT",
      `${where}: ${what} would make the server run another method than ${request.method}; send the method itself (a method that changes something waits for approval).`,
    );
  for (const name of Object.keys(request.headers)) {
    const lower = name.toLowerCase();
    if (METHOD_OVERRIDES.has(lower)) throw override(`the header ${name}`);
    if (TRANSPORT_HEADERS.has(lower)) {
      throw new CodemodeError(
        "INVALID_INPUT",
        `${where}: the header ${name} is set by the HTTP client, not by the request.`,
      );
    }
  }
  const inPath = request.path.includes("?")
    ? request.path.slice(request.path.indexOf("?") + 1)
    : "";
  const query = [...request.query, ...(inPath ? inPath.split("&") : [])];
  const queryOverride = pairNames(query).find((name) => METHOD_OVERRIDES.has(name));
  if (queryOverride !== undefined) throw override(`the query parameter ${queryOverride}`);
  const bodyField = request.bodyFields.find((name) => METHOD_OVERRIDES.has(name.toLowerCase()));
  if (bodyField !== undefined) throw override(`the body field ${bodyField}`);
  const type = request.headers["content-type"] ?? "";
  if (typeof request.body === "string" && type.startsWith("application/x-www-form-urlencoded")) {
    const field = pairNames(request.body.split("&")).find((name) => METHOD_OVERRIDES.has(name));
    if (field !== undefined) throw override(`the form field ${field}`);
  }
}
