// The offline demo model's scenarios over the `catalog` connector (the REST API the agent serves,
// described by /openapi.json): listing the catalog, and adding an item, which pauses for approval.
import { program, type Scenario, unfinished } from "./scenario.ts";

interface ItemLike {
  id: number;
  sku: string;
  name: string;
  price: number;
  stock: number;
}

const dollars = (price: number) => `$${price.toFixed(2)}`;

function listCatalog(): Scenario {
  return {
    name: "list-catalog",
    code: program([
      "const items = await catalog.listItems({});",
      "return items.map((i) => ({ id: i.id, sku: i.sku, name: i.name, price: i.price, stock: i.stock }));",
    ]),
    answer(output) {
      const problem = unfinished(output, "");
      if (problem || output?.status !== "completed") return problem ?? "";
      const items = output.result as ItemLike[];
      return [
        `The catalog has ${items.length} items:`,
        ...items.map(
          (i) => `- #${i.id} ${i.name} (${i.sku}): ${dollars(i.price)}, ${i.stock} in stock`,
        ),
      ].join("\n");
    },
  };
}

function addItem(name: string, price: number): Scenario {
  const quoted = JSON.stringify(name);
  return {
    name: "add-catalog-item",
    code: program([
      `const existing = await catalog.listItems({ q: ${quoted} });`,
      `const same = existing.find((i) => i.name.toLowerCase() === ${JSON.stringify(name.toLowerCase())});`,
      "if (same) return { existing: same };",
      `return { created: await catalog.createItem({ body: { name: ${quoted}, price: ${price} } }) };`,
    ]),
    answer(output) {
      const problem = unfinished(
        output,
        `I asked to add ${quoted} at ${dollars(price)} to the catalog (a POST, so it needs approval).`,
      );
      if (problem || output?.status !== "completed") return problem ?? "";
      const result = output.result as { existing?: ItemLike; created?: ItemLike };
      if (result.existing) {
        return `${quoted} is in the catalog already as #${result.existing.id} (${result.existing.sku}).`;
      }
      const item = result.created as ItemLike;
      return `Added catalog item #${item.id} ${item.name} (${item.sku}) at ${dollars(item.price)}.`;
    },
  };
}

/** Splits "Blue mug for 12.50" into the name and the price (10 dollars when none is given). */
function parseItem(rest: string): { name: string; price: number } {
  let name = rest.trim().replace(/[.!?]+$/, "");
  let price = 10;
  const priced = /\s+(?:for|at|priced\s+at)\s+\$?(\d+(?:\.\d{1,2})?)\s*(?:dollars|usd)?\s*$/i.exec(
    name,
  );
  if (priced) {
    price = Number(priced[1]);
    name = name.slice(0, priced.index);
  }
  name = name
    .replace(/^(?:called|named)\s+/i, "")
    .replace(/^[:\s"'“]+|["'”\s]+$/g, "")
    .trim();
  return { name: name || "New item", price };
}

/** The catalog scenario the words ask for, if any. */
export function matchCatalogScenario(words: string): Scenario | undefined {
  const add =
    /\b(?:add|create|new)\s+(?:an?\s+)?(?:new\s+)?(?:catalog\s+)?(?:item|product)\b(?:\s+to\s+the\s+catalog)?[:\s]*(.*)$/is.exec(
      words,
    );
  if (add && /\b(?:catalog|product)\b/i.test(words)) {
    const { name, price } = parseItem(add[1] ?? "");
    return addItem(name, price);
  }
  if (/\bcatalog(?:ue)?\b/i.test(words)) return listCatalog();
  return undefined;
}
