import { Tiktoken } from "js-tiktoken/lite";
import o200k from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  MCP_FIXTURES,
  mcpConnector,
  OPENAPI_FIXTURES,
  openApiConnector,
} from "../test/fixtures.ts";
import {
  createCatalog,
  MAX_EMBEDDED_SNIPPETS,
  MAX_QUERY_LENGTH,
  MAX_QUERY_TERMS,
  MAX_TARGET_LENGTH,
} from "./catalog.ts";
import type { ConnectorDefinition } from "./declarations.ts";
import { createToolDescription } from "./tool-description.ts";
import { TypegenError } from "./typegen-error.ts";

const shop: ConnectorDefinition = {
  name: "shop",
  instructions: "The shop's payments API.\nUse test mode keys only.",
  methods: [
    {
      name: "create-refund",
      description: "Create a refund for a charge.",
      inputSchema: {
        type: "object",
        properties: { charge: { type: "string" } },
        required: ["charge"],
      },
      outputSchema: { type: "object", properties: { id: { type: "string" } } },
      requiresApproval: true,
    },
    {
      name: "listCharges",
      description: "List charges, newest first.",
      inputSchema: z.object({ limit: z.number().int().max(100).optional() }),
    },
    {
      name: "customers/get",
      description: "Retrieve a customer.",
      inputSchema: { type: "object", properties: { id: { type: "string" } } },
    },
    { name: "payouts.create", description: "Send funds to your bank account." },
  ],
};

const github: ConnectorDefinition = {
  name: "github",
  methods: [
    { name: "issues/create", description: "Open an issue." },
    { name: "get-commit", description: "Get a commit." },
    { name: "listPullRequests", description: "List pull requests of a repository." },
  ],
};

