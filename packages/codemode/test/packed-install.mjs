#!/usr/bin/env node
// Installs `codemode` as a user would, from packed tarballs into a fresh npm project outside the
// workspace, runs the README's first example there, and fails if the install brought an adapter's
// stack nobody asked for (the AI SDK, the MCP SDK, the OpenAPI parser), more than MAX_PACKAGES
// packages, or if a subpath whose adapter is missing fails without naming the package to install.
// Run after `build`.
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

/** The workspace packages `codemode` needs, found from its dependencies. */
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
  const tarballs = [...workspaceClosure("codemode").values()].map((folder) => {
    const out = run("pnpm", ["pack", "--pack-destination", project], join(packages, folder));
    return out.trim().split("\n").pop().trim();
  });
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "try-codemode", private: true, type: "module" }),
  );
  run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...tarballs], project);

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

const issues = functionConnector({
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
  store: sqliteStore(new DatabaseSync("codemode.db")),
  executor: new QuickJSExecutor(),
  connectors: [issues],
});
const first = await runtime.execute({ code: 'await issues.create({ title: "Bug" })' });
const second = await runtime.approve({ executionId: first.executionId });
console.log(JSON.stringify({ first: first.status, second: second.status, result: second.result }));
`,
  );
  const printed = run("node", ["--no-warnings", "example.mjs"], project).trim().split("\n").pop();
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
  `packed install of codemode: installed alone (${summary}), ran the README example, brought no adapter stack`,
);
