// Which credentials one request carries, as OpenAPI's `security` says: a list of alternatives (any
// one will do), each a set of schemes needed together; `{}` among them allows no credential at all.
import { CodemodeError } from "@codemode/core";
import { type Credential, describeCredential } from "./credentials.ts";
import {
  dereference,
  isObject,
  type JsonObject,
  type OpenApiDocument,
} from "./openapi-document.ts";

/** One security requirement object: the names of the schemes it needs together (scopes aside). */
export type SecurityRequirement = readonly string[];

/** A declared security scheme, as the connector can satisfy it. */
export type SecurityScheme =
  | { type: "bearer"; what: string }
  | { type: "basic"; what: string }
  | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string; what: string }
  | { type: "unsupported"; what: string };

/** The document's security: its schemes, its default requirements, whether it says anything. */
export interface DocumentSecurity {
  schemes: ReadonlyMap<string, SecurityScheme>;
  /** the top-level `security`; undefined when the document has none */
  defaults: readonly SecurityRequirement[] | undefined;
  /** false when no `security` appears anywhere: the document says nothing about authentication */
  declared: boolean;
}

/** What a request of one operation carries, or why it cannot be sent. */
export type CredentialChoice =
  | { credentials: readonly Credential[]; refusal?: undefined }
  | { refusal: string };

/** Alternatives and schemes a refusal lists before it says how many more there are. */
const LISTED = 10;

/** A `security` value as the scheme names of each alternative; undefined when it is not a list. */
export function readRequirements(value: unknown): SecurityRequirement[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isObject).map((requirement) => Object.keys(requirement));
}

function schemeOf(root: JsonObject, raw: unknown): SecurityScheme {
  const node = dereference(root, raw);
  const type = typeof node?.type === "string" ? node.type : "";
  if (type === "http" || type === "basic") {
    // Swagger 2 says `type: basic`; OpenAPI 3 says `type: http` with a case-insensitive scheme
    const scheme = type === "basic" ? "basic" : String(node?.scheme ?? "").toLowerCase();
    if (scheme === "bearer") return { type: "bearer", what: "an HTTP bearer token" };
    if (scheme === "basic") return { type: "basic", what: "HTTP basic credentials" };
    return { type: "unsupported", what: `HTTP "${scheme}" authentication, which is not supported` };
  }
  if (type === "oauth2") return { type: "bearer", what: "an OAuth 2 access token (bearer)" };
  if (type === "openIdConnect") return { type: "bearer", what: "an OpenID Connect token (bearer)" };
  if (type === "apiKey" && typeof node?.name === "string") {
    const where = node.in;
    if (where === "header" || where === "query" || where === "cookie") {
      const place = where === "query" ? "query parameter" : where;
      return {
        type: "apiKey",
        in: where,
        name: node.name,
        what: `an API key in the ${place} "${node.name}"`,
      };
    }
  }
  return {
    type: "unsupported",
    what: `"${type || "unknown"}" authentication, which is not supported`,
  };
}

/**
 * The schemes of `components.securitySchemes` (OpenAPI 3) or `securityDefinitions` (Swagger 2), the
 * top-level `security`, and whether the document or any of its operations declares `security`.
 */
export function readDocumentSecurity(
  document: OpenApiDocument,
  operations: readonly { security: readonly SecurityRequirement[] | undefined }[],
): DocumentSecurity {
  const root = document as unknown as JsonObject;
  const declaredSchemes = isObject(root.components)
    ? root.components.securitySchemes
    : root.securityDefinitions;
  const schemes = new Map<string, SecurityScheme>();
  if (isObject(declaredSchemes)) {
    for (const [name, raw] of Object.entries(declaredSchemes))
      schemes.set(name, schemeOf(root, raw));
  }
  const defaults = readRequirements(root.security);
  return {
    schemes,
    defaults,
    declared: defaults !== undefined || operations.some((operation) => operation.security),
  };
}

function fits(credential: Credential, scheme: SecurityScheme): boolean {
  if (scheme.type !== "apiKey") return credential.type === scheme.type;
  if (credential.type !== "apiKey" || credential.in !== scheme.in) return false;
  // header names are case-insensitive; query parameters and cookies are not
  return scheme.in === "header"
    ? credential.name.toLowerCase() === scheme.name.toLowerCase()
    : credential.name === scheme.name;
}

