/** Console lines of one pass, bounded by count and characters; what does not fit is counted. */
export class LogSink {
  readonly #lines: string[] = [];
  #chars = 0;
  #dropped = 0;
  readonly #maxLines: number;
  readonly #maxChars: number;

  constructor(maxLines: number, maxChars: number) {
    this.#maxLines = maxLines;
    this.#maxChars = maxChars;
  }

  /** whether a line added now would only be counted (the lines or characters are all taken) */
  get full(): boolean {
    return (
      this.#dropped > 0 || this.#lines.length >= this.#maxLines || this.#chars >= this.#maxChars
    );
  }

  add(line: string): void {
    if (this.full) {
      this.#dropped++;
      return;
    }
    const room = this.#maxChars - this.#chars;
    const text = line.length > room ? `${line.slice(0, room)}…` : line;
    this.#lines.push(text);
    this.#chars += text.length;
  }

  /** counts lines the sandbox dropped before they reached the host */
  drop(count: number): void {
    if (Number.isSafeInteger(count) && count > 0) this.#dropped += count;
  }

  snapshot(): string[] {
    if (this.#dropped === 0) return [...this.#lines];
    const noun = this.#dropped === 1 ? "line" : "lines";
    return [...this.#lines, `… ${this.#dropped} more ${noun} dropped`];
  }
}
