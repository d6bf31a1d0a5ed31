import { lexiconMatches, MAX_PHRASE } from "./lexicon.ts";
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

type Field = keyof SearchFields;

/** How much a match in each field counts, and how the parts of a score combine. */
export interface SearchWeights {
  fields: Record<Field, number>;
  /** BM25 length normalization per field (0: none, 1: full) */
  lengthNormalization: Record<Field, number>;
  /**
   * how many leading search terms of a description are indexed: its lead says what the operation
   * does; what follows (access notes, media types, pagination, links) matches almost any query.
   * Default 30; `Infinity` indexes all of it.
   */
  descriptionLead?: number;
  /** BM25 term-frequency saturation */
  k1: number;
  /** a query word matched through its group of related words, relative to the word itself */
  related: number;
  /** a phrase of the query ("money back") matched through its group: more specific than one word */
  phrase: number;
  /** a vocabulary word that is a near spelling of an unknown query word */
  fuzzy: number;
  /** bonus for covering every concept of the query */
  coverage: number;
  /** bonus for an item whose name words are all asked for (prefers `create_issue` to `create_issue_comment`) */
  namePrecision: number;
}

/** How many leading search terms of a description are indexed unless the weights say otherwise. */
const DESCRIPTION_LEAD = 30;

/** Weights measured on the dev half of the query set in `bench/queries.json` (see the package README). */
export const DEFAULT_SEARCH_WEIGHTS: SearchWeights = {
  fields: { name: 3, keywords: 1.5, connector: 0.5, description: 1, parameters: 0.4 },
  lengthNormalization: {
    name: 0.3,
    keywords: 0.5,
    connector: 0,
    description: 0.75,
    parameters: 0.75,
  },
  descriptionLead: DESCRIPTION_LEAD,
  k1: 1.2,
  related: 0.7,
  phrase: 1.3,
  fuzzy: 0.6,
  coverage: 1,
  namePrecision: 0.5,
};

const FIELDS: readonly Field[] = ["name", "connector", "description", "parameters", "keywords"];

/** The items a token occurs in, with its saturated BM25F term frequency in each, and its rarity. */
interface Postings {
  items: Int32Array;
  saturated: Float32Array;
  idf: number;
}

/** One item's score, best first. */
export interface Ranked {
  item: number;
  score: number;
}

/** One thing the query asks for: its own words, and the groups of related words they belong to. */
interface Concept {
  words: string[];
  groups: number[];
  /** matched as a phrase of several words: its related words count as much as the words themselves */
  phrase: boolean;
}

const groupToken = (group: number) => `#${group}`;

