import {
  type ApprovalRule,
  type CallContext,
  CodemodeError,
  type Connector,
  type ConnectorMethod,
} from "@codemode/core";
import { buildRequest, type PreparedRequest } from "./build-request.ts";
import { applyCredentials, type Credential, redact } from "./credentials.ts";
import { HttpError } from "./http-error.ts";
import { loadDocument } from "./load-document.ts";
import { isObject, type JsonObject, type OpenApiDocument } from "./openapi-document.ts";
import type { OperationSpec } from "./operation-spec.ts";
import { type FetchLike, platformFetch } from "./platform.ts";
import {
  buildRawRequest,
  READ_METHODS,
  REQUEST_SCHEMA,
  requestNeedsApproval,
} from "./raw-request.ts";
import { readOperations } from "./read-operations.ts";
import { readResponse } from "./read-response.ts";

/** An operation as the approval policy and `include` see it. */
export interface OperationInfo {
  /** the method's name in the connector */
  name: string;
  operationId: string | undefined;
  /** upper case */
  method: string;
  path: string;
  tags: readonly string[];
}

/** What a `revert` function can do: call the API with the connector's credentials. */
export interface OpenApiClient {
  /** calls an operation (or `request` / `request_write`) by its method name */
  call(method: string, input?: unknown): Promise<unknown>;
  /** the call context of the rollback (its idempotency key ends in `:revert`) */
  context: CallContext;
}

/** Options for one operation, by its method name or its `operationId`. */
export interface OperationOptions {
  /** overrides the connector's approval policy for this operation; a function decides per call */
  requiresApproval?: boolean | ApprovalRule;
  /**
   * Undoes an applied call on rollback, e.g. a DELETE built from what a POST returned. A promise it
   * returns is awaited; its value is ignored.
   */
  // biome-ignore lint/suspicious/noExplicitAny: the input and result are the operation's, untyped here
  revert?: (input: any, result: any, client: OpenApiClient) => unknown;
  /** the call fails with a catchable error after this long */
  timeoutMs?: number;
}

export interface OpenApiConnectorOptions {
  /** the sandbox global */
  name: string;
  /** the description: an object, or a URL (or a path where the platform has a file system) */
  document: OpenApiDocument | string;
  /** a line or two for the model; default: the document's title */
  instructions?: string;
  /** where requests go; default: the first of the document's `servers` (variables at their defaults) */
  baseUrl?: string;
  /** applied on the host to every request, never visible to the sandbox */
  credentials?: Credential | readonly Credential[];
  /** headers sent with every request (a `User-Agent`, an API version) */
  headers?: Record<string, string>;
  /** default: the platform's `fetch`, read at each call */
  fetch?: FetchLike;
  /** validate the document against the OpenAPI schema (default true; costs time on large documents) */
  validate?: boolean;
  /** let the document (and its `$ref`s) come from loopback and private addresses; default false */
  internalUrls?: boolean;
  /** which operations need approval; default: every method but GET, HEAD and OPTIONS */
  requiresApproval?: (operation: OperationInfo) => boolean;
  /** per-operation options, by method name or operationId */
  operations?: Record<string, OperationOptions>;
  /** which operations become methods (default: all) */
  include?: (operation: OperationInfo) => boolean;
  /** add the `request` method for undeclared calls (approval unless GET, HEAD or OPTIONS); default true */
  request?: boolean;
  /** the header that carries the call's idempotency key on non-GET requests; `false` sends none */
  idempotencyHeader?: string | false;
}

/** A connector over an OpenAPI document; `schemaRoot` is the document its schemas' `$ref`s point into. */
export interface OpenApiConnector extends Connector {
  /** the parsed document once `methods()` or a call has read it (local `$ref`s resolve against it) */
  readonly schemaRoot: OpenApiDocument | undefined;
  /** reads the document on first use */
  methods(): Promise<Record<string, ConnectorMethod>>;
}

interface Model {
  document: OpenApiDocument;
  baseUrl: string;
  methods: Record<string, ConnectorMethod>;
  operations: Map<string, OperationSpec>;
  reverts: Map<string, NonNullable<OperationOptions["revert"]>>;
}

const REQUEST = "request";
const SAFE_METHODS = new Set(READ_METHODS);

/** Operations read from a document, by document: connectors are made again for every request. */
const operationsByDocument = new WeakMap<object, OperationSpec[]>();

function operationsOf(document: OpenApiDocument): OperationSpec[] {
  let operations = operationsByDocument.get(document);
  if (!operations) {
    operations = readOperations(document);
    operationsByDocument.set(document, operations);
  }
  return operations;
}

