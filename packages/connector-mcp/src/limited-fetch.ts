// What an MCP server sends over Streamable HTTP is read under a limit: a JSON body whole, an event
// stream one event at a time (a stream may stay open for hours; each message on it is bounded).
import type { FetchLike } from "@modelcontextprotocol/client";

/**
 * The most bytes of one message from an MCP server over HTTP, by default: 32 MiB (a listing of a
 * thousand tools with long descriptions fits; the SDK's stdio transport stops a line at 10 MiB).
 */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

// the platform globals used here, typed by hand: the package compiles without DOM or Node types
interface BodyLike {
  pipeThrough(transform: unknown): BodyLike;
}
interface ResponseLike {
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  readonly body: BodyLike | null;
}
interface TransformControllerLike {
  enqueue(chunk: Uint8Array): void;
  error(reason: unknown): void;
}
declare const fetch: FetchLike;
declare const Response: new (
  body: BodyLike,
  init: { status: number; statusText: string; headers: unknown },
) => ResponseLike;
declare const TransformStream: new (transformer: {
  transform(chunk: Uint8Array, controller: TransformControllerLike): void;
}) => unknown;

/**
 * `fetch` (the platform's when none is given), with every response body cut off by an error once
 * one message passes `maxBytes`: the whole body, or for `text/event-stream` the bytes since the
 * last blank line (the end of an event). Counting is one pass over the bytes as they arrive;
 * nothing is buffered here.
 */
export function limitedFetch(fetchImpl: FetchLike | undefined, maxBytes: number): FetchLike {
  const limited = async (...[url, init]: Parameters<FetchLike>): Promise<ResponseLike> => {
    const response = (await (fetchImpl ?? fetch)(url, init)) as unknown as ResponseLike;
    if (response.body === null) return response;
    const events = (response.headers.get("content-type") ?? "").includes("text/event-stream");
    const body = response.body.pipeThrough(messageLimit(maxBytes, events));
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  // the platform's Response, as the SDK's FetchLike types it
  return limited as unknown as FetchLike;
}

/** Counts the bytes of the current message; for an event stream a blank line starts a new one. */
function messageLimit(maxBytes: number, events: boolean): unknown {
  let size = 0;
  // the line terminators seen since the last other byte: two end an event ("\n\n", "\r\r",
  // "\r\n\r\n"; the "\n" of a "\r\n" pair is not counted again)
  let ends = 0;
  let lastCr = false;
  const tooLarge = () =>
    new Error(
      `The MCP server sent a message of more than ${maxBytes} bytes (maxMessageBytes); it was not read.`,
    );
  return new TransformStream({
    transform(chunk: Uint8Array, controller: TransformControllerLike) {
      if (!events) {
        size += chunk.byteLength;
        if (size > maxBytes) return controller.error(tooLarge());
        return controller.enqueue(chunk);
      }
      for (const byte of chunk) {
        if (byte === LF && lastCr) {
          lastCr = false;
          continue;
        }
        lastCr = byte === CR;
        if (byte !== LF && byte !== CR) {
          ends = 0;
          // checked as it grows: a blank line later in this chunk must not hide an event too large
          if (++size > maxBytes) return controller.error(tooLarge());
        } else if (++ends === 2) {
          size = 0;
          ends = 0;
        }
      }
      controller.enqueue(chunk);
    },
  });
}
