/** The middle value (the upper one of an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median() of no values");
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** `ours / theirs` printed to two decimals, or "–" when either is missing. */
export function ratio(ours: number | undefined, theirs: number | undefined): string {
  if (ours === undefined || theirs === undefined || theirs === 0) return "–";
  const value = ours / theirs;
  return `${value < 0.1 ? value.toPrecision(2) : value.toFixed(2)}×`;
}
