import {
  type CallContext,
  CodemodeError,
  type Connector,
  type ConnectorMethod,
} from "@codemode/core";
import { buildRequest } from "./build-request.ts";
import { type Credential, fixedSecrets, readCredentials } from "./credentials.ts";
import { HTTP_ERROR_NOTE } from "./http-error.ts";
import { loadDocument } from "./load-document.ts";
import { operationMatcher } from "./match-operation.ts";
import { isObject, type JsonObject, type OpenApiDocument } from "./openapi-document.ts";
import type { OperationSpec } from "./operation-spec.ts";
import {
  checkOptions,
  isAbsoluteUrl,
  type OpenApiConnectorOptions,
  type OperationInfo,
  type OperationOptions,
  type UntypedOperations,
} from "./options.ts";
import {
  buildRawRequest,
  READ_METHODS,
  REQUEST_SCHEMA,
  requestNeedsApproval,
} from "./raw-request.ts";
import { readOperations } from "./read-operations.ts";
import {
  type CredentialChoice,
  checkCredentialSchemes,
  chooseCredentials,
  type DocumentSecurity,
  readDocumentSecurity,
} from "./security.ts";
import { type SendSettings, sendRequest } from "./send-request.ts";
import { serverUrl } from "./server-url.ts";

/** A connector over an OpenAPI document; `schemaRoot` is the document its schemas' `$ref`s point into. */
export interface OpenApiConnector extends Connector {
  /** the parsed document once `methods()` or a call has read it (local `$ref`s resolve against it) */
  readonly schemaRoot: OpenApiDocument | undefined;
  /** reads the document on first use */
  methods(): Promise<Record<string, ConnectorMethod>>;
}

type Revert = (input: unknown, result: unknown, client: UntypedClient) => unknown;
interface UntypedClient {
  call(method: string, input?: unknown): Promise<unknown>;
  context: CallContext;
}

interface Model {
  document: OpenApiDocument;
  settings: SendSettings;
  methods: Record<string, ConnectorMethod>;
  operations: Map<string, OperationSpec>;
  reverts: Map<string, Revert>;
  security: DocumentSecurity;
  /** what each operation's requests carry, by method name */
  choices: Map<string, CredentialChoice>;
  /** the declared operation an escape-hatch request reaches, made on its first use */
  matcher?: (method: string, path: string) => OperationSpec | undefined;
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

/**
 * An OpenAPI 3.0/3.1 or Swagger 2.0 document's operations as a Code Mode namespace. Each operation is
 * a method whose input holds its path, query, header and cookie parameters and its body; credentials,
 * the base URL and `fetch` stay on the host, and each request carries only the credentials its
 * operation's `security` asks for. The document is read (parsed, validated, external `$ref`s bundled)
 * on the first `methods()` or call; configuration mistakes found then reject with `INVALID_CONFIG`.
 * `Operations` types what `revert` and its client see.
 */
export function openApiConnector<Operations extends object = UntypedOperations>(
  options: OpenApiConnectorOptions<NoInfer<Operations>>,
): OpenApiConnector {
  checkOptions(options as OpenApiConnectorOptions);
  const connectorName = options.name;
  const credentials: readonly Credential[] = readCredentials(connectorName, options.credentials);
  const escapeHatch = options.request !== false;
  let document: OpenApiDocument | undefined;
  let model: Promise<Model> | undefined;

  const build = async (): Promise<Model> => {
    document = await loadDocument(options.document, {
      validate: options.validate !== false,
      internalUrls: options.internalUrls === true,
    });
    const baseUrl = (options.baseUrl ?? serverUrl(document))?.replace(/\/+$/, "");
    if (baseUrl === undefined || !isAbsoluteUrl(baseUrl)) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `openApiConnector "${connectorName}" needs a baseUrl: the document names no absolute server URL${baseUrl ? ` ("${baseUrl}")` : ""}.`,
      );
    }
    const all = operationsOf(document);
    const security = readDocumentSecurity(document, all);
    checkCredentialSchemes(connectorName, credentials, security);
    const configured = new Map<string, OperationOptions>(
      Object.entries((options.operations ?? {}) as Record<string, OperationOptions>),
    );
    const used = new Set<string>();
    const methods: Record<string, ConnectorMethod> = {};
    const operations = new Map<string, OperationSpec>();
    const reverts = new Map<string, Revert>();
    const choices = new Map<string, CredentialChoice>();
    for (const operation of all) {
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
      if (own.revert) reverts.set(operation.name, own.revert as Revert);
      operations.set(operation.name, operation);
      const where = `${connectorName}.${operation.name}`;
      choices.set(
        operation.name,
        chooseCredentials(where, operation.security, security, credentials),
      );
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
    const settings: SendSettings = {
      connector: connectorName,
      baseUrl,
      fetch: options.fetch,
      headers: Object.fromEntries(
        Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
      ),
      idempotencyHeader:
        options.idempotencyHeader === false
          ? undefined
          : (options.idempotencyHeader ?? "Idempotency-Key"),
      secrets: fixedSecrets(credentials),
    };
    return { document, settings, methods, operations, reverts, security, choices };
  };

  const load = (): Promise<Model> => {
    model ??= build().catch((error: unknown) => {
      model = undefined;
      throw error;
    });
    return model;
  };

  /** The credentials a request carries, or the error that says why it is not sent. */
  const credentialsFor = (choice: CredentialChoice): readonly Credential[] => {
    if (choice.refusal !== undefined) throw new CodemodeError("INVALID_CONFIG", choice.refusal);
    return choice.credentials;
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
      const request = buildRawRequest(where, input);
      current.matcher ??= operationMatcher(operationsOf(current.document));
      // a declared path carries what its operation would; any other, the document's default
      const reached = current.matcher(request.method, request.path);
      const choice = chooseCredentials(
        reached ? `${where} (${reached.method} ${reached.path})` : where,
        reached?.security,
        current.security,
        credentials,
      );
      return sendRequest(
        current.settings,
        request,
        credentialsFor(choice),
        context,
        idempotencyKey,
      );
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
    const request = buildRequest(connectorName, operation, input);
    const choice = current.choices.get(name) as CredentialChoice;
    return sendRequest(current.settings, request, credentialsFor(choice), context, idempotencyKey);
  };

  return {
    specificationVersion: "v1",
    name: connectorName,
    get instructions() {
      const info =
        document && isObject((document as unknown as JsonObject).info)
          ? ((document as unknown as JsonObject).info as JsonObject)
          : undefined;
      const title = typeof info?.title === "string" ? info.title.trim() : "";
      const lead = options.instructions?.trim() || title;
      return lead ? `${lead}\n${HTTP_ERROR_NOTE}` : HTTP_ERROR_NOTE;
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