/** The base URL from `servers` (OpenAPI 3) or `schemes`, `host` and `basePath` (Swagger 2). */
function serverUrl(document: OpenApiDocument): string | undefined {
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

function checkOptions(options: OpenApiConnectorOptions): void {
  if (typeof options?.name !== "string" || options.name.trim() === "") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      "openApiConnector needs a name: the sandbox global it becomes.",
    );
  }
  if (typeof options.document !== "string" && !isObject(options.document)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${options.name}" needs a document: an OpenAPI or Swagger object, a URL or a path.`,
    );
  }
  if (options.fetch !== undefined && typeof options.fetch !== "function") {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${options.name}": fetch must be a function.`,
    );
  }
  if (options.baseUrl !== undefined && !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.test(options.baseUrl)) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `openApiConnector "${options.name}": baseUrl must be an absolute URL, not "${options.baseUrl}".`,
    );
  }
}

/**
 * An OpenAPI 3.0/3.1 or Swagger 2.0 document's operations as a Code Mode namespace. Each operation is
 * a method whose input holds its path, query, header and cookie parameters and its body; credentials,
 * the base URL and `fetch` stay on the host. The document is read (parsed, validated, external `$ref`s
 * bundled) on the first `methods()` or call; configuration mistakes found then reject with
 * `INVALID_CONFIG`.
 */
