import {
  type ApprovalRule,
  type CallContext,
  CodemodeError,
  type Connector,
  type ConnectorMethod,
} from "@codemode/core";
import { addressPolicy } from "./address-policy.ts";
import { chooseBaseUrl } from "./base-url.ts";
import { buildRequest } from "./build-request.ts";
import { checkRequest } from "./check-request.ts";
import { type Credential, fixedSecrets, readCredentials } from "./credentials.ts";
import { HTTP_ERROR_NOTE } from "./http-error.ts";
import { loadDocument } from "./load-document.ts";
import { operationMatcher } from "./match-operation.ts";
import { isObject, type JsonObject, type OpenApiDocument } from "./openapi-document.ts";
import {
  credentialForm,
  credentialsForm,
  type ExcludedForm,
  type OperationNames,
  operationNames,
  type RequestForm,
  requestForm,
} from "./operation-name.ts";
import type { OperationSpec } from "./operation-spec.ts";
import {
  checkOptions,
  DEFAULT_LIMITS,
  type OpenApiConnectorOptions,
  type OperationInfo,
  type OperationOptions,
  type UntypedOperations,
} from "./options.ts";
import { platformFetch } from "./platform.ts";
import { READ_METHODS, REQUEST_SCHEMA } from "./raw-request.ts";
import { readOperations } from "./read-operations.ts";
import { Redactor } from "./redactor.ts";
import { requestUrl } from "./request-url.ts";
import {
  escapeHatchRule,
  type FindOperation,
  type RouteDecision,
  routeRequest,
} from "./route-request.ts";
import {
  type CredentialChoice,
  checkCredentialSchemes,
  chooseCredentials,
  type DocumentSecurity,
  readDocumentSecurity,
} from "./security.ts";
import { leavesBase, type SendSettings, sendRequest } from "./send-request.ts";

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
  /** the declared operation an escape-hatch request reaches, with what the options decide for it */
  find: FindOperation | undefined;
}

const REQUEST = "request";
const SAFE_METHODS = new Set(READ_METHODS);

type Matcher = (method: string, path: string) => OperationSpec | undefined;

interface EscapeHatch {
  find: FindOperation;
  rule: ApprovalRule;
}

/** What is read from a document once, by document: connectors are made again for every request. */
interface DocumentIndex {
  operations: OperationSpec[];
  /** the operation a path reaches as the document writes it (typed calls), made on first use */
  exact?: Matcher;
  /** the operation a path reaches as a lenient server reads it (the escape hatch), likewise */
  loose?: Matcher;
  /**
   * The escape hatch under each policy (a decision per operation, and whether undeclared reads
   * run): connectors made again with the same options share its rule, so their methods are equal.
   */
  hatches: Map<string, EscapeHatch>;
  /**
   * The operations the methods name, by what they depend on besides the document: the base URL,
   * which operations are offered, whether there is an escape hatch, and the credentials as
   * `credentialForm` describes them (what `chooseCredentials` reads). Hashing every form took
   * GitHub's document from about 30 ms to 150 ms a connector; the latest few are kept.
   */
  names: Map<string, Promise<OperationNames>>;
}

/** Sets of operation names a document keeps (a host with a base URL per tenant makes many). */
const NAMED_SETS = 8;

function operationNamesOf(
  index: DocumentIndex,
  key: string,
  name: () => Promise<OperationNames>,
): Promise<OperationNames> {
  let names = index.names.get(key);
  if (!names) {
    const made = name();
    names = made;
    index.names.set(key, made);
    made.catch(() => {
      if (index.names.get(key) === made) index.names.delete(key);
    });
    const oldest = index.names.keys().next().value;
    if (index.names.size > NAMED_SETS && oldest !== undefined) index.names.delete(oldest);
  }
  return names;
}

const indexByDocument = new WeakMap<object, DocumentIndex>();

function indexOf(document: OpenApiDocument): DocumentIndex {
  let index = indexByDocument.get(document);
  if (!index) {
    index = { operations: readOperations(document), hatches: new Map(), names: new Map() };
    indexByDocument.set(document, index);
  }
  return index;
}

/** The escape hatch for one policy: `decisions` holds one `RouteDecision` per operation, in order. */
function escapeHatchOf(
  index: DocumentIndex,
  decisions: string,
  undeclaredReadsRun: boolean,
): EscapeHatch {
  const key = `${decisions}${undeclaredReadsRun ? "+" : "-"}`;
  let hatch = index.hatches.get(key);
  if (!hatch) {
    index.loose ??= operationMatcher(index.operations, { loose: true });
    const loose = index.loose;
    const positions = new Map(index.operations.map((operation, position) => [operation, position]));
    const find: FindOperation = (method, path) => {
      // HEAD is a GET without the body: where the document declares no HEAD, the GET's policy holds
      const operation = loose(method, path) ?? (method === "HEAD" ? loose("GET", path) : undefined);
      if (!operation) return undefined;
      return { operation, decision: decisions[positions.get(operation) ?? -1] as RouteDecision };
    };
    hatch = { find, rule: escapeHatchRule(find, undeclaredReadsRun) };
    index.hatches.set(key, hatch);
  }
  return hatch;
}

