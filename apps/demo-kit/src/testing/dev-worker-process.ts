// The process `startWranglerDev` spawns: an app's Worker served the way `wrangler dev` serves it
// (wrangler's own dev server, the app's wrangler.jsonc, local state), except that it watches no files.
// `wrangler dev` rebuilds and restarts workerd whenever a folder its bundle read changes, and while the
// tests run other tasks write into those folders (a package's dist/, .turbo/, node_modules/.vite):
// the restart drops the page's WebSocket and the chat turn in flight. Run by Node (types stripped):
//   node dev-worker-process.ts '{"appDir":…,"port":…,"state":…,"vars":{…}}'
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export interface DevWorkerProcessOptions {
  appDir: string;
  port: number;
  /** the folder of the local state (Durable Object SQLite and the rest) */
  state: string;
  /** plain-text vars over the app's own */
  vars: Record<string, string>;
}

interface StartedWorker {
  ready: Promise<void>;
  dispose(): Promise<void>;
}

interface WranglerApi {
  unstable_startWorker(input: {
    config: string;
    bindings: Record<string, { type: "plain_text"; value: string }>;
    dev: {
      server: { hostname: string; port: number };
      persist: string;
      watch: false;
      liveReload: false;
      remote: false;
      inspector: false;
    };
  }): Promise<StartedWorker>;
}

async function serve(options: DevWorkerProcessOptions) {
  const entry = createRequire(join(options.appDir, "package.json")).resolve("wrangler");
  const wrangler = (await import(pathToFileURL(entry).href)) as WranglerApi;
  const worker = await wrangler.unstable_startWorker({
    config: join(options.appDir, "wrangler.jsonc"),
    bindings: Object.fromEntries(
      Object.entries(options.vars).map(([name, value]) => [name, { type: "plain_text", value }]),
    ),
    dev: {
      server: { hostname: "127.0.0.1", port: options.port },
      persist: options.state,
      watch: false,
      liveReload: false,
      remote: false,
      inspector: false,
    },
  });
  await worker.ready;
  console.log(`Ready on http://127.0.0.1:${options.port}`);
  const stop = () => {
    worker.dispose().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await serve(JSON.parse(process.argv[2] ?? "{}") as DevWorkerProcessOptions);
}
