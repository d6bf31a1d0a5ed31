import { relatedTerms } from "./lexicon.ts";
import { splitWords, stem, terms } from "./tokenize.ts";

/** The text of one searchable item, by field. */
export interface SearchFields {
  /** the method or snippet name: the strongest signal */
  name: string;
  /** the connector (namespace) name */
  connector: string;
  description: string;
  /** names of input parameters and request-body properties */
  parameters: string;
  /** anything else that names the operation: HTTP method and path, tags, the original tool name */
  keywords: string;
}

/** How much a match in each field counts, and how strongly long fields are normalized. */
export interface SearchWeights {
  fields: Record<keyof SearchFields, number>;
  lengthNormalization: Record<keyof SearchFields, number>;
  /** BM25 term-frequency saturation */
  k1: number;
  /** weight of a related word found through the lexicon, for a single query word */
  related: number;
  /** weight of a related word found through a phrase of the query ("money back" → refund) */
  relatedPhrase: number;
  /** weight of a vocabulary word that is a near spelling of an unknown query word */
  fuzzy: number;
  /** bonus for covering every concept of the query */
  coverage: number;
  /** bonus for an item whose name words are all asked for (prefers `create_issue` to `create_issue_comment`) */
  namePrecision: number;
}

/** Field weights measured on the query set in `bench/` (see BENCHMARKS in the package README). */
export const DEFAULT_SEARCH_WEIGHTS: SearchWeights = {
  fields: { name: 3, keywords: 1.5, connector: 0.5, description: 1, parameters: 0.4 },
  lengthNormalization: {
    name: 0.3,
    keywords: 0.5,
    connector: 0,
    description: 0.75,
    parameters: 0.75,
  },
  k1: 1.2,
  related: 0.35,
  relatedPhrase: 0.8,
  fuzzy: 0.6,
  coverage: 0.6,
  namePrecision: 0.3,
};

const FIELDS = ["name", "connector", "description", "parameters", "keywords"] as const;

interface Posting {
  item: number;
  weight: number;
}

/** One item's score, best first. */
export interface Ranked {
  item: number;
  score: number;
}

function editDistanceWithin(a: string, b: string, limit: number): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      if (value < best) best = value;
    }
    if (best > limit) return false;
    previous = current;
  }
  return (previous[b.length] as number) <= limit;
}

function trigrams(text: string): Set<string> {
  const padded = ` ${splitWords(text).join(" ")} `;
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= padded.length; index++)
    grams.add(padded.slice(index, index + 3));
  return grams;
}

/**
 * A BM25F index over the items of a catalog, with query expansion through the lexicon and near
 * spellings. It ranks and never gates: every item that shares anything with the query is ranked,
 * and a query that shares nothing still gets the items whose names look most alike.
 */
export class SearchIndex {
  private readonly postings = new Map<string, Posting[]>();
  private readonly nameTerms: Set<string>[] = [];
  private readonly names: string[] = [];
  private readonly weights: SearchWeights;
  private nameTrigrams: Set<string>[] | undefined;

  constructor(items: readonly SearchFields[], weights: SearchWeights = DEFAULT_SEARCH_WEIGHTS) {
    this.weights = weights;
    const tokenized = items.map((item) => FIELDS.map((field) => terms(item[field])));
    const averages = FIELDS.map((_, field) => {
      const total = tokenized.reduce((sum, fields) => sum + (fields[field] as string[]).length, 0);
      return Math.max(1, total / Math.max(1, items.length));
    });
    tokenized.forEach((fields, item) => {
      const combined = new Map<string, number>();
      FIELDS.forEach((field, index) => {
        const words = fields[index] as string[];
        const b = weights.lengthNormalization[field];
        const norm = 1 - b + (b * words.length) / (averages[index] as number);
        for (const word of words) {
          combined.set(word, (combined.get(word) ?? 0) + weights.fields[field] / norm);
        }
      });
      for (const [word, weight] of combined) {
        const list = this.postings.get(word) ?? [];
        this.postings.set(word, list);
        list.push({ item, weight });
      }
      this.nameTerms.push(new Set(fields[0]));
      this.names.push((items[item] as SearchFields).name);
    });
  }

  get size(): number {
    return this.names.length;
  }

