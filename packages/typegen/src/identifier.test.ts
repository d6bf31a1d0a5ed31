import ts from "typescript";
import { describe, expect, it } from "vitest";
import { createProgram } from "../test/typescript.ts";
import { createNameMap, NameAllocator, toIdentifier, toPascalCase } from "./identifier.ts";
import { TypegenError } from "./typegen-error.ts";

describe("toIdentifier", () => {
  it.each([
    ["issues/create", "issues_create"],
    ["get-commit", "get_commit"],
    ["repos.get", "repos_get"],
    ["GET /repos/{owner}/{repo}", "GET_repos_owner_repo"],
    ["getCommit", "getCommit"],
    ["_private", "_private"],
    ["2fa-verify", "_2fa_verify"],
    ["delete", "delete_"],
    ["class", "class_"],
    ["__proto__", "__proto___"],
    ["constructor", "constructor_"],
    ["then", "then_"],
    ["  spaced  name ", "spaced_name"],
    ["検索-ツール", "検索_ツール"],
    ["", "_"],
    ["---", "_"],
  ])("%j → %j", (name, identifier) => {
    expect(toIdentifier(name)).toBe(identifier);
    expect(() => new Function(`const ${toIdentifier(name)} = 1;`)).not.toThrow();
  });

  it("never fuses words", () => {
    expect(toIdentifier("list-pull-requests")).toBe("list_pull_requests");
    expect(toIdentifier("list pull requests")).not.toBe("listpullrequests");
  });
});

describe("toPascalCase", () => {
  it.each([
    ["list_pull_requests", "ListPullRequests"],
    ["issues/create", "IssuesCreate"],
    ["getCommit", "GetCommit"],
    ["simple-user", "SimpleUser"],
    ["2fa", "T2fa"],
    ["", "T"],
    // numbers that are no digits cannot stand in an identifier (found by the property tests)
    ["a½", "A"],
    ["x²y", "XY"],
    ["①", "T"],
    ["Ⅻ", "TⅫ"],
  ])("%j → %j", (name, pascal) => {
    expect(toPascalCase(name)).toBe(pascal);
    expect(() => new Function(`let ${toPascalCase(name)};`)).not.toThrow();
  });
});

describe("createNameMap", () => {
  it("maps both ways", () => {
    const map = createNameMap(["issues/create", "get-commit"], { kind: "tool name" });
    expect(map.identifiers.get("issues/create")).toBe("issues_create");
    expect(map.originals.get("get_commit")).toBe("get-commit");
  });

  it("reports a collision naming both originals", () => {
    let caught: unknown;
    try {
      createNameMap(["get-commit", "get_commit"], { kind: "tool name" });
    } catch (error) {
      caught = error;
    }
    expect(TypegenError.isInstance(caught)).toBe(true);
    expect((caught as TypegenError).code).toBe("INVALID_NAME");
    expect((caught as Error).message).toContain('"get-commit"');
    expect((caught as Error).message).toContain('"get_commit"');
  });

  it("refuses reserved names and duplicates", () => {
    expect(() =>
      createNameMap(["console"], { kind: "connector name", reserved: new Set(["console"]) }),
    ).toThrow(/shadow the sandbox global "console"/);
    expect(() => createNameMap(["a", "a"], { kind: "connector name" })).toThrow(
      /Duplicate connector name "a"/,
    );
  });
});

describe("NameAllocator", () => {
  it("hands out unique names and avoids global type names", () => {
    const names = new NameAllocator();
    expect(names.allocate("Repo")).toBe("Repo");
    expect(names.allocate("Repo")).toBe("Repo2");
    expect(names.allocate("Record")).toBe("Record2");
    expect(names.allocate("Event")).toBe("Event2");
  });

  // A generated `type PropertyKey` at the top of the file the model reads is a duplicate identifier
  // (found by the property tests): every type of the lib the declarations compile against is taken.
  it("avoids every global type of the ES2022 lib", () => {
    const { program, file } = createProgram("namespace Probe {}\n", "probe.ts");
    const globals = program
      .getTypeChecker()
      .getSymbolsInScope(file, ts.SymbolFlags.Type)
      .map((symbol) => symbol.name)
      .filter((name) => name !== "Probe");
    expect(globals.length).toBeGreaterThan(100);
    const names = new NameAllocator();
    expect(globals.filter((name) => names.allocate(name) === name)).toEqual([]);
  });
});