describe("search", () => {
  const catalog = createCatalog({ connectors: [shop, github] });

  it("answers exactly seed 000's SearchOutput", async () => {
    const output = await catalog.search("refund", { limit: 2 });
    expect(Object.keys(output).sort()).toEqual(["results", "total", "truncated"]);
    expect(output.results[0]).toEqual({
      path: "shop.create_refund",
      connector: "shop",
      method: "create_refund",
      description: "Create a refund for a charge.",
      kind: "method",
      score: expect.any(Number),
    });
    expect(output.results.length).toBeLessThanOrEqual(2);
    expect(output.total).toBeGreaterThanOrEqual(output.results.length);
    expect(output.truncated).toBe(output.total > output.results.length);
  });

  it.each([
    ["pull requests", "github.listPullRequests"],
    ["get commit", "github.get_commit"],
    ["issues create", "github.issues_create"],
    ["customers get", "shop.customers_get"],
    ["payouts", "shop.payouts_create"],
  ])("splits camelCase, kebab, slashes and dots: %j", async (query, path) => {
    expect((await catalog.search(query)).results[0]?.path).toBe(path);
  });

  it("finds a method through words it does not contain", async () => {
    expect((await catalog.search("give the customer their money back")).results[0]?.path).toBe(
      "shop.create_refund",
    );
    expect((await catalog.search("open a new bug report")).results[0]?.path).toBe(
      "github.issues_create",
    );
  });

  it("never answers a non-empty query over a non-empty catalog with nothing", async () => {
    for (const query of ["zzqx", "???", "the of and", "中文查询"]) {
      const output = await catalog.search(query);
      expect(output.results.length, query).toBeGreaterThan(0);
    }
  });

  it("keeps results compact: a search answer costs a few hundred tokens", async () => {
    const all = createCatalog({ connectors: OPENAPI_FIXTURES.map(openApiConnector) });
    const output = await all.search("list the pull requests of a repository");
    const encoder = new Tiktoken(o200k);
    expect(encoder.encode(JSON.stringify(output)).length).toBeLessThan(400);
    for (const result of output.results)
      expect((result.description ?? "").length).toBeLessThanOrEqual(120);
  });

  it("re-ranks with a host embedding function and falls back to lexical when it fails", async () => {
    // A toy embedding where "reimburse" and "refund" share a dimension, standing in for a real model.
    const dimensions = [
      "refund|reimburse",
      "charge",
      "customer",
      "commit",
      "issue",
      "pull",
      "payout|bank",
    ];
    const embed = async (texts: string[]) =>
      texts.map((text) => dimensions.map((words) => (new RegExp(words, "i").test(text) ? 1 : 0)));
    const semantic = createCatalog({ connectors: [shop, github], embed });
    expect((await semantic.search("reimbursement please")).results[0]?.path).toBe(
      "shop.create_refund",
    );
    const failing = createCatalog({
      connectors: [shop, github],
      embed: async () => {
        throw new Error("model offline");
      },
    });
    expect((await failing.search("refund")).results[0]?.path).toBe("shop.create_refund");
  });

  it("embeds each item as its name in words and the lead of its description", async () => {
    const seen: string[] = [];
    const catalog = createCatalog({
      connectors: [shop],
      embed: async (texts) => {
        seen.push(...texts);
        return texts.map(() => [1]);
      },
    });
    await catalog.search("refund");
    expect(seen).toContain("shop create refund: Create a refund for a charge.");
    expect(seen).toContain("shop list charges: List charges, newest first.");
    expect(seen.at(-1)).toBe("refund");
  });

  it("brings in the nearest items by embedding that the lexical ranking missed", async () => {
    // only the embedding knows that a "nest egg" is where payouts go
    const embed = async (texts: string[]) =>
      texts.map((text) => [/nest egg|payouts/.test(text) ? 1 : 0, 0.1]);
    const lexical = await createCatalog({ connectors: [shop, github] }).search(
      "refund the nest egg",
      {
        limit: 3,
      },
    );
    expect(lexical.results.map((result) => result.path)).not.toContain("shop.payouts_create");
    const semantic = await createCatalog({ connectors: [shop, github], embed }).search(
      "refund the nest egg",
      {
        limit: 3,
      },
    );
    expect(semantic.results.map((result) => result.path)).toContain("shop.payouts_create");
  });

  it("weighs the embedding ranking by semanticWeight, and refuses a weight that is not a number", async () => {
    // the embedding prefers listing charges; the lexical ranking prefers the refund
    const embed = async (texts: string[]) =>
      texts.map((text) => [/charges/.test(text) ? 1 : 0, 0.1]);
    const first = async (semanticWeight: number) =>
      (await createCatalog({ connectors: [shop], embed, semanticWeight }).search("refund charges"))
        .results[0]?.path;
    expect(await first(0)).toBe("shop.create_refund");
    expect(await first(3)).toBe("shop.listCharges");
    for (const semanticWeight of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createCatalog({ connectors: [shop], semanticWeight })).toThrow(
        expect.objectContaining({
          code: "INVALID_OPTION",
          message: expect.stringMatching(/semanticWeight must be a finite number/),
        }),
      );
    }
  });

  it("includes snippets as kind snippet", async () => {
    const withSnippets = catalog.withSnippets([
      {
        name: "weekly-refund-report",
        description: "Summarise refunds of the week.",
        code: "async () => 1",
      },
    ]);
    const output = await withSnippets.search("refund report");
    expect(output.results[0]).toMatchObject({
      path: "weekly-refund-report",
      connector: "snippet",
      kind: "snippet",
    });
  });
});

