// A value crossing the sandbox boundary of a journaled run is encoded once, not twice: the executor
// read a call's input from codec text the runtime would otherwise write again to record it, and the
// runtime wrote the codec text of a result the executor would otherwise write again to send it. The
// two sides hand each other the text while the host function is being called, so one slot each is
// enough (weak maps, tried first, made every call pay for their entries in garbage collection); a
// side that is not told encodes as before.

let noted: object | undefined;
let notedText: string | undefined;
let replied: object | undefined;
let repliedHolder: { text?: string } | undefined;

/**
 * Code that calls host functions with decoded values (an executor's host half) and the host functions
 * (the runtime's) share codec texts here, by identity of objects that are new for every call: the
 * input the executor decoded, and the promise the host function returned. Both hand-offs happen
 * synchronously around the call of the host function.
 */
export const knownEncodings = {
  /**
   * Calls `call` (the host function, with `input`) while `input` is known to have been decoded from
   * `text`; the slot is cleared when it returns, so no input outlives its call here.
   */
  withInput<T>(input: unknown, text: string, call: () => T): T {
    if (typeof input !== "object" || input === null) return call();
    noted = input;
    notedText = text;
    try {
      return call();
    } finally {
      noted = undefined;
      notedText = undefined;
    }
  },
  /** The text `input` was decoded from, once (a second take, or another object, gets undefined). */
  takeInput(input: unknown): string | undefined {
    if (noted === undefined || input !== noted) return undefined;
    const text = notedText;
    noted = undefined;
    notedText = undefined;
    return text;
  },
  /**
   * A host function's reply, as it returns it: once `reply` settles with a value, `holder.text`
   * (if set by then) is that value's codec text, as recorded.
   */
  noteReply(reply: Promise<unknown>, holder: { text?: string }): void {
    replied = reply;
    repliedHolder = holder;
  },
  /**
   * Right after the host function returned `reply`: the holder its text will be in (read it once
   * `reply` has settled), or undefined when the function noted none.
   */
  takeReply(reply: unknown): { text?: string } | undefined {
    if (replied === undefined || reply !== replied) return undefined;
    const holder = repliedHolder;
    replied = undefined;
    repliedHolder = undefined;
    return holder;
  },
};
