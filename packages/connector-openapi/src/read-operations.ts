import { CodemodeError } from "@codemode/core";
import { type JsonSchema, type JsonSchemaObject, toIdentifier } from "@codemode/typegen";
import {
  dereference,
  isObject,
  type JsonObject,
  type OpenApiDocument,
} from "./openapi-document.ts";
import type {
  BodySpec,
  EncodingSpec,
  OperationSpec,
  ParameterLocation,
  ParameterSpec,
} from "./operation-spec.ts";
import { readRequirements } from "./security.ts";

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const LOCATIONS: readonly ParameterLocation[] = ["path", "query", "header", "cookie"];
/** Headers OpenAPI 3 says are not parameters: the connector sets them itself. */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"]);
/** Swagger 2 parameter fields that are JSON Schema keywords. */
const SWAGGER2_SCHEMA_FIELDS = [
  "type",
  "format",
  "items",
  "enum",
  "default",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "multipleOf",
];
const COLLECTION_FORMATS: Record<string, { style: string; explode: boolean }> = {
  csv: { style: "form", explode: false },
  ssv: { style: "spaceDelimited", explode: false },
  tsv: { style: "tabDelimited", explode: false },
  pipes: { style: "pipeDelimited", explode: false },
  multi: { style: "form", explode: true },
};

interface RawParameter {
  name: string;
  in: string;
  node: JsonObject;
}

function text(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** The media type the connector sends or reads first: JSON, then forms, then whatever is listed first. */
export function pickMediaType(types: readonly string[]): string | undefined {
  const rank = (type: string) => {
    const bare = type.split(";")[0]?.trim().toLowerCase() ?? "";
    if (bare === "application/json") return 0;
    if (/[/+]json$/.test(bare)) return 1;
    if (bare === "application/x-www-form-urlencoded") return 2;
    if (bare === "multipart/form-data") return 3;
    return 4;
  };
  return [...types].sort((a, b) => rank(a) - rank(b))[0];
}

function withDescription(schema: unknown, description: string): JsonSchema {
  const base: JsonSchema = isObject(schema) ? (schema as JsonSchemaObject) : {};
  if (!description || (typeof base === "object" && text(base.description))) return base;
  // a `$ref` with siblings is read as "the reference, and these annotations"
  return { ...base, description };
}

/** Reads every operation of the document: parameters, body, output and documentation. */
export function readOperations(document: OpenApiDocument): OperationSpec[] {
  const root = document as unknown as JsonObject;
  const swagger2 = typeof root.swagger === "string";
  const paths = isObject(root.paths) ? root.paths : {};
  const operations: OperationSpec[] = [];
  const names = new Map<string, string>();
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = dereference(root, rawItem);
    if (!item) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const operationId = text(operation.operationId) || undefined;
      const name = toIdentifier(operationId ?? `${method} ${path}`);
      const previous = names.get(name);
      if (previous !== undefined) {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `Two operations would both be the method "${name}": ${previous} and ${where}. Give one of them a distinct operationId in the document.`,
        );
      }
      names.set(name, where);
      const raw = collectParameters(root, item.parameters, operation.parameters);
      const parameters = readParameters(
        raw.filter((parameter) => isLocation(parameter.in)),
        swagger2,
      );
      // fetch sends no body with GET or HEAD (Stripe's documents declare an empty one there)
      const body =
        method === "get" || method === "head"
          ? undefined
          : swagger2
            ? readSwagger2Body(root, raw, operation, parameters)
            : readBody(root, operation.requestBody, parameters);
      const properties: Record<string, JsonSchema> = {};
      const required: string[] = [];
      for (const parameter of parameters) {
        properties[parameter.key] = parameter.schema;
        if (parameter.required) required.push(parameter.key);
      }
      if (body) {
        properties[body.key] = body.schema ?? {};
        if (body.required) required.push(body.key);
      }
      const tags = Array.isArray(operation.tags)
        ? operation.tags.filter((tag): tag is string => typeof tag === "string")
        : [];
      const summary = text(operation.summary);
      const details = text(operation.description);
      const description = [
        operation.deprecated === true ? "Deprecated." : "",
        summary,
        details === summary ? "" : details,
      ]
        .filter(Boolean)
        .join("\n\n");
      operations.push({
        name,
        operationId,
        method: method.toUpperCase(),
        path,
        parameters,
        body,
        description: description || where,
        inputSchema: {
          type: "object",
          properties,
          ...(required.length > 0 ? { required } : {}),
        },
        outputSchema: readOutput(root, operation.responses, swagger2),
        tags,
        security: readRequirements(operation.security),
      });
    }
  }
  return operations;
}

function isLocation(value: string): value is ParameterLocation {
  return (LOCATIONS as readonly string[]).includes(value);
}

/** Path-level then operation-level parameters (`$ref`s resolved); the operation's win on name and location. */
function collectParameters(root: JsonObject, ...lists: unknown[]): RawParameter[] {
  const byKey = new Map<string, RawParameter>();
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const entry of list) {
      const node = dereference(root, entry);
      if (!node || typeof node.name !== "string" || typeof node.in !== "string") continue;
      byKey.set(`${node.in}:${node.name}`, { name: node.name, in: node.in, node });
    }
  }
  return [...byKey.values()];
}

