// A value crossing the sandbox boundary of a journaled run is encoded once, not twice: the executor
// read a call's input from codec text the runtime would otherwise write again to record it, and the
// runtime wrote the codec text of a result the executor would otherwise write again to send it. The
// two sides tell each other through these weak maps; a side that is not told encodes as before.

const inputTexts = new WeakMap<object, string>();
const replyTexts = new WeakMap<object, { text?: string }>();

/**
 * Code that hands values to host functions (an executor's host half) and code that receives them (the
 * runtime) share codec texts here, keyed by objects that are new for every call: the input the
 * executor decoded, and the promise the host function returned.
 */
export const knownEncodings = {
  /** The executor decoded `input` from `text` for one host call. */
  noteInput(input: unknown, text: string): void {
    if (typeof input === "object" && input !== null) inputTexts.set(input, text);
  },
  /** The text `input` was decoded from, once: a later call with the same object encodes it anew. */
  takeInput(input: unknown): string | undefined {
    if (typeof input !== "object" || input === null) return undefined;
    const text = inputTexts.get(input);
    if (text !== undefined) inputTexts.delete(input);
    return text;
  },
  /**
   * A host function's reply: once `reply` settles with a value, `holder.text` (if set by then) is
   * that value's codec text, as recorded.
   */
  noteReply(reply: Promise<unknown>, holder: { text?: string }): void {
    replyTexts.set(reply, holder);
  },
  /** The codec text of the value `reply` settled with, when the host function knew it. */
  takeReply(reply: unknown): string | undefined {
    if (typeof reply !== "object" || reply === null) return undefined;
    const holder = replyTexts.get(reply);
    if (holder) replyTexts.delete(reply);
    return holder?.text;
  },
};
