// The catalog's view of an OpenAPI connector, as the runtime builds it, plus the document as the root
// its schemas' `$ref`s resolve against.
import type { ConnectorMethod } from "@codemode/core";
import type { ConnectorDefinition } from "@codemode/typegen";
import type { OpenApiConnector } from "../src/index.ts";

export function connectorDefinition(
  connector: OpenApiConnector,
  methods: Record<string, ConnectorMethod>,
): ConnectorDefinition {
  return {
    name: connector.name,
    ...(connector.instructions ? { instructions: connector.instructions } : {}),
    methods: Object.entries(methods).map(([name, method]) => ({
      name,
      ...(method.description ? { description: method.description } : {}),
      ...(method.inputSchema !== undefined ? { inputSchema: method.inputSchema } : {}),
      ...(method.outputSchema !== undefined ? { outputSchema: method.outputSchema } : {}),
      requiresApproval: method.requiresApproval === true,
      ...(method.keywords ? { keywords: method.keywords } : {}),
    })),
    schemaRoot: connector.schemaRoot,
  };
}