function readParameters(raw: RawParameter[], swagger2: boolean): ParameterSpec[] {
  const taken = new Set<string>();
  const specs: ParameterSpec[] = [];
  const ordered = [...raw].sort(
    (a, b) =>
      LOCATIONS.indexOf(a.in as ParameterLocation) - LOCATIONS.indexOf(b.in as ParameterLocation),
  );
  for (const { name, in: location, node } of ordered) {
    if (location === "header" && IGNORED_HEADERS.has(name.toLowerCase())) continue;
    const key = taken.has(name) ? `${location}_${name}` : name;
    taken.add(key);
    const description = text(node.description);
    let schema: unknown = node.schema;
    let json = false;
    let style =
      typeof node.style === "string"
        ? node.style
        : location === "query" || location === "cookie"
          ? "form"
          : "simple";
    let explode = typeof node.explode === "boolean" ? node.explode : style === "form";
    if (swagger2) {
      const picked: JsonObject = {};
      for (const field of SWAGGER2_SCHEMA_FIELDS)
        if (node[field] !== undefined) picked[field] = node[field];
      schema = picked;
      const format =
        COLLECTION_FORMATS[
          typeof node.collectionFormat === "string" ? node.collectionFormat : "csv"
        ];
      if (format && node.type === "array") {
        style = location === "query" ? format.style : "simple";
        explode = format.explode;
      }
    } else if (schema === undefined && isObject(node.content)) {
      const type = pickMediaType(Object.keys(node.content));
      const media = type ? node.content[type] : undefined;
      schema = isObject(media) ? media.schema : undefined;
      json = true;
    }
    specs.push({
      key,
      name,
      in: location as ParameterLocation,
      required: location === "path" || node.required === true,
      schema: withDescription(schema, description),
      style,
      explode,
      json,
    });
  }
  return specs;
}

function bodyKey(parameters: ParameterSpec[]): string {
  return parameters.some((parameter) => parameter.key === "body") ? "requestBody" : "body";
}

function readBody(
  root: JsonObject,
  raw: unknown,
  parameters: ParameterSpec[],
): BodySpec | undefined {
  const body = dereference(root, raw);
  if (!body || !isObject(body.content)) return undefined;
  const contentType = pickMediaType(Object.keys(body.content));
  if (contentType === undefined) return undefined;
  const media = body.content[contentType];
  const encoding: Record<string, EncodingSpec> = {};
  if (isObject(media) && isObject(media.encoding)) {
    for (const [property, value] of Object.entries(media.encoding)) {
      if (!isObject(value)) continue;
      encoding[property] = {
        ...(typeof value.style === "string" ? { style: value.style } : {}),
        ...(typeof value.explode === "boolean" ? { explode: value.explode } : {}),
        ...(typeof value.contentType === "string" ? { contentType: value.contentType } : {}),
      };
    }
  }
  const schema =
    isObject(media) && media.schema !== undefined ? (media.schema as JsonSchema) : undefined;
  return {
    key: bodyKey(parameters),
    contentType,
    required: body.required === true,
    schema: schema === undefined ? undefined : withDescription(schema, text(body.description)),
    encoding,
  };
}

/** Swagger 2: an `in: body` parameter, or `in: formData` parameters gathered into one form body. */
function readSwagger2Body(
  root: JsonObject,
  raw: RawParameter[],
  operation: JsonObject,
  parameters: ParameterSpec[],
): BodySpec | undefined {
  const consumes = [
    ...(Array.isArray(operation.consumes) ? operation.consumes : []),
    ...(Array.isArray(root.consumes) ? root.consumes : []),
  ].filter((type): type is string => typeof type === "string");
  const key = bodyKey(parameters);
  const body = raw.find((parameter) => parameter.in === "body");
  if (body) {
    return {
      key,
      contentType:
        pickMediaType(consumes.filter((type) => !/form/.test(type))) ?? "application/json",
      required: body.node.required === true,
      schema: withDescription(body.node.schema, text(body.node.description)),
      encoding: {},
    };
  }
  const fields = raw.filter((parameter) => parameter.in === "formData");
  if (fields.length === 0) return undefined;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  let file = false;
  for (const field of fields) {
    const schema: JsonObject = {};
    for (const name of SWAGGER2_SCHEMA_FIELDS)
      if (field.node[name] !== undefined) schema[name] = field.node[name];
    if (field.node.type === "file") {
      file = true;
      schema.type = "string";
      schema.format = "binary";
    }
    properties[field.name] = withDescription(schema, text(field.node.description));
    if (field.node.required === true) required.push(field.name);
  }
  return {
    key,
    contentType:
      file || consumes.includes("multipart/form-data")
        ? "multipart/form-data"
        : "application/x-www-form-urlencoded",
    required: required.length > 0,
    schema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
    encoding: {},
  };
}

/** The schema of what a call resolves to: the 2xx responses' bodies (`null` for 204 and 205). */
function readOutput(root: JsonObject, raw: unknown, swagger2: boolean): JsonSchema | undefined {
  if (!isObject(raw)) return undefined;
  const schemas: JsonSchema[] = [];
  const seen = new Set<string>();
  let empty = false;
  const statuses = Object.keys(raw)
    .filter((status) => /^2(\d\d|XX)$/i.test(status))
    .sort();
  for (const status of statuses) {
    const response = dereference(root, raw[status]);
    if (!response) continue;
    let schema: unknown;
    if (swagger2) schema = response.schema;
    else if (isObject(response.content)) {
      const type = pickMediaType(Object.keys(response.content));
      const media = type ? response.content[type] : undefined;
      schema = isObject(media) ? (media.schema ?? {}) : undefined;
    }
    if (schema === undefined) {
      // 204 and 205 have no body; another status without a declared one may still send something
      if (status === "204" || status === "205") empty = true;
      else schema = {};
    }
    if (schema === undefined) continue;
    const key = JSON.stringify(schema);
    if (seen.has(key)) continue;
    seen.add(key);
    schemas.push(schema as JsonSchema);
  }
  if (empty) schemas.push({ type: "null" });
  if (schemas.length === 0) return undefined;
  return schemas.length === 1 ? schemas[0] : { anyOf: schemas };
}
