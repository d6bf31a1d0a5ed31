#!/usr/bin/env node
// Installs `codemode` as a user would, from packed tarballs into a fresh npm project outside the
// workspace, runs the README's first example there, and fails if the install brought an adapter's
// stack nobody asked for (the AI SDK, the MCP SDK, the OpenAPI parser), more than MAX_PACKAGES
// packages, or if a subpath whose adapter is missing fails without naming the package to install.
// Then it installs `@codemode/mcp-server` beside it (its peers, the MCP SDK's server and zod, from
// the registry), serves the example's runtime with it to an MCP request, and, with
// `@codemode/connector-mcp` installed too, checks that `codemode/mcp` re-exports it. Run after
// `build`.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

const packages = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const project = mkdtempSync(join(tmpdir(), "codemode-install-"));
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const npmInstall = (tarballs) =>
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], project);

/** `folder`'s package and the workspace packages it needs, found from their dependencies. */
function workspaceClosure(folder, seen = new Map()) {
  const manifest = JSON.parse(readFileSync(join(packages, folder, "package.json"), "utf8"));
  if (seen.has(manifest.name)) return seen;
  seen.set(manifest.name, folder);
  for (const [name, range] of Object.entries(manifest.dependencies ?? {})) {
    if (String(range).startsWith("workspace:"))
      workspaceClosure(name.replace("@codemode/", ""), seen);
  }
  return seen;
}

/** The tarballs of `folder`'s package and the workspace packages it needs, packed once each. */
const packed = new Map();
function packClosure(folder) {
  return [...workspaceClosure(folder).entries()].map(([name, member]) => {
    if (!packed.has(name)) {
      const out = run("pnpm", ["pack", "--pack-destination", project], join(packages, member));
      packed.set(name, out.trim().split("\n").pop().trim());
    }
    return packed.get(name);
  });
}

/** The README example's `issues` connector and a runtime over it and `store`, as module text. */
const issuesRuntime = (store) => `const issues = functionConnector({
  name: "issues",
  methods: {
    create: {
      description: "Open an issue.",
      requiresApproval: true,
      execute: async ({ title }) => ({ number: 7, title }),
    },
  },
});
const runtime = createCodemodeRuntime({
  store: ${store},
  executor: new QuickJSExecutor(),
  connectors: [issues],
});`;

/** The last line `node <file>` printed in the project. */
const printedBy = (file) => run("node", ["--no-warnings", file], project).trim().split("\n").pop();

/** The most packages (ours included) that installing `codemode` alone may bring. */
const MAX_PACKAGES = 12;

/**
 * Every installed package under `node_modules`: each folder with a package.json, scoped ones and
 * nested `node_modules` included, `.bin` left out. Returns their paths relative to `root`.
 */
function installedPackages(root, modules = join(root, "node_modules"), found = []) {
  if (!existsSync(modules)) return found;
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith(".")) continue;
    const folder = join(modules, entry);
    if (entry.startsWith("@")) {
      for (const scoped of readdirSync(folder)) addPackage(root, join(folder, scoped), found);
    } else {
      addPackage(root, folder, found);
    }
  }
  return found;
}

function addPackage(root, folder, found) {
  if (!existsSync(join(folder, "package.json"))) return;
  found.push(
    relative(root, folder)
      .split(sep)
      .join("/")
      .replace(/^node_modules\//, ""),
  );
  installedPackages(root, join(folder, "node_modules"), found);
}

/** Bytes of the files under `folder`, symlinks not followed. */
function sizeOf(folder) {
  let bytes = 0;
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    const stat = lstatSync(path);
    bytes += stat.isDirectory() ? sizeOf(path) : stat.size;
  }
  return bytes;
}

