import {
  CODEMODE_SDK_DECLARATION,
  ConnectorDeclarations,
  type ConnectorDefinition,
  type DeclaredMethod,
} from "./declarations.ts";
import { describedConnectorTypes, describedMethodTypes } from "./describe-bounds.ts";
import { createNameMap, NameAllocator, SANDBOX_GLOBALS, toPascalCase } from "./identifier.ts";
import { firstSentence } from "./jsdoc.ts";
import { type JsonSchema, resolvePointer, toJsonSchema } from "./json-schema.ts";
import { cutAt, METADATA_LIMITS } from "./metadata-limits.ts";
import {
  MAX_QUERY_LENGTH,
  MAX_QUERY_TERMS,
  type Ranked,
  type SearchFields,
  SearchIndex,
  type SearchWeights,
} from "./search-index.ts";
import { splitWords } from "./tokenize.ts";
import { jsonSchemaToTypeScript } from "./type-writer.ts";
import { TypegenError } from "./typegen-error.ts";

/** What `codemode.search()` answers (seed 000). */
export type SearchOutput = {
  results: Array<{
    path: string;
    connector: string;
    method: string;
    description?: string;
    kind: "method" | "snippet";
    score: number;
  }>;
  total: number;
  truncated: boolean;
};

/** What `codemode.describe()` answers (seed 000). */
export type DescribeOutput = {
  path: string;
  description?: string;
  types: string;
  kind: "connector" | "method" | "snippet";
};

/** A saved program the model can find, describe and run. */
export interface SnippetDefinition {
  name: string;
  description?: string;
  code: string;
  inputSchema?: unknown;
}

/**
 * Embeds texts as vectors for a semantic re-rank (for example Workers AI embeddings). Called once
 * for the connectors' methods (lazily, then remembered by the catalog and every snippet view of it),
 * once for the snippets a search sees that no search before it embedded (the latest view's, at most
 * `MAX_EMBEDDED_SNIPPETS`, are remembered) and once per query. A call that fails or answers another
 * number of vectors than it was given texts is remembered for nothing: the search ranks lexically.
 */
export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

export interface CatalogOptions {
  connectors: readonly ConnectorDefinition[];
  snippets?: readonly SnippetDefinition[];
  /** optional semantic re-rank; search works offline without it */
  embed?: EmbedFunction;
  /**
   * how much the embedding ranking counts next to the lexical one in the re-rank (default 0.5):
   * measured with a small general-purpose sentence encoder, which at a full weight pushed good
   * lexical matches out of the first five; a strong retrieval model may deserve 1 or more
   */
  semanticWeight?: number;
  /** how many results a search returns (default 8) */
  limit?: number;
  weights?: SearchWeights;
  /**
   * whether the sandbox has the `codemode` SDK global (default true); without it (a stateless tool
   * whose tools live in a `codemode` namespace, as seed 003 has it) a connector may take that name and
   * `declarations()` leaves the SDK out
   */
  sdk?: boolean;
}

/** `connector.method` → the connector and method names the runtime calls. */
export interface ResolvedMethod {
  connector: ConnectorDeclarations;
  method: DeclaredMethod;
}

interface Item {
  path: string;
  connector: string;
  method: string;
  description: string | undefined;
  kind: "method" | "snippet";
}

export { MAX_QUERY_LENGTH, MAX_QUERY_TERMS };

/**
 * The longest `describe` target looked up, in characters after trimming: a path is a connector,
 * a method and a snippet name. A longer one is answered with what to do instead, without ranking.
 */
export const MAX_TARGET_LENGTH = 300;
/** how much of an over-long target the answer repeats */
const TARGET_PREVIEW = 60;

const DESCRIPTION_LENGTH = 120;
const RRF_K = 60;
/** how many lexical results the semantic re-rank considers (they hold the answer to 0.92 of the bench's queries) */
const RERANK_DEPTH = 50;
/** how many of the nearest items by embedding join the re-rank when the lexical ranking missed them */
const SEMANTIC_DEPTH = 10;
const SEMANTIC_WEIGHT = 0.5;
/**
 * The most snippets whose embeddings a catalog remembers between searches: those of the latest
 * view searched. A snippet past it is embedded again by each search that sees it.
 */