describe("describe", () => {
  const catalog = createCatalog({
    connectors: [shop, github],
    snippets: [
      {
        name: "list-open-prs",
        description: "List open pull requests for a repository.",
        code: "async (input) => github.listPullRequests(input)",
        inputSchema: {
          type: "object",
          properties: { repo: { type: "string" } },
          required: ["repo"],
        },
      },
    ],
  });

  it("describes a connector with its instructions and all declarations", () => {
    const output = catalog.describe("shop");
    expect(output.kind).toBe("connector");
    expect(output.path).toBe("shop");
    expect(output.description).toBe("The shop's payments API.\nUse test mode keys only.");
    expect(output.types).toContain("declare const shop: {");
    for (const method of ["create_refund", "listCharges", "customers_get", "payouts_create"]) {
      expect(output.types).toContain(`\n ${method}(input`);
    }
  });

  it("describes one method with only what it needs", () => {
    const output = catalog.describe("shop.create_refund");
    expect(output).toMatchObject({
      kind: "method",
      path: "shop.create_refund",
      description: "Create a refund for a charge.",
    });
    expect(output.types).toBe(`type CreateRefundInput = { charge: string };
type CreateRefundOutput = { id?: string };

declare const shop: {
 /**
  * Create a refund for a charge.
  * @approval the run pauses at the call until a person approves it
  */
 create_refund(input: CreateRefundInput): Promise<CreateRefundOutput>;
};
`);
  });

  it("finds a method by its original name and by a bare name", () => {
    expect(catalog.describe("shop.create-refund").path).toBe("shop.create_refund");
    expect(catalog.describe("github.issues/create").path).toBe("github.issues_create");
    expect(catalog.describe("listCharges").path).toBe("shop.listCharges");
    expect(catalog.describe("listCharges").types).toContain("@maximum 100");
  });

  it("makes the input optional when nothing is required", () => {
    expect(catalog.describe("shop.listCharges").types).toContain(
      "listCharges(input?: ListChargesInput)",
    );
    expect(catalog.describe("shop.payouts_create").types).toContain(
      "payouts_create(input?: PayoutsCreateInput)",
    );
  });

  it("describes a snippet with its description, input type and source", () => {
    const output = catalog.describe("list-open-prs");
    expect(output.kind).toBe("snippet");
    expect(output.description).toBe("List open pull requests for a repository.");
    expect(output.types).toContain("type ListOpenPrsSnippetInput = { repo: string };");
    expect(output.types).toContain('codemode.run("list-open-prs", input: ListOpenPrsSnippetInput)');
    expect(output.types).toContain("async (input) => github.listPullRequests(input)");
  });

  it("declares the named types a snippet's input needs, under names of their own", () => {
    const saved = createCatalog({
      connectors: [],
      snippets: [
        {
          name: "triage",
          code: "async (input) => input",
          inputSchema: {
            $defs: { label: { type: "string" }, TriageSnippetInput: { type: "number" } },
            type: "object",
            properties: {
              label: { $ref: "#/$defs/label" },
              score: { $ref: "#/$defs/TriageSnippetInput" },
            },
          },
        },
      ],
    });
    expect(saved.describe("triage").types).toBe(
      [
        "type Label = string;",
        "",
        "type TriageSnippetInput2 = number;",
        "",
        "type TriageSnippetInput = { label?: Label; score?: TriageSnippetInput2 };",
        "",
        '// Run it with codemode.run("triage", input: TriageSnippetInput).',
        "// Source:",
        "async (input) => input",
        "",
      ].join("\n"),
    );
  });

  it("does not throw on a reference with a malformed percent-escape", () => {
    const broken = createCatalog({
      connectors: [{ name: "api", methods: [{ name: "call", inputSchema: { $ref: "#/%" } }] }],
    });
    expect(broken.describe("api.call").types).toContain("type CallInput = unknown;");
  });

  it("answers an unknown target with the nearest paths", () => {
    const output = catalog.describe("shop.refund");
    expect(output.path).toBe("shop.refund");
    expect(output.types).toContain('Nothing is named "shop.refund"');
    expect(output.types).toContain("shop.create_refund");
    expect(output.types).toContain("codemode.search");
  });
});

describe("configuration errors", () => {
  it("reports method names that collide, naming both", () => {
    const connector = { name: "x", methods: [{ name: "get-commit" }, { name: "get_commit" }] };
    expect(() => createCatalog({ connectors: [connector] })).toThrow(
      /"get-commit" and "get_commit"/,
    );
  });

  it("reports connector names that collide or shadow a sandbox global", () => {
    expect(() =>
      createCatalog({
        connectors: [
          { name: "my-api", methods: [] },
          { name: "my_api", methods: [] },
        ],
      }),
    ).toThrow(/"my-api" and "my_api"/);
    let caught: unknown;
    try {
      createCatalog({ connectors: [{ name: "console", methods: [] }] });
    } catch (error) {
      caught = error;
    }
    expect(TypegenError.isInstance(caught) && caught.code).toBe("INVALID_NAME");
  });
});

