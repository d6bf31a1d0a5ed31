// The `requestState` of an approval round (MCP 2026-07-28 multi-round-trip requests): what the person
// is asked about, sealed by the server, echoed by the client with the answers. It travels through the
// client, so it is checked whole (HMAC-SHA256) before anything in it is believed.
import { CodemodeError, type DecisionHandle, parseDecisionHandle } from "@codemode/core";

/**
 * What an approval round binds: the run, the calls the person is asked about (the decision handle:
 * seqs and digests of their exact inputs), the `codemode` call it belongs to (the digest of its
 * code) and, when the request was authenticated, who asked.
 */
export interface ApprovalState {
  version: 1;
  executionId: string;
  handle: DecisionHandle;
  /** SHA-256 of the `codemode` call's code: the retry must be the same call */
  code: string;
  /** the authenticated caller's client id, when the request had one */
  principal?: string;
  /** seconds since the epoch after which the state is refused */
  expires: number;
}

/** A key that seals approval states: at least 32 bytes, the same on every instance that resumes. */
export type ApprovalStateKey = string | Uint8Array;

/** the prefix of a Code Mode approval state (a server-wide `requestState.verify` hook passes these) */
export const APPROVAL_STATE_PREFIX = "codemode.1.";
/** how long a person has to answer before the state is refused (the run itself waits longer) */
export const APPROVAL_STATE_TTL_SECONDS = 24 * 60 * 60;
/** a state longer than this is refused unread */
const MAX_STATE_LENGTH = 200_000;
const MIN_KEY_BYTES = 32;

const encoder = new TextEncoder();

function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of `text`, or undefined unless `text` is exactly how `base64url` writes them: one text
 * per sealed value (no unused bits set in its last character, no padding), so an altered text never
 * opens as the value it was altered from.
 */
function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
    return base64url(bytes) === text ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** SHA-256 of `text`, in hex */
export async function sha256Text(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Seals and opens approval states and task ids with one HMAC-SHA256 key. */
export interface ApprovalStateCodec {
  seal(state: ApprovalState): Promise<string>;
  /** the state, or undefined when it is not one this key sealed, is malformed or has expired */
  open(sealed: unknown, now: number): Promise<ApprovalState | undefined>;
  /** any JSON value under its own prefix (a task's id) */
  sealValue(prefix: string, value: unknown): Promise<string>;
  /** the value `sealValue` sealed under `prefix` with this key, or undefined */
  openValue(prefix: string, sealed: unknown): Promise<unknown>;
}

export function approvalStateCodec(key: ApprovalStateKey | Promise<CryptoKey>): ApprovalStateCodec {
  const hmacKey = key instanceof Promise ? key : importKey(keyBytes(key));
  const sign = async (body: string) =>
    new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey, encoder.encode(body)));
  const sealValue = async (prefix: string, value: unknown) => {
    const body = base64url(encoder.encode(JSON.stringify(value)));
    // the prefix is signed too: a value sealed for one purpose does not open for another
    return `${prefix}${body}.${base64url(await sign(`${prefix}${body}`))}`;
  };
  const openValue = async (prefix: string, sealed: unknown): Promise<unknown> => {
    if (typeof sealed !== "string" || sealed.length > MAX_STATE_LENGTH) return undefined;
    if (!sealed.startsWith(prefix)) return undefined;
    const [body, mac, ...rest] = sealed.slice(prefix.length).split(".");
    const signature = mac === undefined ? undefined : fromBase64url(mac);
    if (body === undefined || !signature || rest.length > 0) return undefined;
    const valid = await crypto.subtle.verify(
      "HMAC",
      await hmacKey,
      signature as Uint8Array<ArrayBuffer>,
      encoder.encode(`${prefix}${body}`),
    );
    const bytes = valid ? fromBase64url(body) : undefined;
    if (!bytes) return undefined;
    try {
      return JSON.parse(new TextDecoder().decode(bytes)) as unknown;
    } catch {
      return undefined;
    }
  };
  return {
    sealValue,
    openValue,
    seal: (state) => sealValue(APPROVAL_STATE_PREFIX, state),
    async open(sealed, now) {
      const state = readState(await openValue(APPROVAL_STATE_PREFIX, sealed));
      return state && state.expires > now / 1000 ? state : undefined;
    },
  };
}

function readState(opened: unknown): ApprovalState | undefined {
  try {
    const value = opened as Partial<ApprovalState> | undefined;
    if (value?.version !== 1 || typeof value.executionId !== "string") return undefined;
    if (typeof value.code !== "string" || typeof value.expires !== "number") return undefined;
    if (value.principal !== undefined && typeof value.principal !== "string") return undefined;
    const handle = parseDecisionHandle(value.handle, value.executionId);
    return {
      version: 1,
      executionId: value.executionId,
      handle,
      code: value.code,
      expires: value.expires,
      ...(value.principal === undefined ? {} : { principal: value.principal }),
    };
  } catch {
    return undefined;
  }
}

/** the key's bytes; a key too short to seal anything is a configuration error, thrown at once */
function keyBytes(key: ApprovalStateKey): Uint8Array {
  const bytes = typeof key === "string" ? encoder.encode(key) : key;
  if (!(bytes instanceof Uint8Array) || bytes.byteLength < MIN_KEY_BYTES) {
    throw new CodemodeError(
      "INVALID_CONFIG",
      `codemode/mcp: approvalStateKey must be a string or bytes of at least ${MIN_KEY_BYTES} bytes (the same on every instance that serves the runtime).`,
    );
  }
  return bytes;
}

function importKey(bytes: Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    "raw",
    bytes as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

/** a key made for one process, for a runtime whose host gave none */
export function processKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]) as Promise<CryptoKey>;
}
