import { CodemodeError } from "@codemode/core";
import { isObject } from "./openapi-document.ts";
import { utf8 } from "./platform.ts";

/** A secret, or a function that returns one when a request is made (a token that expires). */
export type Secret = string | (() => string | Promise<string>);

/**
 * How the host authenticates requests; applied after the sandbox's input, never shown to it. A request
 * carries only the credentials its operation's `security` asks for: `scheme` names the document's
 * security scheme a credential is for; without it, the credential serves every scheme it fits (a
 * bearer token: HTTP bearer, OAuth 2 and OpenID Connect; an API key: the scheme with its `in` and `name`).
 */
export type Credential =
  | { type: "bearer"; token: Secret; scheme?: string }
  | { type: "basic"; username: string; password: Secret; scheme?: string }
  | {
      type: "apiKey";
      in: "header" | "query" | "cookie";
      name: string;
      value: Secret;
      scheme?: string;
    };

/** Where credentials go in one request. */
export interface CredentialTarget {
  headers: Record<string, string>;
  query: string[];
  cookies: string[];
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function base64(text: string): string {
  const bytes = utf8(text);
  let out = "";
  for (let index = 0; index < bytes.length; index += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[index], bytes[index + 1], bytes[index + 2]];
    const triple = (a << 16) | (b << 8) | c;
    out += BASE64[(triple >> 18) & 63];
    out += BASE64[(triple >> 12) & 63];
    out += index + 1 < bytes.length ? BASE64[(triple >> 6) & 63] : "=";
    out += index + 2 < bytes.length ? BASE64[triple & 63] : "=";
  }
  return out;
}

/** What the credential is, for messages: never its secret. */
export function describeCredential(credential: Credential): string {
  const named = credential.scheme === undefined ? "" : ` for "${credential.scheme}"`;
  if (credential.type === "apiKey") {
    const place = credential.in === "query" ? "query parameter" : credential.in;
    return `an API key in the ${place} "${credential.name}"${named}`;
  }
  return `${credential.type === "bearer" ? "a bearer token" : "basic credentials"}${named}`;
}

/** The credentials option as a list, each one checked: a mistake is `INVALID_CONFIG` naming it. */
export function readCredentials(connector: string, value: unknown): Credential[] {
  if (value === undefined) return [];
  const list: unknown[] = Array.isArray(value) ? value : [value];
  list.forEach((credential, index) => {
    const problem = credentialProblem(credential);
    if (problem) {
      throw new CodemodeError(
        "INVALID_CONFIG",
        `openApiConnector "${connector}": credentials[${index}] ${problem}.`,
      );
    }
  });
  return list as Credential[];
}

function credentialProblem(value: unknown): string | undefined {
  if (!isObject(value)) return "must be an object";
  const secret = (field: string) =>
    typeof value[field] === "string" || typeof value[field] === "function"
      ? undefined
      : `needs ${field}: a string or a function that returns one`;
  if (value.scheme !== undefined && (typeof value.scheme !== "string" || value.scheme === "")) {
    return "has a scheme that is not a name";
  }
  switch (value.type) {
    case "bearer":
      return secret("token");
    case "basic":
      return typeof value.username === "string" ? secret("password") : "needs a username";
    case "apiKey":
      if (!["header", "query", "cookie"].includes(value.in as string)) {
        return 'needs in: "header", "query" or "cookie"';
      }
      return typeof value.name === "string" && value.name !== ""
        ? secret("value")
        : "needs the name of its header, query parameter or cookie";
    default:
      return 'has no known type ("bearer", "basic" or "apiKey")';
  }
}

/** The secrets written in the options (not those a function returns), for clearing messages. */
export function fixedSecrets(credentials: readonly Credential[]): string[] {
  const secrets: string[] = [];
  for (const credential of credentials) {
    const secret =
      credential.type === "bearer"
        ? credential.token
        : credential.type === "basic"
          ? credential.password
          : credential.value;
    if (typeof secret === "string" && secret.length > 0) secrets.push(secret);
  }
  return secrets;
}

async function reveal(secret: Secret): Promise<string> {
  return typeof secret === "function" ? await secret() : secret;
}

/**
 * Adds the credentials to a request and returns the secret strings used, so that what comes back
 * can be cleared of them.
 */
export async function applyCredentials(
  credentials: readonly Credential[],
  target: CredentialTarget,
): Promise<string[]> {
  const secrets: string[] = [];
  for (const credential of credentials) {
    switch (credential.type) {
      case "bearer": {
        const token = await reveal(credential.token);
        secrets.push(token);
        target.headers.authorization = `Bearer ${token}`;
        break;
      }
      case "basic": {
        const password = await reveal(credential.password);
        const encoded = base64(`${credential.username}:${password}`);
        // a server that echoes the header would show the encoded pair, not the password
        secrets.push(password, encoded);
        target.headers.authorization = `Basic ${encoded}`;
        break;
      }
      case "apiKey": {
        const value = await reveal(credential.value);
        secrets.push(value);
        if (credential.in === "header") target.headers[credential.name.toLowerCase()] = value;
        else if (credential.in === "query") {
          target.query.push(`${encodeURIComponent(credential.name)}=${encodeURIComponent(value)}`);
        } else {
          target.cookies.push(`${credential.name}=${encodeURIComponent(value)}`);
        }
        break;
      }
    }
  }
  return secrets.filter((secret) => secret.length > 0);
}
