// Path parameters cannot cut their operation's path short or add to it: every text of a value (an
// item, an object's key as well as its value) is percent-encoded in every path style, a built path
// with a `#` is refused, and the operation a typed call reaches is found from the URL fetch sends.
// The document is read from its URL on a loopback server, which records every request; the
// records beside each preview are left out with `include`, as an application would leave out what
// the model may not read.
import { CodemodeError } from "@codemode/core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenApiConnectorOptions, openApiConnector } from "../src/index.ts";
import { contexts, failure } from "./call-helpers.ts";
import { type HostileServer, json, startHostileServer } from "./hostile-server.ts";
import { PATH_STYLES, pathStylesDocument, previewOf } from "./path-styles-document.ts";

let api: HostileServer;
beforeAll(async () => {
  api = await startHostileServer();
});
afterAll(() => api.close());

let document: ReturnType<typeof pathStylesDocument>;
beforeEach(() => {
  api.requests.length = 0;
  document = pathStylesDocument("/v1");
  api.answer = (request, response) =>
    request.url === "/openapi.json"
      ? json(response, 200, document)
      : json(response, 200, { ok: true });
});

const context = contexts("exec_path");

function records(options: Partial<OpenApiConnectorOptions> = {}) {
  return openApiConnector({
    name: "records",
    document: `${api.origin}/openapi.json`,
    internalUrls: [api.origin],
    include: (operation) => !operation.name.startsWith("record_"),
    ...options,
  });
}

/** What the server received besides the document: path and query, as sent. */
const sent = () =>
  api.requests.filter((request) => request.url !== "/openapi.json").map((request) => request.url);

const code = (error: Error) => (CodemodeError.isInstance(error) ? error.code : error.name);

describe("an object key in a path parameter", () => {
  it("with a # cannot cut the path short to an operation the connector leaves out", async () => {
    const connector = records();
    expect(Object.keys(await connector.methods())).not.toContain("record_simple");
    for (const style of PATH_STYLES) {
      const result = await connector.invoke(
        previewOf(style),
        { id: { "secret-42#": "" } },
        context(),
      );
      expect(result, style.key).toEqual({ ok: true });
    }
    expect(sent()).toEqual([
      "/v1/simple/secret-42%23,/preview",
      "/v1/simpleExploded/secret-42%23=/preview",
      "/v1/label/.secret-42%23,/preview",
      "/v1/labelExploded/.secret-42%23=/preview",
      "/v1/matrix/;id=secret-42%23,/preview",
      "/v1/matrixExploded/;secret-42%23=/preview",
    ]);
  });

  it("with a ? adds no query parameter", async () => {
    const connector = records();
    for (const style of PATH_STYLES) {
      await connector.invoke(
        previewOf(style),
        { id: { "7?include=secrets&tenant=other": "" } },
        context(),
      );
    }
    const urls = sent();
    expect(urls).toHaveLength(PATH_STYLES.length);
    for (const url of urls) {
      expect(url).not.toContain("?");
      expect(url).toContain("7%3Finclude%3Dsecrets%26tenant%3Dother");
      expect(url).toMatch(/\/preview$/);
    }
  });
});

describe("every text of a path parameter", () => {
  const TEXTS = ["a#b", "a?b=c", "a/b", "a%2Fb", "a\\b", "..", "."];
  const shapes = (text: string): Array<[string, unknown]> => [
    ["value", text],
    ["item", [text, "z"]],
    ["key", { [text]: "v" }],
    ["object value", { k: text }],
  ];

  it("stays inside its one segment in every style, or is a dot segment and refused", async () => {
    const connector = records();
    let refused = 0;
    for (const style of PATH_STYLES) {
      for (const text of TEXTS) {
        for (const [shape, id] of shapes(text)) {
          const where = `${style.key}, ${shape} ${JSON.stringify(text)}`;
          api.requests.length = 0;
          const outcome = await connector.invoke(previewOf(style), { id }, context()).then(
            () => undefined,
            (error: Error) => error,
          );
          if (outcome) {
            // only "." and ".." can make a segment of their own (a label's "." before ".", or alone)
            expect(code(outcome), where).toBe("INVALID_INPUT");
            expect(outcome.message, where).toContain('has a "." or ".." segment');
            expect([".", ".."], where).toContain(text);
            expect(sent(), where).toEqual([]);
            refused++;
            continue;
          }
          const [url] = sent();
          expect(sent(), where).toHaveLength(1);
          const [root, version, first, segment, last, ...rest] = (url ?? "").split("/");
          expect([root, version, first, last, rest], where).toEqual([
            "",
            "v1",
            style.key,
            "preview",
            [],
          ]);
          expect(segment, where).not.toMatch(/[#?\\]/);
          expect(decodeURIComponent(segment ?? ""), where).toContain(text);
        }
      }
    }
    // a bare "." or ".." in simple style, and "." after a label's "."
    expect(refused).toBeGreaterThan(0);
  });
});

describe("a path the document writes", () => {
  it("with a # is refused before anything is sent", async () => {
    document.paths["/notes/{id}#latest"] = {
      get: {
        operationId: "getNote",
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
        responses: { "200": { description: "OK." } },
      },
    };
    const error = await failure(records().invoke("getNote", { id: "7" }, context()));
    expect(code(error)).toBe("INVALID_INPUT");
    expect(error.message).toContain('has "#", which would end or change the path');
    expect(sent()).toEqual([]);
  });
});