  /**
   * Every item with a positive score for `query`, best first (ties keep catalog order). When nothing
   * matches and `fallback` is on (the default), every item ranked by how much its name looks alike.
   */
  rank(query: string, options: { fallback?: boolean } = {}): Ranked[] {
    const fallback = options.fallback !== false;
    const size = this.names.length;
    if (size === 0) return [];
    let queryTerms = [...new Set(terms(query))];
    if (queryTerms.length === 0) queryTerms = [...new Set(splitWords(query).map(stem))];
    if (queryTerms.length === 0) return fallback ? this.lookAlike(query) : [];

    // term → { weight, concepts it stands for }
    const wanted = new Map<string, { weight: number; concepts: number }>();
    const want = (word: string, weight: number, concepts: number) => {
      const known = wanted.get(word);
      if (!known) wanted.set(word, { weight, concepts });
      else {
        known.weight = Math.max(known.weight, weight);
        known.concepts |= concepts;
      }
    };
    queryTerms.forEach((word, index) => {
      want(word, 1, 1 << Math.min(index, 30));
    });
    for (const expansion of relatedTerms(queryTerms)) {
      const concepts = expansion.from.reduce((mask, index) => mask | (1 << Math.min(index, 30)), 0);
      const weight = expansion.from.length > 1 ? this.weights.relatedPhrase : this.weights.related;
      for (const word of expansion.words) want(word, weight, concepts);
    }
    queryTerms.forEach((word, index) => {
      if (this.postings.has(word)) return;
      for (const near of this.nearSpellings(word))
        want(near, this.weights.fuzzy, 1 << Math.min(index, 30));
    });

    const scores = new Float64Array(size);
    const covered = new Uint32Array(size);
    const nameHits = new Uint16Array(size);
    const { k1 } = this.weights;
    for (const [word, { weight, concepts }] of wanted) {
      const list = this.postings.get(word);
      if (!list) continue;
      const idf = Math.log(1 + (size - list.length + 0.5) / (list.length + 0.5));
      for (const posting of list) {
        scores[posting.item] =
          (scores[posting.item] as number) +
          (weight * idf * posting.weight * (k1 + 1)) / (k1 + posting.weight);
        covered[posting.item] = (covered[posting.item] as number) | concepts;
        if ((this.nameTerms[posting.item] as Set<string>).has(word))
          nameHits[posting.item] = (nameHits[posting.item] as number) + 1;
      }
    }

    const conceptCount = Math.min(queryTerms.length, 31);
    const ranked: Ranked[] = [];
    for (let item = 0; item < size; item++) {
      const base = scores[item] as number;
      if (base <= 0) continue;
      const coverage = popcount(covered[item] as number) / conceptCount;
      const nameSize = (this.nameTerms[item] as Set<string>).size;
      const precision = nameSize === 0 ? 0 : Math.min(1, (nameHits[item] as number) / nameSize);
      const score =
        base *
        (1 + this.weights.coverage * coverage * coverage + this.weights.namePrecision * precision);
      ranked.push({ item, score });
    }
    if (ranked.length === 0) return fallback ? this.lookAlike(query) : [];
    return ranked.sort((a, b) => b.score - a.score || a.item - b.item);
  }

  /** Vocabulary words that are a prefix, an extension or a near spelling of an unknown word. */
  private nearSpellings(word: string): string[] {
    if (word.length < 3) return [];
    const limit = word.length >= 7 ? 2 : word.length >= 4 ? 1 : 0;
    const found: string[] = [];
    for (const candidate of this.postings.keys()) {
      if (
        (candidate.length >= 4 && (candidate.startsWith(word) || word.startsWith(candidate))) ||
        (limit > 0 && editDistanceWithin(word, candidate, limit))
      ) {
        found.push(candidate);
        if (found.length >= 8) break;
      }
    }
    return found;
  }

  /** Last resort for a query that shares no word with the catalog: names that look alike, by trigrams. */
  private lookAlike(query: string): Ranked[] {
    this.nameTrigrams ??= this.names.map(trigrams);
    const wanted = trigrams(query);
    const ranked = this.nameTrigrams.map((grams, item) => {
      let shared = 0;
      for (const gram of wanted) if (grams.has(gram)) shared++;
      return { item, score: shared / (wanted.size + grams.size - shared || 1) };
    });
    return ranked.sort((a, b) => b.score - a.score || a.item - b.item);
  }
}

function popcount(value: number): number {
  let count = 0;
  for (let rest = value; rest !== 0; rest &= rest - 1) count++;
  return count;
}
