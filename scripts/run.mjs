#!/usr/bin/env node
// Sets the workspace up on a machine that has only Node.js and npm, then runs one task:
//   node scripts/run.mjs test    typecheck, lint, build + publint, every test project
//   node scripts/run.mjs demo    the project's main job: the demo agent under `wrangler dev`
//   node scripts/run.mjs bench   every benchmark
// It installs pnpm (globally, or into .tools/ when the global prefix is not writable), the workspace's
// dependencies from the lockfile, and then hands over to pnpm. `npm test` and `npm run demo` call it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PNPM_VERSION = "12.21.0";
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

// The end-to-end tests drive the demo in Debian's Chromium; install it when it is missing.
const CHROMIUM = "/usr/bin/chromium";

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  console.log("> installing Chromium (Debian package chromium) for the browser tests");
  const root = process.getuid?.() === 0;
  const aptEnv = { ...env, DEBIAN_FRONTEND: "noninteractive" };
  const apt = (args) =>
    root
      ? run("apt-get", args, { env: aptEnv })
      : run("sudo", ["--preserve-env=DEBIAN_FRONTEND", "apt-get", ...args], { env: aptEnv });
  const install = () => apt(["install", "-y", "chromium"]) === 0;
  if (!install()) {
    // a fresh machine has no package lists yet
    if (apt(["update"]) !== 0 || !install()) {
      console.error(
        `Chromium is needed for the browser tests and could not be installed. Install Debian's package yourself (apt-get install -y chromium, as root) so that ${CHROMIUM} exists, then run the tests again.`,
      );
      process.exit(1);
    }
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`apt-get installed chromium, but ${CHROMIUM} is still missing.`);
    process.exit(1);
  }
}

ensurePnpm();
if (task === "test") ensureChromium();
const frozen = existsSync(join(root, "pnpm-lock.yaml")) ? ["--frozen-lockfile"] : [];
if (run("pnpm", ["install", ...frozen]) !== 0) process.exit(1);
process.exit(run("pnpm", tasks[task]));