describe("tool description", () => {
  const encoder = new Tiktoken(o200k);
  const fixtures = createCatalog({
    connectors: [...MCP_FIXTURES.map(mcpConnector), ...OPENAPI_FIXTURES.map(openApiConnector)],
  });

  it("stays within 450 tokens with every real catalog configured", () => {
    expect(encoder.encode(createToolDescription(fixtures.connectors)).length).toBeLessThanOrEqual(
      450,
    );
  });

  it("does not grow with the number of methods", () => {
    const small = createToolDescription([{ name: "github", instructions: "GitHub REST API." }]);
    const large = createToolDescription(
      createCatalog({
        connectors: [{ ...openApiConnector("github"), instructions: "GitHub REST API." }],
      }).connectors,
    );
    expect(large).toBe(small);
  });

  it("is byte-stable for the same configuration", () => {
    const again = createCatalog({
      connectors: [...MCP_FIXTURES.map(mcpConnector), ...OPENAPI_FIXTURES.map(openApiConnector)],
    });
    expect(createToolDescription(again.connectors)).toBe(
      createToolDescription(fixtures.connectors),
    );
  });

  it("names the namespaces with one line each and the rules for pausing", () => {
    const text = createToolDescription([
      { name: "shop", instructions: "The shop's payments API.\nUse test mode keys only." },
    ]);
    expect(text).toContain("- shop: The shop's payments API.");
    expect(text).not.toContain("test mode keys");
    expect(text).toContain("async () =>");
    expect(text).toMatch(/search.*describe/s);
    expect(text).toContain("codemode.step");
    expect(text).toContain('"paused"');
    expect(text).toContain("never issue the same code again");
    expect(text).toContain("the order in which results of calls made at once arrive");
    expect(text).not.toContain("not inside Promise.all");
  });
});

describe("a catalog without the codemode SDK", () => {
  it("lets a connector be the codemode namespace and leaves the SDK out of the declarations", () => {
    const connectors = [{ name: "codemode", methods: [{ name: "listProjects" }] }];
    expect(() => createCatalog({ connectors })).toThrow(/would shadow the sandbox global/);
    const catalog = createCatalog({ connectors, sdk: false });
    const declarations = catalog.declarations();
    expect(declarations).toContain("declare const codemode");
    expect(declarations).toContain("listProjects(");
    expect(declarations).not.toContain("search(");
  });
});

describe("type names across connectors", () => {
  it("gives a connector's own name to a type another connector or a global already has", () => {
    const item = { type: "object", properties: { id: { type: "string" } }, required: ["id"] };
    const connector = (name: string) => ({
      name,
      schemaRoot: { components: { schemas: { Item: item, Request: item } } },
      methods: [
        {
          name: "get",
          outputSchema: { $ref: "#/components/schemas/Item" },
          inputSchema: { $ref: "#/components/schemas/Request" },
        },
      ],
    });
    const declarations = createCatalog({
      connectors: [connector("tracker"), connector("catalog")],
    }).declarations();
    expect(declarations).toContain("type Item = {");
    expect(declarations).toContain("type CatalogItem = {");
    // `Request` is a global type: each connector's own comes first
    expect(declarations).toContain("type TrackerRequest = {");
    expect(declarations).toContain("type CatalogRequest = {");
    expect(declarations).not.toMatch(/\bItem2\b/);
  });
});

