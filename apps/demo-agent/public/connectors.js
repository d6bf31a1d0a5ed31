// What the connectors offer: the codemode tool's description and each connector's declarations.
import { api } from "./api.js";
import { fill, h } from "./dom.js";

const target = document.getElementById("connectors");

export async function showConnectors() {
  const { toolDescription, connectors } = await api("describe");
  fill(
    target,
    connectors.map((connector) =>
      h(
        "details",
        { class: "connector", "data-connector": connector.path },
        h("summary", {}, h("strong", {}, connector.path), " ", connector.description ?? ""),
        h("pre", {}, connector.types),
      ),
    ),
    h(
      "details",
      { class: "tool-description" },
      h("summary", {}, "The codemode tool's description"),
      h("pre", {}, toolDescription),
    ),
  );
}
