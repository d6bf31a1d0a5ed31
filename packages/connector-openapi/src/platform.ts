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

/** What the connector sends: the platform's `fetch` accepts it. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | BlobLike | FormDataLike;
  signal?: AbortSignalLike;
}

/** The part of a `Response` the connector reads. */
export interface ResponseLike {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A `fetch`: the platform's, or one the application injects (a Worker binding, a test server). */
export type FetchLike = (url: string, init: FetchInit) => Promise<ResponseLike>;

declare const FormData: { new (): FormDataLike };
declare const Blob: { new (parts: Uint8Array[]): BlobLike; prototype: BlobLike };
interface UrlLike {
  readonly href: string;
  readonly protocol: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
}

declare const URL: { new (url: string, base?: string): UrlLike };
declare const TextEncoder: { new (): { encode(text: string): Uint8Array } };

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

/** The platform's `fetch`, read when a call is made (so a test may replace it). */
export function platformFetch(): FetchLike | undefined {
  const fetch = (globalThis as unknown as { fetch?: FetchLike }).fetch;
  return typeof fetch === "function" ? (url, init) => fetch(url, init) : undefined;
}
