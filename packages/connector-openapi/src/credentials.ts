import { utf8 } from "./platform.ts";

/** A secret, or a function that returns one when a request is made (a token that expires). */
export type Secret = string | (() => string | Promise<string>);

/** How the host authenticates requests; applied after the sandbox's input, never shown to it. */
export type Credential =
  | { type: "bearer"; token: Secret }
  | { type: "basic"; username: string; password: Secret }
  | { type: "apiKey"; in: "header" | "query" | "cookie"; name: string; value: Secret };

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

async function reveal(secret: Secret): Promise<string> {
  return typeof secret === "function" ? await secret() : secret;
}

/**
 * Adds the credentials to a request and returns the secret strings used, so that an error message
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
        secrets.push(password);
        target.headers.authorization = `Basic ${base64(`${credential.username}:${password}`)}`;
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

/** `text` with every secret replaced by `[redacted]`. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out;
}
