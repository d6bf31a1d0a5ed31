// No source file keeps a program in a template string longer than 80 lines: code that a sandbox runs
// is written as a function (type-checked, linted) and turned into source with `sandboxSource`.
// Test files and generated declarations are exempt. Run by `pnpm run lint`.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import ts from "typescript";

const MAX_LINES = 80;
const files = execFileSync("git", ["ls-files", "packages/*.ts", "apps/*.ts"], { encoding: "utf8" })
  .split("\n")
  .filter((file) => file && !/\.test\.ts$|\.d\.ts$|\/test\/|\/types\//.test(file));
const found = [];
for (const file of files) {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, "utf8"),
    ts.ScriptTarget.Latest,
    true,
  );
  const visit = (node) => {
    if (ts.isTemplateExpression(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > MAX_LINES)
        found.push(`${file}:${first + 1} (${last - first + 1} lines)`);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
if (found.length > 0) {
  console.error(
    `Template strings longer than ${MAX_LINES} lines (write the program as a function and use sandboxSource):\n  ${found.join("\n  ")}`,
  );
  process.exit(1);
}
console.log(
  `No template string in ${files.length} source files is longer than ${MAX_LINES} lines.`,
);