const failures = [];
let summary = "";
try {
  const tarballs = packClosure("codemode");
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "try-codemode", private: true, type: "module" }),
  );
  npmInstall(tarballs);

  const installed = installedPackages(project);
  const megabytes = (sizeOf(join(project, "node_modules")) / 1e6).toFixed(1);
  summary = `${installed.length} packages, ${megabytes} MB in node_modules`;
  if (installed.length > MAX_PACKAGES) {
    failures.push(
      `installing codemode brought ${installed.length} packages, more than ${MAX_PACKAGES}:\n  ${installed.join("\n  ")}`,
    );
  }

  for (const unwanted of [
    "ai",
    "@modelcontextprotocol/sdk",
    "@modelcontextprotocol/server",
    "@modelcontextprotocol/client",
    "@apidevtools/swagger-parser",
    "zod",
    "@tanstack/ai",
    "@codemode/mcp-server",
  ]) {
    if (existsSync(join(project, "node_modules", unwanted)))
      failures.push(`installing codemode brought ${unwanted}`);
  }

  // the README's first example, with node:sqlite as the store
  writeFileSync(
    join(project, "example.mjs"),
    `import { DatabaseSync } from "node:sqlite";
import { createCodemodeRuntime, functionConnector, sqliteStore } from "codemode";
import { QuickJSExecutor } from "codemode/quickjs";

${issuesRuntime('sqliteStore(new DatabaseSync("codemode.db"))')}
const first = await runtime.execute({ code: 'await issues.create({ title: "Bug" })' });
const second = await runtime.approve({ executionId: first.executionId });
console.log(JSON.stringify({ first: first.status, second: second.status, result: second.result }));
`,
  );
  const printed = printedBy("example.mjs");
  const expected = JSON.stringify({
    first: "paused",
    second: "completed",
    result: { number: 7, title: "Bug" },
  });
  if (printed !== expected) failures.push(`the example printed ${printed}, not ${expected}`);

  for (const [subpath, needed] of [
    ["codemode/ai", "@codemode/connector-ai"],
    ["codemode/openapi", "@codemode/connector-openapi"],
    ["codemode/mcp", "@codemode/connector-mcp"],
  ]) {
    try {
      run("node", ["--input-type=module", "-e", `await import("${subpath}")`], project);
      failures.push(`${subpath} loaded without ${needed}`);
    } catch (error) {
      if (!String(error.stderr).includes(needed))
        failures.push(`${subpath} failed without naming ${needed}: ${error.stderr}`);
    }
  }

  // @codemode/mcp-server beside codemode, as its README installs it: the example's runtime served
  // to a 2026-07-28 `tools/call` of `codemode` (stateless), which comes back paused for the host
  npmInstall(packClosure("mcp-server"));
  writeFileSync(
    join(project, "mcp-example.mjs"),
    `import { codeMcpServer } from "@codemode/mcp-server";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { createCodemodeRuntime, functionConnector, memoryStore } from "codemode";
import { QuickJSExecutor } from "codemode/quickjs";

${issuesRuntime("memoryStore()")}
const handler = createMcpHandler(() => codeMcpServer({ runtime, approvals: "host" }), {
  legacy: "reject",
});
const response = await handler.fetch(
  new Request("http://localhost/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "codemode",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "codemode",
        arguments: { code: 'async () => await issues.create({ title: "Bug" })' },
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "try-codemode", version: "1" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  }),
);
const text = await response.text();
const json = text.startsWith("{")
  ? text
  : text.split("\\n").find((line) => line.startsWith("data: ")).slice(6);
const reply = JSON.parse(json).result.structuredContent;
const approved = await runtime.approve({ executionId: reply.executionId });
console.log(JSON.stringify({ reply: reply.status, approved: approved.status, result: approved.result }));
await handler.close();
`,
  );
  const served = printedBy("mcp-example.mjs");
  const expectedServed = JSON.stringify({
    reply: "paused",
    approved: "completed",
    result: { number: 7, title: "Bug" },
  });
  if (served !== expectedServed)
    failures.push(`the MCP example printed ${served}, not ${expectedServed}`);

  // with @codemode/connector-mcp too, codemode/mcp loads and its server half is @codemode/mcp-server
  npmInstall(packClosure("connector-mcp"));
  const same = run(
    "node",
    [
      "--input-type=module",
      "-e",
      `const facade = await import("codemode/mcp");
const adapter = await import("@codemode/mcp-server");
const names = Object.keys(adapter).sort();
const differ = names.filter((name) => facade[name] !== adapter[name]);
console.log(JSON.stringify({ names, differ, mcpConnector: typeof facade.mcpConnector }));`,
    ],
    project,
  )
    .trim()
    .split("\n")
    .pop();
  const expectedSame = JSON.stringify({
    names: [
      "APPROVAL_STATE_PREFIX",
      "MAX_REPLY_LENGTH",
      "TASKS_EXTENSION",
      "codeMcpServer",
      "registerCodemodeTools",
    ],
    differ: [],
    mcpConnector: "function",
  });
  if (same !== expectedSame)
    failures.push(`codemode/mcp beside @codemode/mcp-server printed ${same}, not ${expectedSame}`);
} catch (error) {
  failures.push(`${error.message}\n${error.stderr ?? ""}`);
} finally {
  rmSync(project, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`packed install of codemode failed:\n- ${failures.join("\n- ")}`);
  process.exit(1);
}
console.log(
  `packed install of codemode: installed alone (${summary}), ran the README example, brought no adapter stack; @codemode/mcp-server beside it served the example over MCP, and codemode/mcp re-exports it`,
);