/**
 * Checks the credentials that name a scheme: the document must declare it, and the credential must
 * be what it takes (an API key for the same header, query parameter or cookie). `INVALID_CONFIG`.
 */
export function checkCredentialSchemes(
  connector: string,
  credentials: readonly Credential[],
  security: DocumentSecurity,
): void {
  for (const credential of credentials) {
    if (credential.scheme === undefined) continue;
    const scheme = security.schemes.get(credential.scheme);
    if (!scheme) {
      const known = [...security.schemes.keys()].map((name) => `"${name}"`).join(", ");
      throw new CodemodeError(
        "INVALID_CONFIG",
        `openApiConnector "${connector}": ${describeCredential(credential)} names a security scheme the document does not declare (it declares ${known || "none"}).`,
      );
    }
    if (!fits(credential, scheme)) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `openApiConnector "${connector}": ${describeCredential(credential)} does not fit that scheme, which takes ${scheme.what}.`,
      );
    }
  }
}

/** The credential for a scheme: the one that names it, else the first that fits it and names none. */
function credentialFor(
  name: string,
  scheme: SecurityScheme | undefined,
  credentials: readonly Credential[],
): Credential | undefined {
  const named = credentials.find((credential) => credential.scheme === name);
  if (named || !scheme) return named;
  return credentials.find(
    (credential) => credential.scheme === undefined && fits(credential, scheme),
  );
}

/** One credential for each scheme of a requirement (a credential counted once), or undefined. */
function satisfy(
  names: SecurityRequirement,
  security: DocumentSecurity,
  credentials: readonly Credential[],
): Credential[] | undefined {
  const chosen: Credential[] = [];
  for (const name of names) {
    const credential = credentialFor(name, security.schemes.get(name), credentials);
    if (!credential) return undefined;
    if (!chosen.includes(credential)) chosen.push(credential);
  }
  return chosen;
}

function listed<T>(items: readonly T[], show: (item: T) => string, separator: string): string {
  const shown = items.slice(0, LISTED).map(show).join(separator);
  return items.length > LISTED ? `${shown}${separator}${items.length - LISTED} more` : shown;
}

function refusal(
  where: string,
  requirements: readonly SecurityRequirement[],
  security: DocumentSecurity,
  credentials: readonly Credential[],
): string {
  const scheme = (name: string) =>
    `"${name}" (${security.schemes.get(name)?.what ?? "a scheme the document does not declare"})`;
  const alternatives = requirements.filter((requirement) => requirement.length > 0);
  const needs = listed(alternatives, (names) => listed(names, scheme, " and "), "; or ");
  const has = credentials.length > 0 ? listed(credentials, describeCredential, ", ") : "none";
  return `${where} was not sent: it needs ${needs}, and the connector has no credentials for ${alternatives.length === 1 ? "that" : "any of these"} (it has ${has}). The application must configure them.`;
}

/**
 * The credentials a request carries: the first alternative of the operation's `security` (else the
 * document's) that the configured credentials satisfy, whole; none for `security: []`, for no
 * requirement at all, or when only `{}` (anonymous) is satisfiable. A document that declares no
 * `security` anywhere says nothing about authentication: its requests carry every credential.
 * An operation that needs credentials the connector does not have gets a refusal to throw.
 */
export function chooseCredentials(
  where: string,
  requirements: readonly SecurityRequirement[] | undefined,
  security: DocumentSecurity,
  credentials: readonly Credential[],
): CredentialChoice {
  if (!security.declared) return { credentials };
  const alternatives = requirements ?? security.defaults ?? [];
  if (alternatives.length === 0) return { credentials: [] };
  let anonymous = false;
  for (const names of alternatives) {
    if (names.length === 0) {
      anonymous = true;
      continue;
    }
    const chosen = satisfy(names, security, credentials);
    if (chosen) return { credentials: chosen };
  }
  if (anonymous) return { credentials: [] };
  return { refusal: refusal(where, alternatives, security, credentials) };
}
