import { describe, expect, it } from "vitest";
import { cleanQuery } from "./search-index.ts";
import { stem, terms } from "./tokenize.ts";

describe("stem", () => {
  it("conflates the forms of a word that API text and requests use", () => {
    const same = [
      ["create", "created", "creating", "creation"],
      ["authorize", "authorized", "authorization"],
      ["configure", "configuration"],
      ["invite", "invitation"],
      ["delete", "deleted", "deletion"],
      ["validate", "validation"],
      ["copy", "copies", "copied"],
      ["cancel", "canceled", "cancelled", "cancelling"],
      ["month", "monthly"],
      ["person", "people"],
      ["pay", "paid"],
    ];
    for (const forms of same) expect(new Set(forms.map(stem)).size, forms.join(" ")).toBe(1);
  });

  it("keeps apart words that only look alike", () => {
    expect(stem("installed")).toBe(stem("install"));
    expect(stem("payment")).not.toBe(stem("pay"));
    expect(stem("statement")).not.toBe(stem("state"));
  });
});

describe("terms", () => {
  it("drops possessives, contractions and the padding of a conversational request", () => {
    expect(terms("I need to update the customer's card right now, thanks")).toEqual(
      terms("update customer card right"),
    );
    expect(terms("Alice doesn't work here anymore")).toEqual(terms("Alice work"));
  });
});

describe("cleanQuery", () => {
  it("drops quoted values but not the apostrophes of possessives and contractions", () => {
    expect(terms(cleanQuery("the customer's card isn't 'broken'"))).toEqual(terms("customer card"));
  });
});
