// Code that runs INSIDE a sandbox (see sandbox-parts.ts): the calls the program makes in one turn,
// held until the turn's microtasks have run and then sent to the host together. The Dynamic Worker's
// and the iframe's harnesses paste it beside their own code (`sandboxSource`); it must stay
// self-contained (no imports, no references outside its body) and plain JavaScript once types are
// stripped. What it writes is the wire's `BatchedCall` or `NumberedCall` (sandbox-wire.ts).

/**
 * A call waiting to be sent: an object literal of the harness, whose properties are all its own.
 * `next` links the queue (null at its end); `id` is the call's number where the host's batches carry
 * one (`NumberedCall`), else unused.
 */
export interface QueuedCall {
  next: this | null;
  id: number;
  namespace: string;
  method: string;
  input: string;
}

/** What the harness does with the queue. */
export interface CallQueue<T extends QueuedCall> {
  /** Queues a call; the first of a turn has the queue sent once the turn's microtasks have run. */
  add(call: T): void;
  /** Sends every queued call now (a message that must reach the host after them is about to go). */
  flush(): void;
}

/**
 * The queue of one pass's calls. Once the turn's microtasks have run (`queueTask`), or at `flush`,
 * its calls go to the host in order through `send(head, size, batchText)`: consecutive calls
 * together while the batch's text stays within `maxBatchChars`, a larger call on its own. `size` is
 * how many calls from `head` on (through `next`) the batch holds; `batchText` is "" for a call alone
 * (the usual case, one call awaited at a time: no batch text is written), else JSON text of the
 * batch: an array of `BatchedCall`s, or of `NumberedCall`s when `numbered`. The host starts the
 * calls of a batch together, as calls made at once are in-process, so a `Promise.all` of gated calls
 * pauses with all of them waiting.
 *
 * No array is made and no property of a prototype is read or written: the queue is a list of the
 * harness's object literals and the batch is text, written with `quote` (`JSON.stringify`, taken
 * before the program ran), so no setter or getter a program put on a prototype is ever reached.
 */
export function sandboxCallQueue<T extends QueuedCall>(
  queueTask: (callback: () => void) => void,
  quote: (text: string) => string,
  maxBatchChars: number,
  numbered: boolean,
  send: (head: T, size: number, batchText: string) => void,
): CallQueue<T> {
  let first: T | null = null;
  let last: T | null = null;

  function entry(call: T): string {
    const named = `${quote(call.namespace)},${quote(call.method)},${quote(call.input)}`;
    return numbered ? `[${call.id},${named}]` : `[${named}]`;
  }

  function flush(): void {
    let call = first;
    first = null;
    last = null;
    while (call !== null) {
      const head: T = call;
      call = call.next;
      if (call === null) {
        send(head, 1, "");
        return;
      }
      let text = `[${entry(head)}`;
      let size = 1;
      while (call !== null) {
        const next = entry(call);
        if (text.length + next.length + 2 > maxBatchChars) break;
        text += `,${next}`;
        size++;
        call = call.next;
      }
      send(head, size, size === 1 ? "" : `${text}]`);
    }
  }

  function add(call: T): void {
    if (last === null) {
      first = call;
      queueTask(flush);
    } else last.next = call;
    last = call;
  }

  return { add, flush };
}
