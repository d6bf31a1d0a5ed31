// pnpm bench (in packages/executor-iframe): IframeSandboxExecutor in Debian's Chromium. The page is
// bundled with esbuild and served on loopback; medians over several rounds, measured in the page.
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { chromium } from "playwright";
import { CHROMIUM_LAUNCH_OPTIONS } from "../../../vitest.shared.ts";

const here = dirname(fileURLToPath(import.meta.url));
const bundle = await build({
  entryPoints: [join(here, "page.ts")],
  bundle: true,
  format: "esm",
  platform: "browser",
  write: false,
});
const script = bundle.outputFiles[0]?.text ?? "";
const server = createServer((request, response) => {
  if (request.url === "/page.js") {
    response.writeHead(200, { "content-type": "text/javascript" });
    response.end(script);
    return;
  }
  response.writeHead(200, { "content-type": "text/html" });
  response.end('<!doctype html><title>bench</title><script type="module" src="/page.js"></script>');
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const address = server.address();
const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;

const browser = await chromium.launch(CHROMIUM_LAUNCH_OPTIONS);
try {
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForFunction(() => "bench" in window);
  type Bench = {
    empty(options: { prewarm: boolean; gapMs: number; rounds: number }): Promise<number>;
    roundTrip(rounds: number): Promise<number>;
    hundred(): Promise<{ elapsed: number; iframesAfter: number; iframesDisposed: number }>;
  };
  const bench = <T>(run: (api: Bench) => Promise<T>) =>
    page.evaluate(`(${run.toString()})(window.bench)`) as Promise<T>;
  const cdp = await page.context().newCDPSession(page);
  const heap = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
    return usedSize / 1024 / 1024;
  };
  const rounds = 15;
  const warm = await bench((api) => api.empty({ prewarm: true, gapMs: 200, rounds: 15 }));
  const cold = await bench((api) => api.empty({ prewarm: false, gapMs: 200, rounds: 15 }));
  const backToBack = await bench((api) => api.empty({ prewarm: true, gapMs: 0, rounds: 15 }));
  const roundTrip = await bench((api) => api.roundTrip(9));
  const heapBefore = await heap();
  const hundred = await bench((api) => api.hundred());
  const heapAfter = await heap();
  const version = browser.version();
  console.log(`IframeSandboxExecutor in Chromium ${version} (medians of ${rounds} passes)`);
  console.log(`  empty pass, sandbox kept warm (200 ms between passes): ${warm.toFixed(1)} ms`);
  console.log(`  empty pass, prewarm: false (a new iframe and worker):  ${cold.toFixed(1)} ms`);
  console.log(
    `  empty pass, back to back (the warm one not ready yet):  ${backToBack.toFixed(1)} ms`,
  );
  console.log(
    `  one host call round trip (sandbox -> page -> sandbox): ${roundTrip.toFixed(2)} ms`,
  );
  console.log(
    `  100 passes in a row: ${hundred.elapsed.toFixed(0)} ms; page heap ${heapBefore.toFixed(1)} -> ${heapAfter.toFixed(1)} MiB; ` +
      `iframes after: ${hundred.iframesAfter} (the warm one), after dispose(): ${hundred.iframesDisposed}`,
  );
} finally {
  await browser.close();
  server.close();
}
