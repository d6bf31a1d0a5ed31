// The platform globals this package uses, typed by hand: it compiles without Node, DOM or Workers
// types, and every runtime it targets (Workers, Node 20+, browsers) has these.
import type { AbortSignalLike } from "@codemode/core";

/** The part of a `Blob` the connector uses (multipart file fields). */
export interface BlobLike {
  readonly size: number;
  readonly type: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** The part of `FormData` the connector uses. */
export interface FormDataLike {
  append(name: string, value: string | BlobLike): void;
}

/**
 * What the connector sends: the platform's `fetch` accepts it. `redirect` is always "manual": the
 * connector follows redirects itself, and a `fetch` the application injects must not follow them.
 */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | BlobLike | FormDataLike;
  signal?: AbortSignalLike;
  redirect: "manual";
}

/** The part of a body stream's reader the connector uses. */
export interface BodyReaderLike {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(reason?: unknown): Promise<void>;
}

/** The part of a `Response` the connector reads. */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  /** "opaqueredirect" where the platform hides a redirect (browsers) */
  readonly type?: string;
  /** read as a stream, so a limit stops it early; without one the body is read whole */
  readonly body?: { getReader(): BodyReaderLike } | null;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A `fetch`: the platform's, or one the application injects (a Worker binding, a test server). */
export type FetchLike = (url: string, init: FetchInit) => Promise<ResponseLike>;

declare const FormData: { new (): FormDataLike };
declare const Blob: { new (parts: Uint8Array[]): BlobLike; prototype: BlobLike };
/** The parts of a parsed URL the connector reads. */
export interface UrlLike {
  readonly href: string;
  readonly origin: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  /** `?` and the query, or "" */
  readonly search: string;
  /** `#` and the fragment, or "" */
  readonly hash: string;
}

/** Resolves a host name to the addresses it stands for (IPv4 and IPv6 text). */
export type Lookup = (hostname: string) => Promise<readonly string[]>;

interface AbortControllerLike {
  readonly signal: AbortSignalLike;
  abort(reason?: unknown): void;
}

declare const URL: { new (url: string, base?: string): UrlLike };
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };
declare const TextDecoder: { new (): { decode(bytes: Uint8Array): string } };
declare const AbortController: { new (): AbortControllerLike };
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(handle: unknown): void;

export function createFormData(): FormDataLike {
  return new FormData();
}

export function blobOf(bytes: Uint8Array): BlobLike {
  return new Blob([bytes]);
}

export function isBlob(value: unknown): value is BlobLike {
  return typeof Blob !== "undefined" && value instanceof Blob;
}

/** The parts of a URL, or undefined when it does not parse. */
export function parseUrl(url: string, base?: string): UrlLike | undefined {
  try {
    return new URL(url, base);
  } catch {
    return undefined;
  }
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** UTF-8 bytes as text (malformed sequences become U+FFFD, a leading BOM is dropped). */
export function fromUtf8(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}

/** A signal that fires with `reason()` after `ms`; `done` releases the timer. */
export function deadline(
  ms: number,
  reason: () => Error,
): { signal: AbortSignalLike; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(reason()), ms);
  return { signal: controller.signal, done: () => clearTimeout(timer) };
}

let nodeLookup: Promise<Lookup | undefined> | undefined;

/**
 * The platform's name resolution where it has one the connector can reach (Node, through
 * `node:dns`); undefined in Workers and browsers, where the platform's `fetch` alone decides.
 */
export function platformLookup(): Promise<Lookup | undefined> {
  nodeLookup ??= loadNodeLookup();
  return nodeLookup;
}

interface NodeDns {
  promises: {
    lookup(
      hostname: string,
      options: { all: true; verbatim: true },
    ): Promise<Array<{ address: string }>>;
  };
}

async function loadNodeLookup(): Promise<Lookup | undefined> {
  const platform = globalThis as {
    process?: { versions?: { node?: unknown } };
    navigator?: { userAgent?: unknown };
  };
  // workerd with nodejs_compat has node:dns too, but it resolves over the network, and the
  // platform's fetch decides where a Worker may connect
  if (platform.navigator?.userAgent === "Cloudflare-Workers") return undefined;
  if (typeof platform.process?.versions?.node !== "string") return undefined;
  try {
    const specifier = "node:dns";
    const dns = (await import(/* @vite-ignore */ specifier)) as NodeDns;
    return async (hostname) =>
      (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map(
        (entry) => entry.address,
      );
  } catch {
    return undefined;
  }
}

/** The platform's `fetch`, read when a call is made (so a test may replace it). */
export function platformFetch(): FetchLike | undefined {
  const fetch = (globalThis as unknown as { fetch?: FetchLike }).fetch;
  return typeof fetch === "function" ? (url, init) => fetch(url, init) : undefined;
}
