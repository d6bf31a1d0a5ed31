// The operation a method names, from documents read by readOperations: its exact text and digest,
// what changes it and what does not, and that a hostile document's base URL or path (line breaks,
// bidi overrides, lone surrogates, thousands of characters) still gives one line core accepts.
import { createHash } from "node:crypto";
import { MAX_OPERATION_LENGTH, operationProblem } from "@codemode/core";
import { describe, expect, it } from "vitest";
import type { Credential } from "./credentials.ts";
import type { OpenApiDocument } from "./openapi-document.ts";
import {
  credentialsForm,
  escapeHatchOperationName,
  operationName,
  type RequestForm,
  requestForm,
} from "./operation-name.ts";
import { readOperations } from "./read-operations.ts";
import { chooseCredentials, readDocumentSecurity } from "./security.ts";

const BASE = "https://api.example.com/v1";
const ok = { "200": { description: "OK." } };
const bearer: Credential = { type: "bearer", token: "tok_secret_1234" };
const key: Credential = { type: "apiKey", in: "header", name: "X-Api-Key", value: "key_5678" };

function taskDocument(): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Tasks", version: "1" },
    servers: [{ url: BASE }],
    security: [{ bearerAuth: [] }],
    paths: {
      "/tasks/{id}": {
        post: {
          operationId: "updateTask",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "notify", in: "query", schema: { type: "boolean" } },
            { name: "X-Trace", in: "header", schema: { type: "string" } },
          ],
          requestBody: {
            required: true,
            content: { "application/json": { schema: { type: "object" } } },
          },
          responses: ok,
        },
      },
    },
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "X-Api-Key" },
      },
    },
  };
}

/** The request form of every operation of `document`, by method name. */
function formsOf(
  document: Record<string, unknown>,
  credentials: readonly Credential[] = [bearer, key],
): Map<string, RequestForm> {
  const operations = readOperations(document as unknown as OpenApiDocument);
  const security = readDocumentSecurity(document as unknown as OpenApiDocument, operations);
  return new Map(
    operations.map((operation) => {
      const choice = chooseCredentials(operation.name, operation.security, security, credentials);
      return [
        operation.name,
        requestForm(operation, credentialsForm(operation.security, security, choice)),
      ];
    }),
  );
}

function onlyForm(document: Record<string, unknown>): RequestForm {
  return [...formsOf(document).values()][0] as RequestForm;
}

/** A document with one GET operation at `path`. */
function pathDocument(path: string): Record<string, unknown> {
  return {
    openapi: "3.0.3",
    info: { title: "Paths", version: "1" },
    paths: { [path]: { get: { operationId: "reach", responses: ok } } },
  };
}