function editDistanceWithin(a: string, b: string, limit: number, work: SearchWork): boolean {
  if (Math.abs(a.length - b.length) > limit) return false;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    work.steps += b.length;
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

function trigrams(words: readonly string[]): Set<string> {
  const padded = ` ${words.join(" ")} `;
  const grams = new Set<string>();
  for (let index = 0; index + 3 <= padded.length; index++)
    grams.add(padded.slice(index, index + 3));
  return grams;
}

/**
 * The query's concepts: each word, with a phrase the lexicon knows ("money back") merged into one.
 * The longest phrase wins: its words do not also bring in the groups they have on their own.
 * Merged words share one concept through a union-find, so merging is near-linear in the words.
 */
function conceptsOf(queryTerms: readonly string[], work: SearchWork): Concept[] {
  const parent = queryTerms.map((_, index) => index);
  const find = (index: number): number => {
    let at = index;
    while (parent[at] !== at) {
      work.steps++;
      const up = parent[parent[at] as number] as number;
      parent[at] = up;
      at = up;
    }
    return at;
  };
  const concepts: Concept[] = queryTerms.map((word) => ({
    words: [word],
    groups: [],
    phrase: false,
  }));
  const addGroup = (concept: Concept, group: number) => {
    work.steps += concept.groups.length + 1;
    if (!concept.groups.includes(group)) concept.groups.push(group);
  };
  const claimed = new Uint8Array(queryTerms.length);
  const matches = lexiconMatches(queryTerms).sort(
    (a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start,
  );
  work.steps += queryTerms.length * MAX_PHRASE + matches.length;
  for (const match of matches) {
    const phrase = match.end - match.start > 1;
    if (!phrase && claimed[match.start]) continue;
    if (phrase) claimed.fill(1, match.start, match.end);
    const first = find(match.start);
    const concept = concepts[first] as Concept;
    for (let index = match.start; index < match.end; index++) {
      work.steps++;
      const current = find(index);
      if (current !== first) {
        const merged = concepts[current] as Concept;
        concept.words.push(...merged.words);
        for (const group of merged.groups) addGroup(concept, group);
        merged.words = [];
        merged.groups = [];
        parent[current] = first;
      }
    }
    for (const group of match.groups) addGroup(concept, group);
    if (phrase) concept.phrase = true;
  }
  return concepts.filter((concept) => concept.words.length > 0);
}

/** How many characters of a query are read; the rest is ignored (a query is a few words). */
export const MAX_QUERY_LENGTH = 1_000;
/** How many distinct search terms of a query are ranked on; later ones are ignored. */
export const MAX_QUERY_TERMS = 32;

/** Counts the work a ranking did, in loop steps (for tests and benchmarks). */
export interface SearchWork {
  steps: number;
}

const isWordCode = (code: number) =>
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  code === 95;

/**
 * Every email address of `text` as " email ": what `/\b[\w.+-]+@[\w-]+\.[\w.]+\b/g` replaces, found
 * in one pass from each `@` (that pattern tries each word boundary of a long run of `a.a.a…` and
 * scans the run from each, which is quadratic).
 */
function replaceAddresses(text: string): string {
  const word = (at: number) => at >= 0 && at < text.length && isWordCode(text.charCodeAt(at));
  const boundary = (at: number) => word(at - 1) !== word(at);
  const local = (code: number) => isWordCode(code) || code === 46 || code === 43 || code === 45;
  let out = "";
  let last = 0;
  let at = text.indexOf("@");
  while (at !== -1) {
    // the leftmost start after the last address: local characters up to `@`, on a word boundary
    let low = at;
    while (low > last && local(text.charCodeAt(low - 1))) low--;
    let start = low;
    while (start < at && !boundary(start)) start++;
    // a domain: [\w-]+ then "." then [\w.]+ ending on a word boundary
    let dot = at + 1;
    while (dot < text.length && (isWordCode(text.charCodeAt(dot)) || text.charCodeAt(dot) === 45))
      dot++;
    let end = -1;
    if (start < at && dot > at + 1 && text.charCodeAt(dot) === 46) {
      let stop = dot + 1;
      while (
        stop < text.length &&
        (isWordCode(text.charCodeAt(stop)) || text.charCodeAt(stop) === 46)
      )
        stop++;
      for (let candidate = stop; candidate > dot + 1; candidate--) {
        if (boundary(candidate)) {
          end = candidate;
          break;
        }
      }
    }
    if (end === -1) {
      at = text.indexOf("@", at + 1);
      continue;
    }
    out += `${text.slice(last, start)} email `;
    last = end;
    at = text.indexOf("@", end);
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `word` is `prefix_rest` (a lower-case prefix) with a digit in `rest`: an id such as `cus_9Qx2`. */
function isPrefixedId(word: string): boolean {
  const underscore = word.indexOf("_");
  return (
    underscore > 0 && /^[a-z]+_[A-Za-z0-9]*$/.test(word) && /\d/.test(word.slice(underscore + 1))
  );
}

/** A path or glob before its extension: segments of word characters, one `*` in the last. */
function isFileStem(stem: string): boolean {
  const segments = stem.split("/");
  const last = segments.pop() as string;
  return (
    segments.every((segment) => segment !== "" && !segment.includes("*")) &&
    last.indexOf("*") === last.lastIndexOf("*")
  );
}

/**
 * Values in a query name no operation: quoted text, ids and numbers are dropped, and a value whose
 * form says what it is stands for that word (a file name → "file", an address → "email"). Every
 * rule is linear in the query: no pattern has two quantifiers that can share a character, and the
 * shapes a pattern cannot check without backtracking are checked in code.
 */
export function cleanQuery(query: string): string {
  const unquoted = query
    .replace(/(?<![\p{L}\p{N}])["'`‘“][^"'`’”]{1,80}?["'`’”](?![\p{L}\p{N}])/gu, " ")
    .replace(/\bhttps?:\/\/\S+/g, " url ");
  return replaceAddresses(unquoted)
    .replace(/(\s|^)([\w/*-]*)\.[a-z][a-z0-9]{0,4}\b/gi, (match, _space, stem: string) =>
      isFileStem(stem) ? " file " : match,
    )
    .replace(/\w+/g, (word) => (isPrefixedId(word) ? " " : word))
    .replace(/[#$€£]?\b\d[\d.,:/-]*\b/g, " ");
}

/**
 * A BM25F index over the items of a catalog that matches concepts, not just words: every word and
 * phrase of an item that the lexicon knows also indexes its groups of related words, so "money back"
 * in a query meets "refund" in a method through their shared group, with the group's own rarity as
 * its weight. A concept scores by its best match (the word itself, a near spelling, or a related
 * word); items are ranked by the sum over concepts, with a bonus for covering them all and for names
 * made only of what was asked. It ranks and never gates: a query that shares nothing with the catalog
 * still gets the items whose names look most alike.
 */
export class SearchIndex {
  private readonly postings: Map<string, Postings>;
  private readonly nameWords: string[][];
  private readonly nameGroups: number[][][];
  private readonly names: string[];
  private readonly weights: SearchWeights;
  /** average field lengths, for BM25 length normalization */
  private readonly averages: number[];
  /** vocabulary words (not group tokens) by length and sorted, for near spellings; built on first use */
  private vocabulary: { byLength: Map<number, string[]>; sorted: string[] } | undefined;
  private nameTrigrams: Set<string>[] | undefined;
  /** buffers reused by every query (a query runs synchronously, so one set is enough) */
  private scratch:
    | { total: Float64Array; matched: Uint8Array; best: Float64Array; touched: Int32Array }
    | undefined;

  /**
   * Indexes `items`. With `base`, the index holds the base's items followed by `items`, sharing the
   * base's postings (only the words of the new items are re-indexed): how snippets join a catalog.
   */
  constructor(
    items: readonly SearchFields[],
    weights: SearchWeights = DEFAULT_SEARCH_WEIGHTS,
    base?: SearchIndex,
  ) {
    this.weights = base?.weights ?? weights;
    const lead = this.weights.descriptionLead ?? DESCRIPTION_LEAD;
    const tokenized = items.map((item) =>
      FIELDS.map((field) => {
        const words = terms(item[field]);
        return field === "description" ? words.slice(0, lead) : words;
      }),
    );
    this.averages =
      base?.averages ??
      FIELDS.map((_, field) => {
        const total = tokenized.reduce(
          (sum, fields) => sum + (fields[field] as string[]).length,
          0,
        );
        return Math.max(1, total / Math.max(1, items.length));
      });
    this.nameWords = base ? [...base.nameWords] : [];
    this.nameGroups = base ? [...base.nameGroups] : [];
    this.names = base ? [...base.names] : [];
    const offset = this.names.length;
    const collected = new Map<string, { items: number[]; weights: number[] }>();
    tokenized.forEach((fields, index) => {
      const combined = new Map<string, number>();
      const add = (token: string, weight: number) =>
        combined.set(token, (combined.get(token) ?? 0) + weight);
      FIELDS.forEach((field, position) => {
        const words = fields[position] as string[];
        const b = this.weights.lengthNormalization[field];
        const weight =
          this.weights.fields[field] /
          (1 - b + (b * words.length) / (this.averages[position] as number));
        for (const word of words) add(word, weight);
        for (const match of lexiconMatches(words)) {
          for (const group of match.groups) add(groupToken(group), weight);
        }
      });
      for (const [token, weight] of combined) {
        const list = collected.get(token) ?? { items: [], weights: [] };
        collected.set(token, list);
        list.items.push(offset + index);
        list.weights.push(weight);
      }
      const nameWords = fields[0] as string[];
      this.nameWords.push(nameWords);
      const groups: number[][] = nameWords.map(() => []);
      for (const match of lexiconMatches(nameWords)) {
        for (let at = match.start; at < match.end; at++)
          (groups[at] as number[]).push(...match.groups);
      }
      this.nameGroups.push(groups);
      this.names.push((items[index] as SearchFields).name);
    });
    const { k1 } = this.weights;
    const size = this.names.length;
    this.postings = new Map(base?.postings);
    for (const [token, list] of collected) {
      const before = this.postings.get(token);
      const added = Float32Array.from(
        list.weights,
        (weight) => (weight * (k1 + 1)) / (k1 + weight),
      );
      const itemsOf = before
        ? Int32Array.from([...before.items, ...list.items])
        : Int32Array.from(list.items);
      const saturated = before ? Float32Array.from([...before.saturated, ...added]) : added;
      this.postings.set(token, {
        items: itemsOf,
        saturated,
        idf: Math.log(1 + (size - itemsOf.length + 0.5) / (itemsOf.length + 0.5)),
      });
    }
  }

  /** The same index with `items` added after the existing ones. */
  extend(items: readonly SearchFields[]): SearchIndex {
    return items.length === 0 ? this : new SearchIndex(items, this.weights, this);
  }

  get size(): number {
    return this.names.length;
  }

  /**
   * Every item with a positive score for `query`, best first (ties keep catalog order). When nothing
   * matches and `fallback` is on (the default), every item ranked by how much its name looks alike.
   * Only the first `MAX_QUERY_LENGTH` characters of the query are read and its first
   * `MAX_QUERY_TERMS` distinct terms ranked on, so the work is linear in the query and bounded;
   * `work` counts it.
   */
  rank(
    query: string,
    options: { fallback?: boolean; limit?: number; work?: SearchWork } = {},
  ): { ranked: Ranked[]; total: number } {
    const fallback = options.fallback !== false;
    const limit = options.limit ?? Number.POSITIVE_INFINITY;
    const work = options.work ?? { steps: 0 };
    const size = this.names.length;
    const nothing = { ranked: [], total: 0 };
    if (size === 0) return nothing;
    const text = query.length > MAX_QUERY_LENGTH ? query.slice(0, MAX_QUERY_LENGTH) : query;
    const distinct = (words: string[]) => {
      work.steps += words.length;
      return [...new Set(words)].slice(0, MAX_QUERY_TERMS);
    };
    let queryTerms = distinct(terms(cleanQuery(text)));
    if (queryTerms.length === 0) queryTerms = distinct(terms(text));
    if (queryTerms.length === 0) queryTerms = distinct(splitWords(text).map(stem));
    const concepts = conceptsOf(queryTerms, work);
    if (concepts.length === 0) return fallback ? this.lookAlike(text, limit, work) : nothing;

    const { related, phrase, fuzzy } = this.weights;
    this.scratch ??= {
      total: new Float64Array(size),
      matched: new Uint8Array(size),
      best: new Float64Array(size),
      touched: new Int32Array(size),
    };
    const { total, matched, best, touched } = this.scratch;
    total.fill(0);
    matched.fill(0);
    const askedWords = new Set<string>();
    const askedGroups = new Set<number>();

    for (const concept of concepts) {
      const candidates: Array<[string, number]> = [];
      for (const word of concept.words) {
        askedWords.add(word);
        work.steps++;
        if (this.postings.has(word)) candidates.push([word, 1]);
        else if (concept.groups.length === 0) {
          for (const near of this.nearSpellings(word, work)) {
            askedWords.add(near);
            candidates.push([near, fuzzy]);
          }
        }
      }
      for (const group of concept.groups) {
        askedGroups.add(group);
        candidates.push([groupToken(group), concept.phrase ? phrase : related]);
      }
      let count = 0;
      for (const [token, weight] of candidates) {
        const postings = this.postings.get(token);
        if (!postings) continue;
        const factor = weight * postings.idf;
        const { items, saturated } = postings;
        work.steps += items.length;
        for (let index = 0; index < items.length; index++) {
          const item = items[index] as number;
          const score = factor * (saturated[index] as number);
          const previous = best[item] as number;
          if (previous === 0) touched[count++] = item;
          if (score > previous) best[item] = score;
        }
      }
      work.steps += count + candidates.length;
      for (let index = 0; index < count; index++) {
        const item = touched[index] as number;
        total[item] = (total[item] as number) + (best[item] as number);
        matched[item] = (matched[item] as number) + 1;
        best[item] = 0;
      }
    }

    const top = new TopList(limit);
    work.steps += size;
    for (let item = 0; item < size; item++) {
      const base = total[item] as number;
      if (base <= 0) continue;
      const coverage = (matched[item] as number) / concepts.length;
      const score = base * (1 + this.weights.coverage * coverage * coverage);
      if (!top.wants(score * (1 + this.weights.namePrecision))) {
        top.count();
        continue;
      }
      work.steps += (this.nameWords[item] as string[]).length;
      top.add(
        item,
        score *
          (1 + this.weights.namePrecision * this.namePrecision(item, askedWords, askedGroups)),
      );
    }
    if (top.total === 0) return fallback ? this.lookAlike(text, limit, work) : nothing;
    return { ranked: top.sorted(), total: top.total };
  }

  /** The share of an item's name words that the query asked for, directly or through a related word. */
  private namePrecision(item: number, words: Set<string>, groups: Set<number>): number {
    const nameWords = this.nameWords[item] as string[];
    if (nameWords.length === 0) return 0;
    const nameGroups = this.nameGroups[item] as number[][];
    let hits = 0;
    nameWords.forEach((word, index) => {
      if (words.has(word)) hits += 1;
      else if ((nameGroups[index] as number[]).some((group) => groups.has(group)))
        hits += this.weights.related;
    });
    return hits / nameWords.length;
  }

  /** Vocabulary words that are a prefix, an extension or a near spelling of an unknown word. */
  private nearSpellings(word: string, work: SearchWork): string[] {
    if (word.length < 3 || word.length > 24 || /\d/.test(word)) return [];
    const found = new Set<string>();
    // words the unknown word starts (a prefix typed so far), then words it extends ("repos" → "repo")
    this.vocabulary ??= buildVocabulary(this.postings.keys());
    const { byLength, sorted } = this.vocabulary;
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      work.steps++;
      const middle = (low + high) >>> 1;
      if ((sorted[middle] as string) < word) low = middle + 1;
      else high = middle;
    }
    for (let index = low; index < sorted.length && found.size < 4; index++) {
      work.steps++;
      const candidate = sorted[index] as string;
      if (!candidate.startsWith(word)) break;
      if (candidate.length >= 4) found.add(candidate);
    }
    for (let length = word.length - 1; length >= 4; length--) {
      work.steps += length;
      const prefix = word.slice(0, length);
      if (this.postings.has(prefix)) found.add(prefix);
    }
    // near spellings with the same first letter
    const limit = word.length >= 7 ? 2 : word.length >= 4 ? 1 : 0;
    for (let length = word.length - limit; length <= word.length + limit && limit > 0; length++) {
      for (const candidate of byLength.get(length) ?? []) {
        work.steps++;
        if (candidate[0] === word[0] && editDistanceWithin(word, candidate, limit, work))
          found.add(candidate);
        if (found.size >= 8) return [...found];
      }
    }
    return [...found];
  }

  /**
   * Last resort for a query that shares no word with the catalog: names that look alike, by trigrams
   * of the query's first `MAX_QUERY_TERMS` words.
   */
  private lookAlike(
    query: string,
    limit: number,
    work: SearchWork,
  ): { ranked: Ranked[]; total: number } {
    this.nameTrigrams ??= this.names.map((name) => trigrams(splitWords(name)));
    const words = splitWords(query);
    work.steps += words.length;
    const wanted = trigrams(words.slice(0, MAX_QUERY_TERMS));
    const top = new TopList(limit);
    work.steps += wanted.size * this.nameTrigrams.length;
    this.nameTrigrams.forEach((grams, item) => {
      let shared = 0;
      for (const gram of wanted) if (grams.has(gram)) shared++;
      top.add(item, shared / (wanted.size + grams.size - shared || 1));
    });
    return { ranked: top.sorted(), total: top.total };
  }
}

function buildVocabulary(tokens: Iterable<string>): {
  byLength: Map<number, string[]>;
  sorted: string[];
} {
  const sorted = [...tokens].filter((token) => !token.startsWith("#")).sort();
  const byLength = new Map<number, string[]>();
  for (const word of sorted) {
    const bucket = byLength.get(word.length) ?? [];
    byLength.set(word.length, bucket);
    bucket.push(word);
  }
  return { byLength, sorted };
}

/** Small lists are kept sorted while they fill; longer ones are sorted once at the end. */
const INSERTION_LIMIT = 64;

/** The best `limit` items seen (score descending, then catalog order), and a count of all. */
class TopList {
  private readonly items: Ranked[] = [];
  private readonly insert: boolean;
  total = 0;

  constructor(private readonly limit: number) {
    this.insert = limit <= INSERTION_LIMIT;
  }

  /** Whether an item scoring at most `bound` could still enter the list. */
  wants(bound: number): boolean {
    if (!this.insert || this.items.length < this.limit) return true;
    return bound > (this.items[this.items.length - 1] as Ranked).score;
  }

  count(): void {
    this.total++;
  }

  add(item: number, score: number): void {
    this.total++;
    if (!this.insert) {
      this.items.push({ item, score });
      return;
    }
    if (!this.wants(score)) return;
    let index = this.items.length;
    while (index > 0 && (this.items[index - 1] as Ranked).score < score) index--;
    this.items.splice(index, 0, { item, score });
    if (this.items.length > this.limit) this.items.pop();
  }

  sorted(): Ranked[] {
    if (!this.insert) {
      this.items.sort((a, b) => b.score - a.score || a.item - b.item);
      if (this.items.length > this.limit) this.items.length = this.limit;
    }
    return this.items;
  }
}
