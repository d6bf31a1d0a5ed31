import type { ResponseLike } from "./platform.ts";

/** How much of a body to read, and what happens past that. */
export interface BodyLimit {
  /** bytes */
  limit: number;
  /** past the limit: keep the first `limit` bytes (error excerpts); otherwise throw `tooLarge()` */
  truncate?: boolean;
  tooLarge: (limit: number) => Error;
}

function concat(chunks: readonly Uint8Array[], total: number): Uint8Array {
  const only = chunks.length === 1 ? (chunks[0] as Uint8Array) : undefined;
  // a chunk may be a view into a larger (pooled) buffer: the caller gets bytes of its own
  if (only && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength) return only;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * A response's body as bytes, read as a stream and stopped at the limit: the rest is never
 * received (the stream is cancelled), so a body of any size costs at most the limit. A declared
 * `Content-Length` past the limit fails before anything is read. A response without a stream (an
 * injected `fetch` may hand one back) is read whole, then held to the same limit.
 */
export async function readBody(response: ResponseLike, { limit, truncate, tooLarge }: BodyLimit) {
  const reader = response.body?.getReader();
  if (!reader) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length <= limit) return bytes;
    if (truncate) return bytes.subarray(0, limit);
    throw tooLarge(limit);
  }
  const stop = () => reader.cancel().catch(() => undefined);
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (!truncate && declared > limit) {
    await stop();
    throw tooLarge(limit);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!value || value.length === 0) continue;
      if (total + value.length > limit) {
        await stop();
        if (!truncate) throw tooLarge(limit);
        chunks.push(value.subarray(0, limit - total));
        total = limit;
        break;
      }
      chunks.push(value);
      total += value.length;
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return concat(chunks, total);
}

/** Releases a body that will not be read (a redirect's, a 204's), so its connection is freed. */
export async function discardBody(response: ResponseLike): Promise<void> {
  try {
    await response.body?.getReader().cancel();
  } catch {
    // nothing to release
  }
}
