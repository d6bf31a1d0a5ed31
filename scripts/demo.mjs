// `npm run demo`, after scripts/run.mjs has set the workspace up: the demo agent under `wrangler dev`
// with local state, offline. Once the server is ready it prints where to open it, which model is
// active (asked from the running agent) and three things to try (the agent's own suggestions).
import { spawn } from "node:child_process";

const READY = /Ready on (http:\/\/[^\s]+)/;

async function ask(url, path) {
  try {
    const response = await fetch(new URL(path, url), { signal: AbortSignal.timeout(10_000) });
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

async function banner(url) {
  const model = await ask(url, "/api/model");
  const suggestions = (await ask(url, "/api/suggestions")) ?? [];
  const lines = [
    "",
    "  Code Mode demo agent",
    "",
    `  Open   ${url.replace("127.0.0.1", "localhost")}`,
  ];
  if (model) lines.push(`  Model  ${model.label}`);
  if (model?.provider === "offline") {
    lines.push(
      "         For a real model put OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL in",
      "         apps/demo-agent/.dev.vars (any OpenAI-compatible endpoint), or configure Workers AI.",
    );
  }
  if (suggestions.length > 0) {
    lines.push("", "  Try, in the chat:");
    for (const { prompt, shows } of suggestions.slice(0, 3)) {
      lines.push(`    "${prompt}"`, `        ${shows}`);
    }
  }
  lines.push(
    "",
    "  Stop with Ctrl+C. The browser demo: npx wrangler dev in apps/demo-browser.",
    "",
  );
  console.log(lines.join("\n"));
}

/** Runs the demo until it is stopped; resolves with wrangler's exit code. */
export function runDemo({ root, env, args }) {
  return new Promise((resolve) => {
    const child = spawn("pnpm", args, {
      cwd: root,
      // offline: wrangler fetches no Request.cf data from the network (it printed ENOTFOUND traces)
      env: { ...env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
      stdio: ["inherit", "pipe", "pipe"],
    });
    let told = false;
    const watch = (chunk, out) => {
      out.write(chunk);
      const ready = told ? undefined : READY.exec(chunk.toString());
      if (ready?.[1]) {
        told = true;
        void banner(ready[1]);
      }
    };
    child.stdout.on("data", (chunk) => watch(chunk, process.stdout));
    child.stderr.on("data", (chunk) => watch(chunk, process.stderr));
    for (const signal of ["SIGINT", "SIGTERM"]) {
      process.on(signal, () => child.kill(signal));
    }
    child.on("exit", (code) => resolve(code ?? 1));
  });
}
