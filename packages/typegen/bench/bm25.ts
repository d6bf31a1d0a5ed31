// The baseline search is measured against: plain BM25 (k1 1.2, b 0.75) over one field holding the
// method's path and description, words split and lower-cased, no stemming, stop words or synonyms.
import { splitWords } from "../src/tokenize.ts";

export class Bm25 {
  private readonly postings = new Map<string, Array<{ item: number; tf: number }>>();
  private readonly lengths: number[] = [];
  private readonly average: number;

  constructor(texts: readonly string[]) {
    texts.forEach((text, item) => {
      const words = splitWords(text);
      this.lengths.push(words.length);
      const counts = new Map<string, number>();
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
      for (const [word, tf] of counts) {
        const list = this.postings.get(word) ?? [];
        this.postings.set(word, list);
        list.push({ item, tf });
      }
    });
    this.average =
      this.lengths.reduce((sum, length) => sum + length, 0) / Math.max(1, texts.length);
  }

  rank(query: string): number[] {
    const size = this.lengths.length;
    const scores = new Float64Array(size);
    for (const word of new Set(splitWords(query))) {
      const list = this.postings.get(word);
      if (!list) continue;
      const idf = Math.log(1 + (size - list.length + 0.5) / (list.length + 0.5));
      for (const { item, tf } of list) {
        const norm = 1 - 0.75 + (0.75 * (this.lengths[item] as number)) / this.average;
        scores[item] = (scores[item] as number) + (idf * tf * 2.2) / (tf + 1.2 * norm);
      }
    }
    return [...scores.keys()]
      .filter((item) => (scores[item] as number) > 0)
      .sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
  }
}
