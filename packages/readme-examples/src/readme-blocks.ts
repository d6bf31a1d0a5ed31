// The TypeScript examples of a README: every ```ts / ```typescript fence, with what its info string
// says about it, grouped into the source files the checker type-checks, each line of which maps back
// to its line in the README.
//
// The words after the language in the info string (GitHub shows none of them):
//   workers          the example runs on Cloudflare Workers: checked with the Workers runtime types
//                    instead of Node's and the DOM's
//   continues        the example goes on from the README's previous checked example (it uses what
//                    that one declared): both are checked as one file
//   nocheck <why>    not checked; the rest of the info string says why, and must not be empty

/** One fenced TypeScript example of a README. */
export interface ReadmeBlock {
  /** the README's path, relative to the repository's root */
  readme: string;
  /** 1-based line of the opening fence */
  fenceLine: number;
  /** 1-based line of the example's first line of code */
  firstLine: number;
  /** the example's code, its fence's indentation removed */
  code: string;
  workers: boolean;
  continues: boolean;
  /** why the example is not checked, when its info string says `nocheck` */
  nocheck?: string;
}

/** A file to type-check: one example, or one and those that continue it. */
export interface ExampleFile {
  readme: string;
  /** the examples it holds, in README order */
  blocks: ReadmeBlock[];
  workers: boolean;
  /** the file's text: a header line, then each example's code */
  text: string;
  /** 1-based line of the file → 1-based line of the README (0 for the header) */
  readmeLines: number[];
}

/** An info string the checker cannot read, reported like a type error. */
export interface FenceProblem {
  readme: string;
  line: number;
  message: string;
}

const LANGUAGES = new Set(["ts", "typescript"]);
const FENCE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/** The TypeScript examples of one README's text, and any info string it cannot read. */
export function readmeBlocks(
  readme: string,
  text: string,
): { blocks: ReadmeBlock[]; problems: FenceProblem[] } {
  const lines = text.split(/\r?\n/);
  const blocks: ReadmeBlock[] = [];
  const problems: FenceProblem[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index] ?? "");
    if (!open) continue;
    const [, indent = "", marker = "", info = ""] = open;
    // the fence closes at a line of at least as many of the same character and nothing else
    const closing = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
    let end = index + 1;
    while (end < lines.length && !closing.test(lines[end] ?? "")) end++;
    const words = info.trim().split(/\s+/);
    const language = (words[0] ?? "").toLowerCase();
    if (LANGUAGES.has(language)) {
      const fenceLine = index + 1;
      const block: ReadmeBlock = {
        readme,
        fenceLine,
        firstLine: fenceLine + 1,
        code: lines
          .slice(index + 1, end)
          .map((line) => stripIndent(line, indent.length))
          .join("\n"),
        workers: false,
        continues: false,
      };
      const attributes = words.slice(1);
      for (let at = 0; at < attributes.length; at++) {
        const word = attributes[at];
        if (word === "workers") block.workers = true;
        else if (word === "continues") block.continues = true;
        else if (word === "nocheck") {
          block.nocheck = attributes.slice(at + 1).join(" ");
          if (!block.nocheck) {
            problems.push({
              readme,
              line: fenceLine,
              message: "`nocheck` needs a reason after it in the info string (```ts nocheck <why>)",
            });
          }
          break;
        } else {
          problems.push({
            readme,
            line: fenceLine,
            message: `unknown word "${word}" in the info string: use workers, continues or nocheck <why>`,
          });
        }
      }
      blocks.push(block);
    }
    index = end;
  }
  return { blocks, problems };
}

function stripIndent(line: string, width: number): string {
  let cut = 0;
  while (cut < width && line[cut] === " ") cut++;
  return line.slice(cut);
}

/**
 * The files to check for one README's examples: each example that is checked, with the examples
 * that continue it appended. An example that continues none (the first checked one, or one after
 * an unchecked one) is a problem.
 */
export function exampleFiles(blocks: readonly ReadmeBlock[]): {
  files: ExampleFile[];
  problems: FenceProblem[];
} {
  const files: ExampleFile[] = [];
  const problems: FenceProblem[] = [];
  let current: ReadmeBlock[] | undefined;
  const groups: ReadmeBlock[][] = [];
  for (const block of blocks) {
    if (block.nocheck !== undefined) {
      current = undefined;
      continue;
    }
    if (block.continues) {
      if (!current) {
        problems.push({
          readme: block.readme,
          line: block.fenceLine,
          message:
            "`continues` follows no checked example: the example before it is missing or marked nocheck",
        });
        continue;
      }
      const first = current[0];
      if (first && first.workers !== block.workers) {
        problems.push({
          readme: block.readme,
          line: block.fenceLine,
          message: "an example that continues another needs the same `workers` marker",
        });
      }
      current.push(block);
      continue;
    }
    current = [block];
    groups.push(current);
  }
  for (const group of groups) {
    const first = group[0];
    if (!first) continue;
    const text: string[] = [`// ${first.readme}:${first.fenceLine}, generated: do not edit`];
    const readmeLines = [0, 0];
    for (const block of group) {
      const code = block.code.split("\n");
      code.forEach((line, offset) => {
        text.push(line);
        readmeLines.push(block.firstLine + offset);
      });
    }
    files.push({
      readme: first.readme,
      blocks: group,
      workers: first.workers,
      text: `${text.join("\n")}\n`,
      readmeLines,
    });
  }
  return { files, problems };
}

/** The README line of a 1-based line of an example file (the nearest example line for the header). */
export function readmeLineOf(file: ExampleFile, line: number): number {
  return file.readmeLines[line] || file.blocks[0]?.firstLine || 0;
}
