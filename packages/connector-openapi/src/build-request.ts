import { CodemodeError } from "@codemode/core";
import { isObject } from "./openapi-document.ts";
import type { BodySpec, EncodingSpec, OperationSpec, ParameterSpec } from "./operation-spec.ts";
import { type BlobLike, blobOf, createFormData, type FormDataLike, isBlob } from "./platform.ts";

/** A request before credentials: method, URL pieces, headers and an encoded body. */
export interface PreparedRequest {
  method: string;
  /** path with its parameters filled in, relative to the base URL */
  path: string;
  /** `name=value` pairs, already percent-encoded */
  query: string[];
  headers: Record<string, string>;
  /** `name=value` pairs for the `Cookie` header */
  cookies: string[];
  body: string | FormDataLike | BlobLike | Uint8Array | undefined;
  /**
   * The top-level field names of a body given as an object (JSON, form or multipart), as given:
   * what a server reads from the body before it routes (a `_method` field), checked before sending.
   */
  bodyFields: string[];
}

const encode = (value: string) => encodeURIComponent(value);

function scalar(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return String(value);
}

/**
 * A path segment, header or cookie value in OpenAPI's `simple`, `label` or `matrix` style. Every
 * text that comes from the value (an item, an object's key as well as its value) and the
 * parameter's name go through `escapeText`: in a path, nothing the caller gives can add a
 * separator (`/`), a query (`?`), a fragment (`#`) or a percent escape of its own.
 */
function simpleValue(
  parameter: ParameterSpec,
  value: unknown,
  escapeText: (text: string) => string,
): string {
  const { style, explode } = parameter;
  const name = escapeText(parameter.name);
  const entries: Array<[string, string]> | undefined =
    isObject(value) && !(value instanceof Date)
      ? Object.entries(value).map(([key, item]) => [escapeText(key), escapeText(scalar(item))])
      : undefined;
  const list = Array.isArray(value) ? value.map((item) => escapeText(scalar(item))) : undefined;
  if (style === "matrix") {
    if (list)
      return explode
        ? list.map((item) => `;${name}=${item}`).join("")
        : `;${name}=${list.join(",")}`;
    if (entries)
      return explode
        ? entries.map(([key, item]) => `;${key}=${item}`).join("")
        : `;${name}=${entries.flat().join(",")}`;
    return `;${name}=${escapeText(scalar(value))}`;
  }
  const prefix = style === "label" ? "." : "";
  const separator = style === "label" && explode ? "." : ",";
  if (list) return prefix + list.join(separator);
  if (entries)
    return (
      prefix +
      (explode ? entries.map(([key, item]) => `${key}=${item}`) : entries.flat()).join(separator)
    );
  return prefix + escapeText(scalar(value));
}

/** `name[key][0]=value` pairs for nested objects and arrays (deepObject, and forms' nested fields). */
function bracketPairs(prefix: string, value: unknown, out: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      bracketPairs(`${prefix}[${index}]`, item, out);
    });
  } else if (isObject(value) && !(value instanceof Date)) {
    for (const [key, item] of Object.entries(value)) bracketPairs(`${prefix}[${key}]`, item, out);
  } else if (value !== undefined) {
    out.push(`${encode(prefix)}=${encode(value === null ? "" : scalar(value))}`);
  }
}

const DELIMITERS: Record<string, string> = {
  form: ",",
  spaceDelimited: " ",
  pipeDelimited: "|",
  tabDelimited: "\t",
};

/** Query pairs for one value in `form`, `spaceDelimited`, `pipeDelimited` or `deepObject` style. */
function formPairs(
  name: string,
  value: unknown,
  style: string,
  explode: boolean,
  out: string[],
): void {
  if (style === "deepObject") {
    bracketPairs(name, value, out);
    return;
  }
  if (Array.isArray(value)) {
    if (explode) for (const item of value) out.push(`${encode(name)}=${encode(scalar(item))}`);
    else
      out.push(
        `${encode(name)}=${value.map((item) => encode(scalar(item))).join(encode(DELIMITERS[style] ?? ","))}`,
      );
    return;
  }
  if (isObject(value) && !(value instanceof Date)) {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (explode)
      for (const [key, item] of entries) out.push(`${encode(key)}=${encode(scalar(item))}`);
    else
      out.push(
        `${encode(name)}=${entries.map(([key, item]) => `${encode(key)},${encode(scalar(item))}`).join(",")}`,
      );
    return;
  }
  out.push(`${encode(name)}=${encode(scalar(value))}`);
}

/** An `application/x-www-form-urlencoded` body: top-level fields as forms, nested ones with brackets. */
export function encodeForm(value: unknown, encoding: Record<string, EncodingSpec> = {}): string {
  if (!isObject(value)) return typeof value === "string" ? value : "";
  const out: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    const spec = encoding[key] ?? {};
    if (isObject(item) && !(item instanceof Date)) bracketPairs(key, item, out);
    else if (
      Array.isArray(item) &&
      (spec.style === "deepObject" ||
        item.some((entry) => typeof entry === "object" && entry !== null))
    )
      bracketPairs(key, item, out);
    else formPairs(key, item, spec.style ?? "form", spec.explode ?? true, out);
  }
  return out.join("&");
}

