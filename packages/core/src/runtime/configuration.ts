import {
  type Catalog,
  type CatalogOptions,
  type ConnectorDefinition,
  createCatalog,
  createToolDescription,
  TypegenError,
} from "@codemode/typegen";
import { CodemodeError } from "../codemode-error.ts";
import type { Connector, ConnectorMethod } from "../connector.ts";

/** A connector as a pass uses it: its sandbox name and its methods by their sandbox names. */
export interface ResolvedConnector {
  connector: Connector;
  /** sandbox identifier */
  name: string;
  methods: Map<string, { original: string; definition: ConnectorMethod }>;
}

/** The checked connectors, their catalog and the tool description. */
export interface Configuration {
  connectors: Map<string, ResolvedConnector>;
  catalog: Catalog;
  description: string;
}

/** Gets the configuration, listing asynchronous connectors once; `current` is set once it is known. */
export interface Configurator {
  configure(): Promise<Configuration>;
  readonly current: Configuration | undefined;
}

/** Connectors, their methods, the catalog and the tool description; throws on a bad configuration. */
function build(
  connectors: readonly Connector[],
  listed: ReadonlyArray<Record<string, ConnectorMethod>>,
  search: Pick<CatalogOptions, "embed" | "semanticWeight" | "limit"> | undefined,
): Configuration {
  const definitions: ConnectorDefinition[] = connectors.map((connector, index) => {
    const methods = listed[index] as Record<string, ConnectorMethod>;
    for (const [method, definition] of Object.entries(methods)) {
      if (definition.requiresApproval && definition.replay === "reexecute") {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `Method "${method}" of connector "${connector.name}" needs approval and replay "reexecute": replaying would apply the approved call again.`,
        );
      }
    }
    return {
      name: connector.name,
      ...(connector.instructions ? { instructions: connector.instructions } : {}),
      ...(connector.schemaRoot !== undefined ? { schemaRoot: connector.schemaRoot } : {}),
      methods: Object.entries(methods).map(([method, definition]) => ({
        name: method,
        ...(definition.description ? { description: definition.description } : {}),
        ...(definition.inputSchema !== undefined ? { inputSchema: definition.inputSchema } : {}),
        ...(definition.outputSchema !== undefined ? { outputSchema: definition.outputSchema } : {}),
        ...(definition.requiresApproval === true ? { requiresApproval: true } : {}),
        ...(definition.keywords ? { keywords: definition.keywords } : {}),
      })),
    };
  });
  let catalog: Catalog;
  try {
    catalog = createCatalog({ ...search, connectors: definitions });
  } catch (error) {
    if (TypegenError.isInstance(error))
      throw new CodemodeError("INVALID_CONFIG", error.message, { cause: error });
    throw error;
  }
  const resolved = new Map<string, ResolvedConnector>();
  catalog.connectors.forEach((declared, index) => {
    const connector = connectors[index] as Connector;
    const methods = listed[index] as Record<string, ConnectorMethod>;
    const entry: ResolvedConnector = { connector, name: declared.name, methods: new Map() };
    for (const method of declared.methods) {
      entry.methods.set(method.name, {
        original: method.original,
        definition: methods[method.original] as ConnectorMethod,
      });
    }
    resolved.set(declared.name, entry);
  });
  return { connectors: resolved, catalog, description: createToolDescription(catalog.connectors) };
}

/**
 * Connectors whose methods are known at once are checked now, so that a bad configuration throws
 * here; connectors that list their methods asynchronously are checked on first use (and again after
 * a failure).
 */
export function createConfigurator(
  connectors: readonly Connector[],
  search?: Pick<CatalogOptions, "embed" | "semanticWeight" | "limit">,
): Configurator {
  let listed = connectors.map((connector) => connector.methods());
  const asynchronous = listed.some(
    (methods) => typeof (methods as PromiseLike<unknown>)?.then === "function",
  );
  let current: Configuration | undefined = asynchronous
    ? undefined
    : build(connectors, listed as Record<string, ConnectorMethod>[], search);
  let configuring: Promise<Configuration> | undefined;
  let failed = false;
  return {
    get current() {
      return current;
    },
    async configure() {
      if (current) return current;
      if (failed && !configuring) {
        // listed again: a connector that could not list (a server that was down) may list now
        failed = false;
        listed = connectors.map((connector) => connector.methods());
      }
      configuring ??= Promise.all(listed).then((methods) => build(connectors, methods, search));
      try {
        current = await configuring;
        return current;
      } catch (error) {
        configuring = undefined;
        failed = true;
        throw error;
      }
    },
  };
}

/** The connectors a run needs that are not configured now. */
export function missingConnectors(config: Configuration, needed: readonly string[]): string[] {
  return needed.filter((connector) => !config.connectors.has(connector));
}
