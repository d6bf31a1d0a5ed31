import { describe, expect, it } from "vitest";
import { exampleFiles, readmeBlocks, readmeLineOf } from "./readme-blocks.ts";

const fence = "```";

describe("readmeBlocks", () => {
  it("takes ts and typescript fences with their words, and leaves other languages", () => {
    const text = [
      "# title", // 1
      `${fence}sh`, // 2
      "npm install codemode", // 3
      fence, // 4
      `${fence}ts`, // 5
      "const a = 1;", // 6
      fence, // 7
      `  ${fence}typescript workers continues`, // 8
      "  const b = 2;", // 9
      "    const c = 3;", // 10
      `  ${fence}`, // 11
      "~~~ts nocheck a fragment of a vitest config", // 12
      "x", // 13
      "~~~", // 14
      `${fence}js`, // 15
      "const d = 4;", // 16
      fence, // 17
    ].join("\n");
    const { blocks, problems } = readmeBlocks("packages/x/README.md", text);
    expect(problems).toEqual([]);
    expect(blocks).toEqual([
      {
        readme: "packages/x/README.md",
        fenceLine: 5,
        firstLine: 6,
        code: "const a = 1;",
        workers: false,
        continues: false,
      },
      {
        readme: "packages/x/README.md",
        fenceLine: 8,
        firstLine: 9,
        code: "const b = 2;\n  const c = 3;",
        workers: true,
        continues: true,
      },
      {
        readme: "packages/x/README.md",
        fenceLine: 12,
        firstLine: 13,
        code: "x",
        workers: false,
        continues: false,
        nocheck: "a fragment of a vitest config",
      },
    ]);
  });

  it("a fence of four backticks holds one of three", () => {
    const text = [`${fence}\`ts`, "const a = `one`;", fence, "const b = 2;", `${fence}\``].join(
      "\n",
    );
    const { blocks } = readmeBlocks("README.md", text);
    expect(blocks.map((block) => block.code)).toEqual([
      ["const a = `one`;", fence, "const b = 2;"].join("\n"),
    ]);
  });

  it("refuses nocheck without a reason and words it does not know", () => {
    const text = [`${fence}ts nocheck`, "x", fence, `${fence}ts worker`, "y", fence].join("\n");
    const { problems } = readmeBlocks("README.md", text);
    expect(problems).toEqual([
      { readme: "README.md", line: 1, message: expect.stringContaining("needs a reason") },
      { readme: "README.md", line: 4, message: expect.stringContaining('unknown word "worker"') },
    ]);
  });
});

describe("exampleFiles", () => {
  const text = [
    `${fence}ts`, // 1
    "const a = 1;", // 2
    fence, // 3
    "prose", // 4
    `${fence}ts continues`, // 5
    "const b = a;", // 6
    "const c = b;", // 7
    fence, // 8
    `${fence}ts nocheck shown as a fragment`, // 9
    "y", // 10
    fence, // 11
    `${fence}ts continues`, // 12
    "z", // 13
    fence, // 14
  ].join("\n");

  it("appends an example that continues another, and maps each line back to the README", () => {
    const { files, problems } = exampleFiles(readmeBlocks("README.md", text).blocks);
    expect(files).toHaveLength(1);
    const [file] = files;
    if (!file) throw new Error("no file");
    expect(file.text).toBe(
      "// README.md:1, generated: do not edit\nconst a = 1;\nconst b = a;\nconst c = b;\n",
    );
    expect([1, 2, 3, 4].map((line) => readmeLineOf(file, line))).toEqual([2, 2, 6, 7]);
    // the one after a nocheck example continues nothing
    expect(problems).toEqual([
      { readme: "README.md", line: 12, message: expect.stringContaining("follows no checked") },
    ]);
  });
});