function isBinary(value: unknown): value is BlobLike | Uint8Array {
  return value instanceof Uint8Array || isBlob(value);
}

/** A `multipart/form-data` body: files as they are, arrays as repeated fields, objects as JSON. */
function encodeMultipart(value: unknown): FormDataLike {
  const form = createFormData();
  if (!isObject(value)) return form;
  const append = (key: string, item: unknown) => {
    if (item === undefined) return;
    if (item instanceof Uint8Array) form.append(key, blobOf(item));
    else if (isBlob(item)) form.append(key, item);
    else form.append(key, scalar(item));
  };
  for (const [key, item] of Object.entries(value)) {
    if (Array.isArray(item)) for (const entry of item) append(key, entry);
    else append(key, item);
  }
  return form;
}

/** The top-level field names of a body value that is an object (not a date, a file or bytes). */
export function bodyFieldsOf(value: unknown): string[] {
  return isObject(value) && !(value instanceof Date) && !isBinary(value) ? Object.keys(value) : [];
}

/** How a request body is written (see `bodyWriting`). */
export type BodyWriting = "multipart" | "form" | "json" | "as given";

/**
 * How a body of `contentType` is written: multipart fields, a URL-encoded form, JSON, or a string or
 * bytes as given (anything else as JSON). Part of an operation's request form (`operationName`).
 */
export function bodyWriting(contentType: string): BodyWriting {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "multipart/form-data") return "multipart";
  if (type === "application/x-www-form-urlencoded") return "form";
  if (/[/+]json$/.test(type)) return "json";
  return "as given";
}

/** Sets the body and, except for multipart (whose boundary fetch writes), its content type. */
function encodeBody(
  body: BodySpec,
  value: unknown,
  headers: Record<string, string>,
): PreparedRequest["body"] {
  const writing = bodyWriting(body.contentType);
  if (writing === "multipart") return encodeMultipart(value);
  headers["content-type"] = body.contentType;
  if (writing === "form") return encodeForm(value, body.encoding);
  if (writing === "json") return JSON.stringify(value);
  if (typeof value === "string" || isBinary(value)) return value;
  return JSON.stringify(value);
}

/**
 * The request for one call of an operation: path, query, header and cookie parameters serialized the
 * way the document says, the body encoded in its media type. An input the request cannot be built
 * from is an `INVALID_INPUT` error the model can correct.
 */
export function buildRequest(
  connector: string,
  operation: OperationSpec,
  input: unknown,
): PreparedRequest {
  const where = `${connector}.${operation.name}`;
  if (input !== undefined && input !== null && !isObject(input)) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${where} takes an object of its parameters, not ${typeof input}.`,
    );
  }
  const fields: Record<string, unknown> = isObject(input) ? input : {};
  const known = new Set([
    ...operation.parameters.map((parameter) => parameter.key),
    ...(operation.body ? [operation.body.key] : []),
  ]);
  const unknown = Object.keys(fields).filter((key) => !known.has(key) && fields[key] !== undefined);
  if (unknown.length > 0) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${where} has no field ${unknown.map((key) => `"${key}"`).join(", ")}; its fields are: ${[...known].join(", ") || "(none)"}.`,
    );
  }
  const missing = [
    ...operation.parameters
      .filter((parameter) => parameter.required)
      .map((parameter) => parameter.key),
    ...(operation.body?.required ? [operation.body.key] : []),
  ].filter((key) => fields[key] === undefined || fields[key] === null);
  if (missing.length > 0) {
    throw new CodemodeError(
      "INVALID_INPUT",
      `${where} needs ${missing.map((key) => `"${key}"`).join(", ")}.`,
    );
  }
  const request: PreparedRequest = {
    method: operation.method,
    path: operation.path,
    query: [],
    headers: {},
    cookies: [],
    body: undefined,
    bodyFields: [],
  };
  for (const parameter of operation.parameters) {
    const raw = fields[parameter.key];
    if (raw === undefined) continue;
    const value = parameter.json ? JSON.stringify(raw) : raw;
    switch (parameter.in) {
      case "path":
        request.path = request.path.replaceAll(
          `{${parameter.name}}`,
          simpleValue(parameter, value, encode),
        );
        break;
      case "query":
        formPairs(parameter.name, value, parameter.style, parameter.explode, request.query);
        break;
      case "header":
        request.headers[parameter.name.toLowerCase()] = simpleValue(
          parameter,
          value,
          (text) => text,
        );
        break;
      case "cookie":
        request.cookies.push(
          `${parameter.name}=${encode(simpleValue(parameter, value, (text) => text))}`,
        );
        break;
    }
  }
  const body = operation.body;
  if (body && fields[body.key] !== undefined) {
    request.body = encodeBody(body, fields[body.key], request.headers);
    request.bodyFields = bodyFieldsOf(fields[body.key]);
  }
  return request;
}