describe("operationName", () => {
  it("is the method, the base URL with the path template, and the digest of the canonical form", async () => {
    const form = onlyForm(taskDocument());
    // the description the digest is taken over, written out: keys sorted, parameters sorted by
    // location and name, no secret anywhere
    const canonical = JSON.stringify({
      base: BASE,
      form: {
        body: {
          contentType: "application/json",
          encoding: [],
          key: "body",
          required: true,
          writing: "json",
        },
        credentials: {
          requires: [[{ name: "bearerAuth", type: "bearer" }]],
          sends: [{ type: "bearer" }],
        },
        method: "POST",
        parameters: [
          {
            explode: false,
            in: "header",
            json: false,
            key: "X-Trace",
            name: "X-Trace",
            required: false,
            style: "simple",
          },
          {
            explode: false,
            in: "path",
            json: false,
            key: "id",
            name: "id",
            required: true,
            style: "simple",
          },
          {
            explode: true,
            in: "query",
            json: false,
            key: "notify",
            name: "notify",
            required: false,
            style: "form",
          },
        ],
        path: "/tasks/{id}",
      },
    });
    const digest = createHash("sha256").update(canonical).digest("hex").slice(0, 32);
    const operation = await operationName(BASE, form);
    expect(operation).toBe(`POST https://api.example.com/v1/tasks/{id} (request form ${digest})`);
    expect(operation).toMatch(/^POST \S+ \(request form [0-9a-f]{32}\)$/);
    expect(operation).not.toContain("tok_secret");
    expect(operationProblem(operation)).toBeUndefined();
  });

  it("does not change when the document lists parameters or encodings in another order", async () => {
    const document = taskDocument();
    const reordered = structuredClone(document) as ReturnType<typeof taskDocument> & {
      paths: Record<string, { post: { parameters: unknown[] } }>;
    };
    reordered.paths["/tasks/{id}"]?.post.parameters.reverse();
    const named = async (doc: Record<string, unknown>) => operationName(BASE, onlyForm(doc));
    expect(await named(reordered)).toBe(await named(document));

    const form = (encoding: Record<string, unknown>) => ({
      openapi: "3.0.3",
      info: { title: "Form", version: "1" },
      paths: {
        "/notes": {
          post: {
            requestBody: {
              content: {
                "application/x-www-form-urlencoded": {
                  schema: { type: "object" },
                  encoding,
                },
              },
            },
            responses: ok,
          },
        },
      },
    });
    const a = { tags: { explode: false }, ids: { style: "pipeDelimited" } };
    const b = { ids: { style: "pipeDelimited" }, tags: { explode: false } };
    expect(await named(form(a))).toBe(await named(form(b)));
    expect(await named(form({ ...a, tags: { explode: true } }))).not.toBe(await named(form(a)));
  });

  it("names the credentials by scheme and place, a refused call and an undeclared security", async () => {
    const form = onlyForm(taskDocument());
    expect(form.credentials).toEqual({
      requires: [[{ name: "bearerAuth", type: "bearer" }]],
      sends: [{ type: "bearer" }],
    });
    const keyed = taskDocument();
    keyed.security = [{ apiKeyHeader: [] }];
    expect(onlyForm(keyed).credentials).toEqual({
      requires: [[{ name: "apiKeyHeader", type: "apiKey", in: "header", parameter: "X-Api-Key" }]],
      sends: [{ type: "apiKey", in: "header", name: "X-Api-Key" }],
    });
    expect([...formsOf(taskDocument(), []).values()][0]?.credentials.sends).toBeNull();
    const silent = taskDocument();
    delete silent.security;
    expect([...formsOf(silent, [bearer]).values()][0]?.credentials).toEqual({
      requires: null,
      sends: [{ type: "bearer" }],
    });
  });

  it("percent-encodes what a person cannot see, so a hostile path stays one visible line", async () => {
    const cases: Array<[string, string]> = [
      ["\n", "%0A"],
      ["\r", "%0D"],
      ["\t", "%09"],
      ["\u0000", "%00"],
      ["\u007f", "%7F"],
      ["\u202e", "%E2%80%AE"],
      ["\u200b", "%E2%80%8B"],
      ["\u2028", "%E2%80%A8"],
      ["\u00a0", "%C2%A0"],
      [" ", "%20"],
      ["\ud800", "%EF%BF%BD"],
      // what renders as nothing: a Hangul filler, a variation selector, the braille blank
      ["\u3164", "%E3%85%A4"],
      ["\ufe0f", "%EF%B8%8F"],
      ["\u2800", "%E2%A0%80"],
    ];
    for (const [hidden, shown] of cases) {
      const operation = await operationName(BASE, onlyForm(pathDocument(`/a${hidden}b/{id}`)));
      expect(operationProblem(operation)).toBeUndefined();
      expect(operation).toContain(`${BASE}/a${shown}b/{id} (request form `);
    }
    // visible text, also outside ASCII, stays as it is
    const accented = await operationName(BASE, onlyForm(pathDocument("/café/😀")));
    expect(accented).toContain("/café/😀 (request form ");
    // a base URL from a document is shown the same way
    const base = await operationName(
      "https://api.example.com/\u202ev1\n",
      onlyForm(pathDocument("/x")),
    );
    expect(base).toContain("https://api.example.com/%E2%80%AEv1%0A/x (request form ");
    expect(operationProblem(base)).toBeUndefined();
  });

  it("shortens a huge URL in the middle, keeping the whole of it in the digest", async () => {
    const named = (path: string) => operationName(BASE, onlyForm(pathDocument(path)));
    const long = `/${"a".repeat(3000)}/{id}`;
    const operation = await named(long);
    expect(operationProblem(operation)).toBeUndefined();
    expect(operation.length).toBe(MAX_OPERATION_LENGTH);
    expect(operation).toMatch(
      /^GET https:\/\/api\.example\.com\/v1\/a+…a+\/\{id\} \(request form [0-9a-f]{32}\)$/,
    );
    // two URLs that differ only where the line leaves out still name different operations
    const other = await named(`/${"a".repeat(1500)}b${"a".repeat(1499)}/{id}`);
    expect(other.slice(0, -34)).toBe(operation.slice(0, -34));
    expect(other).not.toBe(operation);
    // the cut never splits a surrogate pair, nor do encoded hidden characters overflow the line
    for (const path of [
      `/${"😀".repeat(1500)}`,
      `/x${"😀".repeat(1500)}`,
      `/${"\u202e".repeat(3000)}`,
    ]) {
      const shortened = await named(path);
      expect(operationProblem(shortened)).toBeUndefined();
      expect(shortened.length).toBeLessThanOrEqual(MAX_OPERATION_LENGTH);
    }
  });
});

describe("escapeHatchOperationName", () => {
  const undeclared = { requires: null, sends: [] };

  it("is HTTP and the base URL, with a digest over every operation's form, in any order", async () => {
    const forms = [...formsOf(taskDocument()).values()];
    const listed = {
      openapi: "3.0.3",
      info: { title: "More", version: "1" },
      paths: { "/a": { get: { responses: ok } }, "/b": { delete: { responses: ok } } },
    };
    const more = [...forms, ...formsOf(listed).values()];
    const operation = await escapeHatchOperationName(BASE, more, undeclared);
    expect(operation).toMatch(
      /^HTTP https:\/\/api\.example\.com\/v1 \(request form [0-9a-f]{32}\)$/,
    );
    expect(await escapeHatchOperationName(BASE, [...more].reverse(), undeclared)).toBe(operation);
    // one operation's form, one left out, or other credentials for undeclared paths change it
    const moved = structuredClone(more);
    (moved[0] as RequestForm).parameters[0] = {
      ...((moved[0] as RequestForm).parameters[0] as RequestForm["parameters"][number]),
      in: "cookie",
    };
    expect(await escapeHatchOperationName(BASE, moved, undeclared)).not.toBe(operation);
    const excluded = [
      ...more.slice(1),
      { method: more[0]?.method ?? "", path: more[0]?.path ?? "", offered: false as const },
    ];
    expect(await escapeHatchOperationName(BASE, excluded, undeclared)).not.toBe(operation);
    const carried = { requires: null, sends: [{ type: "bearer" as const }] };
    expect(await escapeHatchOperationName(BASE, more, carried)).not.toBe(operation);
  });
});