function operationsOf(document: OpenApiDocument): OperationSpec[] {
  return indexOf(document).operations;
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
  const policy = addressPolicy(connectorName, options.internalUrls, options.lookup);
  const limits = { ...DEFAULT_LIMITS };
  for (const [name, value] of Object.entries(options.limits ?? {})) {
    if (value !== undefined) limits[name as keyof typeof limits] = value;
  }
  const escapeHatch = options.request !== false;
  const undeclaredReadsRun =
    isObject(options.request) && options.request.undeclaredReadsWithoutApproval === true;
  const redactor = new Redactor(fixedSecrets(credentials));
  let document: OpenApiDocument | undefined;
  let model: Promise<Model> | undefined;

  const build = async (): Promise<Model> => {
    const validate = options.validate !== false;
    document = await loadDocument(options.document, {
      validate,
      policy,
      maxBytes: limits.documentBytes,
      timeoutMs: limits.documentTimeoutMs,
      maxRedirects: limits.redirects,
      key: JSON.stringify([validate, options.internalUrls ?? false, limits]),
    });
    const base = chooseBaseUrl(connectorName, options, document);
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
    /** each offered operation's request form, by method name, and those `include` leaves out */
    const forms = new Map<string, RequestForm>();
    const excluded: ExcludedForm[] = [];
    let decisions = "";
    for (const operation of all) {
      const info: OperationInfo = {
        name: operation.name,
        operationId: operation.operationId,
        method: operation.method,
        path: operation.path,
        tags: operation.tags,
      };
      if (options.include && !options.include(info)) {
        decisions += "x";
        excluded.push({ method: operation.method, path: operation.path, offered: false });
        continue;
      }
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
      // as the typed method reads it: a falsy flag runs at once, a rule or true waits
      decisions += requiresApproval ? "g" : "f";
      const where = `${connectorName}.${operation.name}`;
      const choice = chooseCredentials(where, operation.security, security, credentials);
      choices.set(operation.name, choice);
      const form = requestForm(operation, credentialsForm(operation.security, security, choice));
      forms.set(operation.name, form);
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
    // a call is bound to the operation its method names (core runs a recorded call only while it
    // names the same one), so the document read for a later pass cannot send it elsewhere
    const names = await operationNamesOf(
      indexOf(document),
      JSON.stringify([base.url, decisions, escapeHatch, credentials.map(credentialForm)]),
      () =>
        operationNames(
          base.url,
          forms,
          excluded,
          escapeHatch
            ? credentialsForm(
                undefined,
                security,
                chooseCredentials(`${connectorName}.${REQUEST}`, undefined, security, credentials),
              )
            : undefined,
        ),
    );
    for (const [name, operation] of names.methods) {
      (methods[name] as ConnectorMethod).operation = operation;
    }
    const hatch = escapeHatch
      ? escapeHatchOf(indexOf(document), decisions, undeclaredReadsRun)
      : undefined;
    if (hatch) {
      methods[REQUEST] = {
        description: `Sends a request to a path of the API, for what no other method covers. A path the API declares follows that method's approval and credentials; any other path ${undeclaredReadsRun ? `runs at once for ${READ_METHODS.join(", ")} and waits for approval otherwise` : "waits for approval"}. Resolves to the parsed response body.`,
        inputSchema: REQUEST_SCHEMA,
        requiresApproval: hatch.rule,
        replay: "record",
        keywords: ["http", "request", "raw", "get", "post", "put", "patch", "delete"],
        revertible: false,
        operation: names.escapeHatch as string,
      };
    }
    const settings: SendSettings = {
      connector: connectorName,
      baseUrl: base.url,
      baseTrusted: base.trusted,
      egress: () => {
        const fetch = options.fetch ?? platformFetch();
        if (!fetch) {
          throw new CodemodeError(
            "INVALID_CONFIG",
            `openApiConnector "${connectorName}": this platform has no fetch; pass one in the options.`,
          );
        }
        return { fetch, policy, maxRedirects: limits.redirects };
      },
      headers: Object.fromEntries(
        Object.entries(options.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
      ),
      idempotencyHeader:
        options.idempotencyHeader === false
          ? undefined
          : (options.idempotencyHeader ?? "Idempotency-Key"),
      redactor,
      maxResponseBytes: limits.responseBytes,
    };
    return {
      document,
      settings,
      methods,
      operations,
      reverts,
      security,
      choices,
      find: hatch?.find,
    };
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
    if (current.find && name === REQUEST) {
      const route = routeRequest(where, input, current.find);
      if (route.kind === "invalid") throw route.error;
      if (route.kind === "excluded") {
        const { method, path } = route.operation;
        throw new CodemodeError(
          "INVALID_INPUT",
          `${where}: ${route.request.method} ${redactor.text(route.request.path)} is the operation ${method} ${path}, which this connector does not offer.`,
        );
      }
      // a declared path carries what its operation would; any other, the document's default
      const choice =
        route.kind === "operation"
          ? (current.choices.get(route.operation.name) as CredentialChoice)
          : chooseCredentials(where, undefined, current.security, credentials);
      return sendRequest(
        current.settings,
        route.request,
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
    checkRequest(where, request);
    const resolved = requestUrl(current.settings.baseUrl, request.path);
    if (!resolved) {
      throw leavesBase(connectorName, `${operation.method} ${redactor.text(request.path)}`);
    }
    const index = indexOf(current.document);
    index.exact ??= operationMatcher(index.operations);
    // the operation the server will see is found from the URL fetch sends, not from the text built
    const reached = index.exact(operation.method, resolved.sent);
    // (two operations on one template, which OpenAPI forbids, are left to the server)
    if (reached === undefined || (reached !== operation && reached.path !== operation.path)) {
      // a parameter spelled another operation's path ("export" in /tasks/{taskId}), or was empty
      throw new CodemodeError(
        "INVALID_INPUT",
        `${where}: its path parameters make the path ${JSON.stringify(redactor.text(resolved.sent).slice(0, 200))}, which ${reached ? `is the operation ${reached.method} ${reached.path}; call its own method` : `is not ${operation.path} (is a parameter empty?)`}.`,
      );
    }
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
