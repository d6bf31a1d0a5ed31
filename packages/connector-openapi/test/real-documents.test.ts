// The two large real documents the typegen package keeps (GitHub's and Stripe's, see
// packages/typegen/fixtures/README.md): every operation becomes a method with a valid name, `$ref`
// parameters are resolved, and the declarations render with their component schemas as named types.
import { readFileSync } from "node:fs";
import type { ConnectorMethod } from "@codemode/core";
import { createCatalog, toIdentifier } from "@codemode/typegen";
import { beforeAll, describe, expect, it } from "vitest";
import { buildRequest, type OpenApiConnector, openApiConnector } from "../src/index.ts";
import type { OpenApiDocument } from "../src/openapi-document.ts";
import { readOperations } from "../src/read-operations.ts";
import { connectorDefinition } from "./connector-definition.ts";

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

function fixture(name: "github" | "stripe"): OpenApiDocument {
  const url = new URL(`../../typegen/fixtures/openapi/${name}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as OpenApiDocument;
}

const CASES = [
  { name: "github", operations: 1223 },
  { name: "stripe", operations: 452 },
] as const;

describe.each(CASES)("the real $name document", ({ name, operations }) => {
  let connector: OpenApiConnector;
  let methods: Record<string, ConnectorMethod>;
  let document: OpenApiDocument;

  beforeAll(async () => {
    document = fixture(name);
    // applications make connectors for every request: the parsed document is reused. Counted, not
    // timed: the reads of its `paths` object (its path items, through a proxy) by the first
    // connector, which parses, validates and reads every operation, and by the next one.
    let reads = 0;
    const paths = new Proxy(document.paths as object, {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver);
      },
      ownKeys(target) {
        reads++;
        return Reflect.ownKeys(target);
      },
    });
    const watched = new Proxy(document, {
      get: (target, key, receiver) =>
        key === "paths" ? paths : Reflect.get(target, key, receiver),
    });
    connector = openApiConnector({ name, document: watched });
    methods = await connector.methods();
    const first = reads;
    await openApiConnector({ name, document: watched }).methods();
    const second = reads - first;
    console.log(
      `${name}: ${Object.keys(methods).length} methods; paths read ${first} times, then ${second}`,
    );
    expect(first).toBeGreaterThanOrEqual(Object.keys(document.paths ?? {}).length);
    expect(second).toBe(0);
  }, 120_000);

  it("makes every operation a method with a valid, unique name, plus the escape hatch", () => {
    const names = Object.keys(methods);
    expect(names).toHaveLength(operations + 1);
    expect(names).toContain("request");
    for (const method of names) {
      expect(method).toMatch(IDENTIFIER);
      expect(toIdentifier(method)).toBe(method);
    }
  });

  it("resolves every $ref parameter into the method's input", () => {
    for (const [method, definition] of Object.entries(methods)) {
      const text = JSON.stringify(definition.inputSchema);
      expect(text, method).not.toContain("#/components/parameters/");
      expect(definition.inputSchema, method).toMatchObject({ type: "object" });
    }
  });

  it("renders its declarations, component schemas as named types", () => {
    const catalog = createCatalog({ connectors: [connectorDefinition(connector, methods)] });
    const all = catalog.connectors[0]?.all() ?? "";
    expect(all).toContain(`declare const ${name}: {`);
    // only outputs without a 2xx body (downloads that redirect, the escape hatch) stay unknown
    expect(all).not.toMatch(/^type (?!\w+Output )\w+ = unknown;$/m);
    expect(all).toMatch(name === "github" ? /^type FullRepository = \{/m : /^type Customer = \{/m);
  }, 120_000);
});

describe("spot checks", () => {
  it("github: repos/get takes owner and repo (both $ref parameters) and returns a FullRepository", async () => {
    const connector = openApiConnector({ name: "github", document: fixture("github") });
    const methods = await connector.methods();
    const get = methods.repos_get as ConnectorMethod;
    expect(get.requiresApproval).toBeUndefined();
    expect(get.keywords).toEqual(
      expect.arrayContaining(["GET", "/repos/{owner}/{repo}", "repos/get"]),
    );
    expect(get.inputSchema).toMatchObject({
      properties: { owner: { type: "string" }, repo: { type: "string" } },
      required: ["owner", "repo"],
    });
    expect(get.outputSchema).toEqual({ $ref: "#/components/schemas/full-repository" });
    expect(methods.issues_create?.requiresApproval).toBe(true);

    const catalog = createCatalog({ connectors: [connectorDefinition(connector, methods)] });
    const described = catalog.describe("github.repos_get").types;
    expect(described).toContain("repos_get(input: ReposGetInput): Promise<ReposGetOutput>;");
    expect(described).toMatch(/type ReposGetInput = \{[\s\S]*owner: string;[\s\S]*repo: string;/);
    expect(described).toContain("type ReposGetOutput = FullRepository;");
    expect(described).toContain("type FullRepository = {");
    const create = catalog.describe("github.issues_create").types;
    expect(create).toContain("@approval");
    expect(create).toMatch(/body: \{[\s\S]*title: string \| number;/);
  });

  it("stripe: form bodies, deepObject queries and no body on GET", async () => {
    const document = fixture("stripe");
    const byName = new Map(
      readOperations(document).map((operation) => [operation.name, operation]),
    );
    const post = byName.get("PostCustomers");
    expect(post?.body?.contentType).toBe("application/x-www-form-urlencoded");
    const request = buildRequest("stripe", post as NonNullable<typeof post>, {
      body: { email: "a@example.com", metadata: { order: "7" }, expand: ["tax"] },
    });
    expect(request.body).toBe("email=a%40example.com&metadata%5Border%5D=7&expand%5B0%5D=tax");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");

    const list = byName.get("GetCharges");
    expect(list?.body).toBeUndefined();
    const query = buildRequest("stripe", list as NonNullable<typeof list>, {
      limit: 3,
      expand: ["data.customer"],
      created: { gte: 1700000000 },
    }).query;
    expect(query).toEqual([
      "created%5Bgte%5D=1700000000",
      "expand%5B0%5D=data.customer",
      "limit=3",
    ]);

    const connector = openApiConnector({ name: "stripe", document });
    const methods = await connector.methods();
    const catalog = createCatalog({ connectors: [connectorDefinition(connector, methods)] });
    const described = catalog.describe("stripe.PostCustomers").types;
    expect(described).toContain(
      "PostCustomers(input?: PostCustomersInput): Promise<PostCustomersOutput>;",
    );
    expect(described).toContain("type PostCustomersOutput = Customer;");
    expect(described).toMatch(/type PostCustomersInput = \{\n\s+body\?: \{/);
  });
});