export const MAX_EMBEDDED_SNIPPETS = 1_000;

/** The embed function's vectors for `texts`, refused unless it gave one array for each text. */
async function embedEach(embed: EmbedFunction, texts: string[]): Promise<number[][]> {
  if (texts.length === 0) return [];
  const vectors = await embed(texts);
  if (
    !Array.isArray(vectors) ||
    vectors.length !== texts.length ||
    !vectors.every((vector) => Array.isArray(vector))
  ) {
    throw new TypeError(`The embed function gave no vector for each of ${texts.length} texts.`);
  }
  return vectors;
}

/** Parameter and body property names of an input schema (two levels into `body`), for search. */
function propertyNames(schema: JsonSchema | undefined, root: unknown, depth = 0): string[] {
  if (typeof schema !== "object" || schema === null || depth > 2) return [];
  const names: string[] = [];
  const visit = (node: unknown) => {
    if (typeof node === "object" && node !== null) {
      names.push(...propertyNames(node as JsonSchema, root, depth + 1));
    }
  };
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    names.push(name);
    if (name === "body" || name === "requestBody") visit(property);
  }
  for (const list of [schema.allOf, schema.anyOf, schema.oneOf])
    if (Array.isArray(list)) list.forEach(visit);
  if (typeof schema.$ref === "string") visit(resolvePointer(root, schema.$ref));
  return names;
}

/**
 * What an item is embedded as: its name in words and the first sentence of its description. A whole
 * description (access notes, media types, links) blurs what the operation does: measured with a
 * sentence encoder on the bench's queries, embedding it found 0.63 of the close matches at five
 * instead of 0.88.
 */
