// The offline demo model's scenarios over the `catalog` connector (the REST API the agent serves,
// described by /openapi.json): listing the catalog (all of it, or by price), and adding an item,
// which pauses for approval. Adding needs a name and a price, each from a precise pattern.
import { argumentOf } from "./request-text.ts";
import { type Matched, plural, program, type Scenario, scenario } from "./scenario.ts";

export interface ItemLike {
  id: number;
  sku: string;
  name: string;
  price: number;
  stock: number;
}

export const dollars = (price: number) => `$${price.toFixed(2)}`;

/** A price condition the words set, e.g. "under $10" (`price < 10`). */
export interface PriceCondition {
  op: "<" | "<=" | ">" | ">=";
  amount: number;
  /** the words, e.g. "under $10.00" */
  words: string;
}

/** The words of a price condition: the comparison (group 1) and the amount (group 2). */
export const PRICE_WORDS = String.raw`(under|below|less than|cheaper than|over|above|more than|at most|up to|no more than|at least)\s+\$?(\d{1,6}(?:\.\d{1,2})?)(?:\s*(?:dollars|usd))?`;

const OPS: Record<string, PriceCondition["op"]> = {
  under: "<",
  below: "<",
  "less than": "<",
  "cheaper than": "<",
  over: ">",
  above: ">",
  "more than": ">",
  "at most": "<=",
  "up to": "<=",
  "no more than": "<=",
  "at least": ">=",
};

/** The condition from the two groups of `PRICE_WORDS`; undefined when there is none. */
export function priceCondition(
  comparison: string | undefined,
  amount: string | undefined,
): PriceCondition | undefined {
  if (comparison === undefined || amount === undefined) return undefined;
  const word = comparison.toLowerCase();
  const op = OPS[word];
  if (!op) return undefined;
  const value = Number(amount);
  return { op, amount: value, words: `${word} ${dollars(value)}` };
}

/** The JavaScript test of an item `i` against the condition (always true without one). */
export const priceTest = (condition: PriceCondition | undefined) =>
  condition ? `i.price ${condition.op} ${condition.amount}` : "true";

function listCatalog(condition?: PriceCondition): Scenario {
  const lines = condition
    ? [
        "const items = await catalog.listItems({});",
        `const chosen = items.filter((i) => ${priceTest(condition)});`,
        "return chosen.map((i) => ({ id: i.id, sku: i.sku, name: i.name, price: i.price, stock: i.stock }));",
      ]
    : [
        "const items = await catalog.listItems({});",
        "return items.map((i) => ({ id: i.id, sku: i.sku, name: i.name, price: i.price, stock: i.stock }));",
      ];
  return scenario(condition ? "list-catalog-by-price" : "list-catalog", program(lines), {
    completed(result) {
      const items = result as ItemLike[];
      const head = condition
        ? items.length === 0
          ? `No catalog item costs ${condition.words}.`
          : `${plural(items.length, "catalog item")} ${items.length === 1 ? "costs" : "cost"} ${condition.words}:`
        : `The catalog has ${plural(items.length, "item")}:`;
      return [
        head,
        ...items.map(
          (i) => `- #${i.id} ${i.name} (${i.sku}): ${dollars(i.price)}, ${i.stock} in stock`,
        ),
      ].join("\n");
    },
  });
}

function addItem(name: string, price: number): Scenario {
  const quoted = JSON.stringify(name);
  return scenario(
    "add-catalog-item",
    program([
      `const existing = await catalog.listItems({ q: ${quoted} });`,
      `const same = existing.find((i) => i.name.toLowerCase() === ${JSON.stringify(name.toLowerCase())});`,
      "if (same) return { existing: same };",
      `return { created: await catalog.createItem({ body: { name: ${quoted}, price: ${price} } }) };`,
    ]),
    {
      asked: `add ${quoted} at ${dollars(price)} to the catalog (a POST, so it needs approval)`,
      gate: `adding ${quoted} at ${dollars(price)} to the catalog`,
      writes: true,
      completed(result) {
        const { existing, created } = result as { existing?: ItemLike; created?: ItemLike };
        if (existing) {
          return `${quoted} is in the catalog already as #${existing.id} (${existing.sku}), so I added nothing.`;
        }
        const item = created as ItemLike;
        return `Added catalog item #${item.id} ${item.name} (${item.sku}) at ${dollars(item.price)}.`;
      },
    },
  );
}

const ADD =
  /^(?:add|create|new)(?: a| an)?(?: new)? (catalog item|product|item to the catalog(?:ue)?|item)(?: to the catalog(?:ue)?)?(?: (?:called|named))?:? (.+)$/i;
const PRICED =
  /^(.+?) (?:for|at|priced at|costing) \$?(\d{1,6}(?:\.\d{1,2})?)(?: ?(?:dollars|usd))?$/i;
const LIST = new RegExp(
  `^(?:(?:show|list|get|display|browse|see|view)(?: me)?(?: all)?(?: of)? (?:the |your |our )?(?:catalog(?:ue)?|catalog(?:ue)? items|products|items in the catalog(?:ue)?)|what(?: is|'s) in the catalog(?:ue)?|what products (?:do you have|are there)|(?:the )?catalog(?:ue)?)(?: (?:that (?:cost|are) |costing |priced )?${PRICE_WORDS})?$`,
  "i",
);

/** The catalog scenario the tidied words ask for, a refusal, or undefined when they are not about it. */
export function matchCatalogScenario(words: string): Matched | undefined {
  const add = ADD.exec(words);
  if (add && ((add[1] ?? "").toLowerCase() !== "item" || /\bcatalog/i.test(words))) {
    const rest = add[2] ?? "";
    const priced = PRICED.exec(rest);
    if (!priced) {
      return {
        cannot: `a new catalog item needs a name and a price, as in "add a catalog item Blue mug for 12.50"`,
      };
    }
    const name = argumentOf(priced[1] ?? "");
    if (!name.ok) return { cannot: `I cannot take the item's name: ${name.why}` };
    if (name.text.length > 120) return { cannot: "an item's name has at most 120 characters" };
    return addItem(name.text, Number(priced[2]));
  }
  const list = LIST.exec(words);
  if (list) return listCatalog(priceCondition(list[1], list[2]));
  return undefined;
}
