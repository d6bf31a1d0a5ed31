// The model-facing language on real catalogs: what a model is told, what it discovers, and how its
// code is normalized. Run from the repo root with `npm run demo` (or `pnpm --filter @codemode/typegen example`).
import { createCatalog, createToolDescription, normalizeCode } from "../src/index.ts";
import { mcpConnector, openApiConnector } from "../test/fixtures.ts";

const catalog = createCatalog({
  connectors: [
    { ...openApiConnector("github"), instructions: "GitHub's REST API (1,223 operations)." },
    { ...openApiConnector("stripe"), instructions: "Stripe's payments API (452 operations)." },
    mcpConnector("memory"),
    mcpConnector("filesystem"),
  ],
});
const methods = catalog.connectors.reduce((sum, connector) => sum + connector.methods.length, 0);
const heading = (text: string) =>
  console.log(`\n\x1b[1m── ${text} ${"─".repeat(Math.max(0, 70 - text.length))}\x1b[0m\n`);

heading(
  `The codemode tool's description (${methods} methods, ${catalog.connectors.length} connectors)`,
);
console.log(createToolDescription(catalog.connectors));

heading("codemode.search() in the sandbox: ranked paths, not schemas");
for (const query of [
  "list pull requests of a repository",
  "give the customer their money back",
  "remember that Alice works at Acme",
  "make a new folder called build",
]) {
  const { results, total } = await catalog.search(query, { limit: 3 });
  console.log(`"${query}" (${total} ranked)`);
  for (const result of results)
    console.log(
      `  ${result.score.toFixed(2).padStart(6)}  ${result.path}  ${result.description ?? ""}`,
    );
}

heading('codemode.describe("github.issues/create"): only what one method needs');
const issue = catalog.describe("github.issues/create").types.split("\n");
console.log(issue.slice(0, 40).join("\n"));
if (issue.length > 40) console.log(`… ${issue.length - 40} more lines`);

heading('codemode.describe("memory"): a whole connector');
console.log(catalog.describe("memory").types);

heading("normalizeCode(): what a model writes → what the sandbox runs");
const written =
  '```ts\nconst issues = await github.issues_list_for_repo({ owner: "acme", repo: "web" }) as Array<{ title: string }>;\nissues.map((issue) => issue.title)\n```';
console.log(written);
console.log("→");
console.log(normalizeCode(written));
