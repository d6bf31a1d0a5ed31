// The catalog as its REST API serves it now (/api/catalog/items, the API the `catalog` connector
// calls): an approved item appears here, a rolled-back one disappears.
import { api } from "./api.js";
import { fill, h } from "./dom.js";

const target = document.getElementById("catalog");

export async function refreshCatalog() {
  const items = await api("catalog/items");
  fill(
    target,
    h(
      "table",
      { class: "catalog" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["id", "sku", "name", "price", "stock"].map((name) => h("th", {}, name)),
        ),
      ),
      h(
        "tbody",
        {},
        items.map((item) =>
          h(
            "tr",
            { "data-item": item.id },
            h("td", {}, String(item.id)),
            h("td", {}, item.sku),
            h("td", { class: "item-name" }, item.name),
            h("td", {}, `$${item.price.toFixed(2)}`),
            h("td", {}, String(item.stock)),
          ),
        ),
      ),
    ),
  );
}
