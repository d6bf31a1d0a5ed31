// The process `startWranglerDev` spawns: an app's Worker served the way `wrangler dev` serves it
// (wrangler's own dev server, the app's wrangler.jsonc, local state), except that it watches no files.
// `wrangler dev` rebuilds and restarts workerd whenever a folder its bundle read changes, and while the
// tests run other tasks write into those folders (a package's dist/, .turbo/, node_modules/.vite):
// the restart drops the page's WebSocket and the chat turn in flight. It listens on a port the system
// picks when it binds (port 0): a port found free beforehand and bound later could be taken in between
// by any of the servers other tests start at the same time (EADDRINUSE). The address it got is the
// last line it prints, READY_MARK and the url. Run by Node (types stripped):
//   node dev-worker-process.ts '{"appDir":…,"state":…,"vars":{…}}'
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** the start of the line that tells the parent process the server's url, once it answers */
export const READY_MARK = "codemode dev worker ready at ";

export interface DevWorkerProcessOptions {
  appDir: string;
  /** the folder of the local state (Durable Object SQLite and the rest) */
  state: string;
  /** plain-text vars over the app's own */
  vars: Record<string, string>;
}

interface StartedWorker {
  ready: Promise<void>;
  /** where the dev server listens, the port it bound included */
  url: Promise<URL>;
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
      // 0: the system picks a free port as the server binds it, so no other process can take it first
      server: { hostname: "127.0.0.1", port: 0 },
      persist: options.state,
      watch: false,
      liveReload: false,
      remote: false,
      inspector: false,
    },
  });
  await worker.ready;
  const url = await worker.url;
  console.log(`${READY_MARK}${url.origin}`);
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