export function openApiConnector(options: OpenApiConnectorOptions): OpenApiConnector {
  checkOptions(options);
  const connectorName = options.name;
  const credentials: readonly Credential[] =
    options.credentials === undefined
      ? []
      : Array.isArray(options.credentials)
        ? options.credentials
        : [options.credentials as Credential];
  const idempotencyHeader =
    options.idempotencyHeader === false
      ? undefined
      : (options.idempotencyHeader ?? "Idempotency-Key");
  const fixedHeaders = Object.fromEntries(
    Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
  );
  const escapeHatch = options.request !== false;
  let document: OpenApiDocument | undefined;
  let model: Promise<Model> | undefined;

  const build = async (): Promise<Model> => {
    document = await loadDocument(options.document, {
      validate: options.validate !== false,
      internalUrls: options.internalUrls === true,
    });
    const baseUrl = (options.baseUrl ?? serverUrl(document))?.replace(/\/+$/, "");
    if (baseUrl === undefined || !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+/i.test(baseUrl)) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `openApiConnector "${connectorName}" needs a baseUrl: the document names no absolute server URL${baseUrl ? ` ("${baseUrl}")` : ""}.`,
      );
    }
    const configured = new Map(Object.entries(options.operations ?? {}));
    const used = new Set<string>();
    const methods: Record<string, ConnectorMethod> = {};
    const operations = new Map<string, OperationSpec>();
    const reverts = new Map<string, NonNullable<OperationOptions["revert"]>>();
    for (const operation of operationsOf(document)) {
      const info: OperationInfo = {
        name: operation.name,
        operationId: operation.operationId,
        method: operation.method,
        path: operation.path,
        tags: operation.tags,
      };
      if (options.include && !options.include(info)) continue;
      if (escapeHatch && operation.name === REQUEST) {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `openApiConnector "${connectorName}": the operation ${operation.method} ${operation.path} is named "${operation.name}", like the escape hatch. Pass request: false, or leave the operation out with include.`,
        );
      }
      const key = configured.has(operation.name)
        ? operation.name
        : operation.operationId !== undefined && configured.has(operation.operationId)
          ? operation.operationId
          : undefined;
      const own = key === undefined ? {} : (configured.get(key) as OperationOptions);
      if (key !== undefined) used.add(key);
      const requiresApproval =
        own.requiresApproval ??
        (options.requiresApproval
          ? options.requiresApproval(info)
          : !SAFE_METHODS.has(operation.method));
      if (own.revert !== undefined && typeof own.revert !== "function") {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `openApiConnector "${connectorName}": the revert of "${operation.name}" must be a function.`,
        );
      }
      if (own.revert) reverts.set(operation.name, own.revert);
      operations.set(operation.name, operation);
      methods[operation.name] = {
        description: operation.description,
        inputSchema: operation.inputSchema,
        ...(operation.outputSchema !== undefined ? { outputSchema: operation.outputSchema } : {}),
        ...(requiresApproval ? { requiresApproval } : {}),
        replay: "record",
        ...(own.timeoutMs !== undefined ? { timeoutMs: own.timeoutMs } : {}),
        keywords: [
          operation.method,
          operation.path,
          ...(operation.operationId && operation.operationId !== operation.name
            ? [operation.operationId]
            : []),
          ...operation.tags,
        ],
        revertible: own.revert !== undefined,
      };
    }
    const unused = [...configured.keys()].filter((key) => !used.has(key));
    if (unused.length > 0) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `openApiConnector "${connectorName}": operations has options for ${unused.map((key) => `"${key}"`).join(", ")}, which the document does not have (use a method name or an operationId).`,
      );
    }
    if (escapeHatch) {
      methods[REQUEST] = {
        description: `Sends a request to any path of the API, for what no other method covers; ${READ_METHODS.join(", ")} run at once, other methods wait for approval. Resolves to the parsed response body.`,
        inputSchema: REQUEST_SCHEMA,
        requiresApproval: requestNeedsApproval,
        replay: "record",
        keywords: ["http", "request", "raw", "get", "post", "put", "patch", "delete"],
        revertible: false,
      };
    }
    return { document, baseUrl, methods, operations, reverts };
  };

  const load = (): Promise<Model> => {
    model ??= build().catch((error: unknown) => {
      model = undefined;
      throw error;
    });
    return model;
  };

  const send = async (
    base: string,
    request: PreparedRequest,
    context: CallContext,
    idempotencyKey: string,
  ): Promise<unknown> => {
    const fetch = options.fetch ?? platformFetch();
    if (!fetch) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `openApiConnector "${connectorName}": this platform has no fetch; pass one in the options.`,
      );
    }
    const headers: Record<string, string> = {
      accept: "application/json, */*;q=0.8",
      ...fixedHeaders,
      ...request.headers,
    };
    if (idempotencyHeader && request.method !== "GET" && !SAFE_METHODS.has(request.method)) {
      headers[idempotencyHeader.toLowerCase()] = idempotencyKey;
    }
    const target = { headers, query: [...request.query], cookies: [...request.cookies] };
    const secrets = await applyCredentials(credentials, target);
    if (target.cookies.length > 0) {
      headers.cookie = [headers.cookie, ...target.cookies].filter(Boolean).join("; ");
    }
    const separator = request.path.includes("?") ? "&" : "?";
    const url = `${base}${request.path}${target.query.length > 0 ? separator + target.query.join("&") : ""}`;
    const where = `${request.method} ${redact(request.path, secrets)}`;
    let response: Awaited<ReturnType<FetchLike>>;
    try {
      response = await fetch(url, {
        method: request.method,
        headers,
        ...(request.body !== undefined ? { body: request.body } : {}),
        signal: context.signal,
      });
    } catch (error) {
      if (context.signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new CodemodeError(
        "CONNECTOR_FAILED",
        redact(`${connectorName}: ${where} could not be sent: ${message}`, secrets),
        { cause: error },
      );
    }
    if (!response.ok) {
      let body = "";
      try {
        body = (await response.text()).slice(0, 4_000);
      } catch {
        // the status says enough
      }
      throw new HttpError({
        status: response.status,
        statusText: response.statusText,
        method: request.method,
        path: redact(request.path, secrets),
        body: redact(body, secrets),
      });
    }
    return readResponse(response);
  };

  const call = async (
    name: string,
    input: unknown,
    context: CallContext,
    idempotencyKey: string,
  ): Promise<unknown> => {
    const current = await load();
    const where = `${connectorName}.${name}`;
    if (escapeHatch && name === REQUEST) {
      return send(current.baseUrl, buildRawRequest(where, input), context, idempotencyKey);
    }
    const operation = Object.hasOwn(current.methods, name)
      ? current.operations.get(name)
      : undefined;
    if (!operation) {
      throw new CodemodeError(
        "UNKNOWN_METHOD",
        `Connector "${connectorName}" has no method "${name}".`,
      );
    }
    return send(
      current.baseUrl,
      buildRequest(connectorName, operation, input),
      context,
      idempotencyKey,
    );
  };

  return {
    specificationVersion: "v1",
    name: connectorName,
    get instructions() {
      if (options.instructions) return options.instructions;
      const info =
        document && isObject((document as unknown as JsonObject).info)
          ? ((document as unknown as JsonObject).info as JsonObject)
          : undefined;
      return typeof info?.title === "string" ? info.title : undefined;
    },
    get schemaRoot() {
      return document;
    },
    async methods() {
      return (await load()).methods;
    },
    invoke(name, input, context) {
      return call(name, input, context, context.idempotencyKey);
    },
    async revert(name, input, result, context) {
      const current = await load();
      const revert = current.reverts.get(name);
      if (!revert) return;
      let calls = 0;
      await revert(input, result, {
        context,
        call: (method, args) => {
          calls++;
          const key = calls === 1 ? context.idempotencyKey : `${context.idempotencyKey}:${calls}`;
          return call(method, args, context, key);
        },
      });
    },
  };
}