describe("bounds on what the model sends", () => {
  const catalog = createCatalog({ connectors: [shop, github] });

  it("searches with at most MAX_QUERY_LENGTH characters of a query, however long it is", async () => {
    // a quadratic ranking took minutes on this; the tail past the limit is never read
    const query = `refund a charge ${"x".repeat(100_000)}`;
    const head = query.slice(0, MAX_QUERY_LENGTH);
    expect(await catalog.search(query)).toEqual(await catalog.search(head));
    expect((await catalog.search(query)).results[0]?.path).toBe("shop.create_refund");
  });

  it("ranks on at most MAX_QUERY_TERMS distinct terms of a query", async () => {
    const filler = Array.from({ length: 3 * MAX_QUERY_TERMS }, (_, index) => `w${index}z`);
    const words = ["refund", ...filler.slice(0, MAX_QUERY_TERMS - 1)];
    const query = [...words, "pull", "requests", ...filler.slice(MAX_QUERY_TERMS)].join(" ");
    expect(query.length).toBeLessThan(MAX_QUERY_LENGTH);
    expect(await catalog.search(query)).toEqual(await catalog.search(words.join(" ")));
  });

  it("embeds every item once across the catalog's snippet views: a search embeds its query and only items not seen before", async () => {
    const embedded: string[][] = [];
    const catalog = createCatalog({
      connectors: [shop, github],
      embed: async (texts) => {
        embedded.push(texts);
        return texts.map((text) => [text.length % 5, 1]);
      },
    });
    const items = catalog.connectors.flatMap((connector) => connector.methods).length;
    const snippet = (name: string) => ({
      name,
      description: `Saved ${name}.`,
      code: "async () => 1",
    });
    // each search of the runtime builds a new view with the journal's snippets
    for (let index = 0; index < 20; index++)
      await catalog.withSnippets([snippet("a"), snippet("b")]).search(`refund ${index}`);
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        catalog.withSnippets([snippet("a"), snippet("b")]).search(`charge ${index}`),
      ),
    );
    await catalog.withSnippets([snippet("a"), snippet("b"), snippet("c")]).search("customer");
    const texts = embedded.flat();
    expect(texts.filter((text) => /^(a|b|c): Saved/.test(text)).sort()).toEqual([
      "a: Saved a.",
      "b: Saved b.",
      "c: Saved c.",
    ]);
    // every item once, every query once
    expect(texts).toHaveLength(items + 3 + 41);
  });

  it("keeps the embeddings of at most MAX_EMBEDDED_SNIPPETS snippets, those of the latest view", async () => {
    let texts = 0;
    const catalog = createCatalog({
      connectors: [shop],
      embed: async (batch) => {
        texts += batch.length;
        return batch.map(() => [1, 0]);
      },
    });
    const many = Array.from({ length: MAX_EMBEDDED_SNIPPETS + 100 }, (_, index) => ({
      name: `s${index}`,
      code: "async () => 1",
    }));
    await catalog.withSnippets(many).search("refund");
    const first = texts;
    await catalog.withSnippets(many).search("refund");
    // the query, and the snippets past the bound again
    expect(texts - first).toBe(1 + 100);
  });

  it("remembers no embedding that failed or came back in the wrong number", async () => {
    let fail = true;
    let short = false;
    let calls = 0;
    const catalog = createCatalog({
      connectors: [shop],
      embed: async (texts) => {
        calls++;
        if (fail) throw new Error("model offline");
        return (short ? texts.slice(1) : texts).map(() => [1, 0]);
      },
    });
    expect((await catalog.search("refund")).results[0]?.path).toBe("shop.create_refund");
    fail = false;
    short = true;
    expect((await catalog.search("refund")).results[0]?.path).toBe("shop.create_refund");
    short = false;
    const before = calls;
    await catalog.search("refund");
    // the items are asked again (neither failure was kept), and the query
    expect(calls - before).toBe(2);
    await catalog.search("refund");
    expect(calls - before).toBe(3);
    // a query whose embedding fails costs only itself: the items' are kept
    fail = true;
    expect((await catalog.search("refund")).results[0]?.path).toBe("shop.create_refund");
    fail = false;
    await catalog.search("refund");
    expect(calls - before).toBe(5);
  });

  it("hands the embed function at most MAX_QUERY_LENGTH characters of a query", async () => {
    const seen: number[] = [];
    const embedded = createCatalog({
      connectors: [shop, github],
      embed: async (texts) => {
        seen.push(...texts.map((text) => text.length));
        return texts.map(() => [1, 0]);
      },
    });
    await embedded.search(`refund ${"y".repeat(100_000)}`);
    expect(Math.max(...seen)).toBeLessThanOrEqual(MAX_QUERY_LENGTH);
  });

  it("answers a describe target longer than MAX_TARGET_LENGTH with what to do, without ranking it", () => {
    const target = `shop.${"refund".repeat(20_000)}`;
    const output = catalog.describe(target);
    expect(output.kind).toBe("method");
    expect(output.path.length).toBeLessThanOrEqual(100);
    expect(output.description).toContain(`at most ${MAX_TARGET_LENGTH} characters`);
    expect(output.types).toContain("codemode.search");
    expect(output.types.length).toBeLessThan(1_000);
    // a target at the limit is still looked up and answered with the nearest paths
    const atLimit = `shop.refund${" ".repeat(MAX_TARGET_LENGTH)}`;
    expect(catalog.describe(atLimit).types).toContain("shop.create_refund");
    expect(catalog.describe(`shop.${"x".repeat(MAX_TARGET_LENGTH)}`).description).toContain(
      `at most ${MAX_TARGET_LENGTH} characters`,
    );
  });

  it("exports the limits from the package", async () => {
    const typegen = await import("./index.ts");
    expect(typegen.MAX_QUERY_LENGTH).toBe(MAX_QUERY_LENGTH);
    expect(typegen.MAX_QUERY_TERMS).toBe(MAX_QUERY_TERMS);
    expect(typegen.MAX_TARGET_LENGTH).toBe(MAX_TARGET_LENGTH);
  });
});