function embeddingText(item: Item): string {
  return `${splitWords(item.path).join(" ")}${item.description ? `: ${item.description}` : ""}`;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index++) {
    const x = a[index] as number;
    const y = b[index] ?? 0;
    dot += x * y;
    normA += x * x;
    normB += y * y;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Connectors, their declarations and a search index, built once and shared by snippet views. */
class CatalogCore {
  readonly connectors: readonly ConnectorDeclarations[];
  readonly items: readonly Item[];
  readonly fields: readonly SearchFields[];
  readonly names: NameAllocator;
  private methodIndex: SearchIndex | undefined;
  /** the methods' embeddings, once asked for: every snippet view shares them */
  methodVectors: Promise<number[][]> | undefined;
  /** the embeddings of the latest searched view's snippets, by the text embedded (at most `MAX_EMBEDDED_SNIPPETS`) */
  snippetVectors = new Map<string, Promise<number[]>>();

  constructor(
    definitions: readonly ConnectorDefinition[],
    readonly weights: SearchWeights | undefined,
    readonly sdk: boolean,
  ) {
    this.names = new NameAllocator();
    const reserved = sdk
      ? SANDBOX_GLOBALS
      : new Set([...SANDBOX_GLOBALS].filter((name) => name !== "codemode"));
    const map = createNameMap(
      definitions.map((definition) => definition.name),
      { kind: "connector name", reserved },
    );
    // names are handed out on the first declaration written, for every connector in catalog order
    const prepareAll = () => {
      for (const connector of this.connectors) connector.prepare();
    };
    this.connectors = definitions.map(
      (definition) =>
        new ConnectorDeclarations(
          definition,
          map.identifiers.get(definition.name) as string,
          this.names,
          prepareAll,
        ),
    );
    const items: Item[] = [];
    const fields: SearchFields[] = [];
    this.connectors.forEach((connector, index) => {
      const root = definitions[index]?.schemaRoot;
      for (const method of connector.methods) {
        items.push({
          path: method.path,
          connector: connector.name,
          method: method.name,
          description: firstSentence(method.description, DESCRIPTION_LENGTH),
          kind: "method",
        });
        fields.push({
          name: method.name,
          connector: `${connector.name} ${connector.original}`,
          description: method.description ?? "",
          parameters: propertyNames(method.inputSchema, root ?? method.inputSchema).join(" "),
          keywords: cutAt(
            [method.original === method.name ? "" : method.original, ...method.keywords].join(" "),
            METADATA_LIMITS.keywordsLength,
          ),
        });
      }
    });
    this.items = items;
    this.fields = fields;
  }

  get index(): SearchIndex {
    this.methodIndex ??= new SearchIndex(this.fields, this.weights);
    return this.methodIndex;
  }
}

/**
 * A catalog of connectors and snippets: the declarations the model reads, `search` and `describe`
 * as the sandbox's `codemode` global answers them, and the map from sandbox paths back to the
 * names the connectors know.
 */
export class Catalog {
  private readonly snippets: readonly SnippetDefinition[];
  private readonly items: readonly Item[];
  /** the connectors' index with this catalog's snippets added */
  private index: SearchIndex | undefined;

  constructor(
    private readonly core: CatalogCore,
    snippets: readonly SnippetDefinition[],
    private readonly options: Pick<CatalogOptions, "embed" | "limit" | "semanticWeight">,
  ) {
    this.snippets = snippets;
    this.items = [
      ...core.items,
      ...snippets.map((snippet) => ({
        path: snippet.name,
        connector: "snippet",
        method: snippet.name,
        description: firstSentence(snippet.description, DESCRIPTION_LENGTH),
        kind: "snippet" as const,
      })),
    ];
  }

  get connectors(): readonly ConnectorDeclarations[] {
    return this.core.connectors;
  }

  /** The same connectors with another set of snippets; declarations and the method index are shared. */
  withSnippets(snippets: readonly SnippetDefinition[]): Catalog {
    return new Catalog(this.core, snippets, this.options);
  }

  /** All connectors' declarations and the `codemode` SDK, as one file the TypeScript compiler accepts. */
  declarations(): string {
    return [
      ...this.core.connectors.map((connector) => connector.all()),
      ...(this.core.sdk ? [`${CODEMODE_SDK_DECLARATION}\n`] : []),
    ].join("\n");
  }

  /** Finds a method by `connector.method` (sandbox identifiers or original names). */
  resolve(path: string): ResolvedMethod | undefined {
    for (const connector of this.core.connectors) {
      for (const prefix of new Set([connector.name, connector.original])) {
        if (!path.startsWith(`${prefix}.`)) continue;
        const method = connector.find(path.slice(prefix.length + 1));
        if (method) return { connector, method };
      }
    }
    return undefined;
  }

  /**
   * Ranked methods and snippets for a query in the asker's own words. Only the first
   * `MAX_QUERY_LENGTH` characters are read (the embed function gets no more) and the first
   * `MAX_QUERY_TERMS` distinct terms ranked on: a query of any length answers, in bounded time.
   */
  async search(text: string, options: { limit?: number } = {}): Promise<SearchOutput> {
    const query = text.length > MAX_QUERY_LENGTH ? text.slice(0, MAX_QUERY_LENGTH) : text;
    const limit = Math.max(1, options.limit ?? this.options.limit ?? 8);
    const semantic = this.options.embed !== undefined && query.trim() !== "";
    const lexical = this.rankLexical(query, semantic ? Math.max(limit, RERANK_DEPTH) : limit);
    const ranked = semantic ? await this.rerank(query, lexical.ranked) : lexical.ranked;
    const total = Math.max(lexical.total, ranked.length);
    const results = ranked.slice(0, limit).map(({ item, score }) => {
      const { path, connector, method, description, kind } = this.items[item] as Item;
      return {
        path,
        connector,
        method,
        ...(description ? { description } : {}),
        kind,
        score: Math.round(score * 100) / 100,
      };
    });
    return { results, total, truncated: total > limit };
  }

  /**
   * Declarations for a connector, a method or a snippet; an unknown target gets the nearest paths.
   * Declarations longer than `METADATA_LIMITS.describeLength` are listed or cut (describe-bounds.ts).
   * A target longer than `MAX_TARGET_LENGTH` (after trimming) names nothing: it is answered with
   * what to do, and not ranked.
   */
  describe(target: string): DescribeOutput {
    const wanted = target.trim();
    if (wanted.length > MAX_TARGET_LENGTH) {
      const preview = `${wanted.slice(0, TARGET_PREVIEW)}…`;
      const message = `The target is ${wanted.length} characters long; a path is at most ${MAX_TARGET_LENGTH} characters.`;
      return {
        path: preview,
        description: message,
        types: `// ${message} Pass one path, such as "connector.method", that codemode.search("what you want to do") returned.\n`,
        kind: wanted.slice(0, MAX_TARGET_LENGTH).includes(".") ? "method" : "connector",
      };
    }
    const snippet = this.snippets.find((candidate) => candidate.name === wanted);
    if (snippet) return this.describeSnippet(snippet);
    const connector = this.core.connectors.find(
      (candidate) => candidate.name === wanted || candidate.original === wanted,
    );
    if (connector) {
      return {
        path: connector.name,
        ...(connector.instructions ? { description: connector.instructions } : {}),
        types: describedConnectorTypes(connector),
        kind: "connector",
      };
    }
    const resolved = this.resolve(wanted) ?? this.resolveBare(wanted);
    if (resolved) {
      return {
        path: resolved.method.path,
        ...(resolved.method.description ? { description: resolved.method.description } : {}),
        types: describedMethodTypes(resolved.connector, resolved.method),
        kind: "method",
      };
    }
    const nearest = this.rankLexical(wanted, 5).ranked.map(
      ({ item }) => (this.items[item] as Item).path,
    );
    return {
      path: wanted,
      description: `Nothing is named "${wanted}".`,
      types: `// Nothing is named "${wanted}". Nearest paths: ${nearest.join(", ") || "none"}.\n// Use codemode.search("what you want to do") to find methods and snippets.\n`,
      kind: wanted.includes(".") ? "method" : "connector",
    };
  }

  private resolveBare(name: string): ResolvedMethod | undefined {
    const found: ResolvedMethod[] = [];
    for (const connector of this.core.connectors) {
      const method = connector.find(name);
      if (method) found.push({ connector, method });
    }
    return found.length === 1 ? found[0] : undefined;
  }

  private describeSnippet(snippet: SnippetDefinition): DescribeOutput {
    const name = `${toPascalCase(snippet.name)}SnippetInput`;
    const inputSchema = toJsonSchema(snippet.inputSchema, "input");
    // with the named types (`$defs`) the input needs
    const input = inputSchema === undefined ? undefined : jsonSchemaToTypeScript(name, inputSchema);
    const usage = `// Run it with codemode.run(${JSON.stringify(snippet.name)}${input ? `, input: ${name}` : ""}).`;
    return {
      path: snippet.name,
      ...(snippet.description ? { description: snippet.description } : {}),
      types: `${input ? `${input}\n\n` : ""}${usage}\n// Source:\n${snippet.code.trim()}\n`,
      kind: "snippet",
    };
  }

  private rankLexical(query: string, limit: number): { ranked: Ranked[]; total: number } {
    this.index ??= this.core.index.extend(
      this.snippets.map((snippet) => ({
        name: snippet.name,
        connector: "snippet",
        description: snippet.description ?? "",
        parameters: propertyNames(toJsonSchema(snippet.inputSchema), undefined).join(" "),
        keywords: "",
      })),
    );
    return this.index.rank(query, { limit });
  }

  /**
   * Reciprocal-rank fusion of the lexical ranking with the ranking by cosine similarity of
   * embeddings, over the lexical candidates and the few nearest items the lexical ranking missed.
   */
  private async rerank(query: string, lexical: Ranked[]): Promise<Ranked[]> {
    const embed = this.options.embed as EmbedFunction;
    try {
      const used = this.itemVectors(embed);
      const [vectors, [queryVector]] = await Promise.all([
        Promise.all([used.methods, ...used.snippets]).then(([methods, ...snippets]) => [
          ...(methods as number[][]),
          ...(snippets as number[][]),
        ]),
        embedEach(embed, [query]),
      ]);
      if (!queryVector || vectors.length !== this.items.length) return lexical;
      const similarity = vectors.map((vector) => cosine(queryVector, vector));
      const byEmbedding = (a: number, b: number) =>
        (similarity[b] as number) - (similarity[a] as number) || a - b;
      const fused = new Map<number, number>();
      lexical.forEach(({ item }, rank) => {
        fused.set(item, 1 / (RRF_K + rank + 1));
      });
      const nearest = similarity.map((_, item) => item).sort(byEmbedding);
      for (const item of nearest.slice(0, SEMANTIC_DEPTH)) if (!fused.has(item)) fused.set(item, 0);
      const weight = this.options.semanticWeight ?? SEMANTIC_WEIGHT;
      [...fused.keys()].sort(byEmbedding).forEach((item, rank) => {
        fused.set(item, (fused.get(item) as number) + weight / (RRF_K + rank + 1));
      });
      return [...fused]
        .map(([item, score]) => ({ item, score: score * RRF_K }))
        .sort((a, b) => b.score - a.score || a.item - b.item);
    } catch {
      // what failed forgot itself (`itemVectors`): the next search asks for it again
      return lexical;
    }
  }

  /**
   * The embeddings of this view's items, in order: the methods' (asked for once per catalog) and
   * each snippet's, remembered by its text, so that a search embeds only the snippets no search
   * before it did. The snippets of this view become the ones remembered, at most
   * `MAX_EMBEDDED_SNIPPETS`; all of it is decided before the first wait, so searches at once share
   * it. An embedding that fails is forgotten as it fails (from the map remembered then, which any
   * later one is made from), so the next search asks for it again.
   */
  private itemVectors(embed: EmbedFunction): {
    methods: Promise<number[][]>;
    snippets: Promise<number[]>[];
  } {
    const core = this.core;
    if (!core.methodVectors) {
      const methods = embedEach(embed, core.items.map(embeddingText));
      core.methodVectors = methods;
      methods.catch(() => {
        if (core.methodVectors === methods) core.methodVectors = undefined;
      });
    }
    const texts = this.items.slice(core.items.length).map(embeddingText);
    const known = core.snippetVectors;
    const missing = [...new Set(texts.filter((text) => !known.has(text)))];
    const fresh = new Map<string, Promise<number[]>>();
    if (missing.length > 0) {
      const embedded = embedEach(embed, missing);
      missing.forEach((text, index) => {
        const vector = embedded.then((vectors) => vectors[index] as number[]);
        fresh.set(text, vector);
        vector.catch(() => {
          if (core.snippetVectors.get(text) === vector) core.snippetVectors.delete(text);
        });
      });
    }
    const vectorOf = (text: string) => (known.get(text) ?? fresh.get(text)) as Promise<number[]>;
    const remembered = new Map<string, Promise<number[]>>();
    for (const text of texts) {
      if (remembered.size >= MAX_EMBEDDED_SNIPPETS) break;
      remembered.set(text, vectorOf(text));
    }
    core.snippetVectors = remembered;
    return { methods: core.methodVectors, snippets: texts.map(vectorOf) };
  }
}

/** Builds a catalog; connector and method names are checked here (collisions throw). */
export function createCatalog(options: CatalogOptions): Catalog {
  const { embed, limit, semanticWeight } = options;
  if (semanticWeight !== undefined && !(Number.isFinite(semanticWeight) && semanticWeight >= 0)) {
    throw new TypegenError(
      "INVALID_OPTION",
      `semanticWeight must be a finite number of at least 0, not ${semanticWeight}.`,
    );
  }
  const core = new CatalogCore(options.connectors, options.weights, options.sdk !== false);
  return new Catalog(core, options.snippets ?? [], { embed, limit, semanticWeight });
}
