import {
  type Catalog,
  type CatalogOptions,
  type ConnectorDefinition,
  createCatalog,
  createToolDescription,
  TypegenError,
  toIdentifier,
} from "@codemode/typegen";
import { CodemodeError } from "../../codemode-error.ts";
import { asksAlways, type Connector, type ConnectorMethod } from "../../connector.ts";
import { MAX_OPERATION_LENGTH, operationProblem } from "../../operation.ts";

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
  /**
   * connectors that could not list their methods (a server down, a document unreadable), by
   * sandbox name: why. They are left out: a call of theirs fails with a clear error, a run that
   * needs one stays paused, and every other connector works. They are listed again later.
   */
  unavailable: Map<string, string>;
  catalog: Catalog;
  description: string;
}

/** How long a connector that could not list is left alone before it is listed again (ms). */
export const RELIST_AFTER_MS = 30_000;

/** The longest reason an unavailable connector is shown with (it comes from outside). */
const MAX_REASON_LENGTH = 300;

/** Whether a character breaks a line or is not seen: C0 and C1 controls, line and paragraph separators. */
const unseen = (code: number) =>
  code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;

/** A failure from outside as one line a model can read: no control characters, bounded. */
function reasonOf(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).slice(
    0,
    2 * MAX_REASON_LENGTH,
  );
  let line = "";
  for (const char of text) line += unseen(char.codePointAt(0) as number) ? " " : char;
  line = line.replace(/ {2,}/g, " ").trim();
  return line.length > MAX_REASON_LENGTH ? `${line.slice(0, MAX_REASON_LENGTH)}…` : line;
}

/** Gets the configuration, listing asynchronous connectors once; `current` is set once it is known. */
export interface Configurator {
  configure(): Promise<Configuration>;
  readonly current: Configuration | undefined;
}

/** What is wrong with an operation `methods` names, said of its connector, or `undefined`. */
function badOperation(
  connector: Connector,
  methods: Record<string, ConnectorMethod>,
): string | undefined {
  for (const [method, definition] of Object.entries(methods)) {
    if (definition.operation === undefined) continue;
    const problem = operationProblem(definition.operation);
    if (problem !== undefined) {
      return `The operation of method "${method}" of connector "${connector.name}" ${problem}: an operation is one line of visible text a person reads, at most ${MAX_OPERATION_LENGTH} characters.`;
    }
  }
  return undefined;
}

/** Connectors, their methods, the catalog and the tool description; throws on a bad configuration. */
function build(
  connectors: readonly Connector[],
  listed: ReadonlyArray<Record<string, ConnectorMethod>>,
  search: Pick<CatalogOptions, "embed" | "semanticWeight" | "limit"> | undefined,
): Configuration {
  const definitions: ConnectorDefinition[] = connectors.map((connector, index) => {
    const methods = listed[index] as Record<string, ConnectorMethod>;
    const bad = badOperation(connector, methods);
    if (bad !== undefined) throw new CodemodeError("INVALID_CONFIG", bad);
    for (const [method, definition] of Object.entries(methods)) {
      const gated =
        typeof definition.requiresApproval === "function" ||
        asksAlways(definition.requiresApproval);
      if (gated && definition.replay === "reexecute") {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `Method "${method}" of connector "${connector.name}" needs approval and replay "reexecute": replaying would apply the approved call again.`,
        );
      }
      if (definition.deferred === true && definition.replay === "reexecute") {
        throw new CodemodeError(
          "INVALID_CONFIG",
          `Method "${method}" of connector "${connector.name}" is deferred and has replay "reexecute": its result comes from runtime.resolve once and is replayed, never asked again.`,
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
        ...(asksAlways(definition.requiresApproval) ? { requiresApproval: true } : {}),
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
  return {
    connectors: resolved,
    unavailable: new Map(),
    catalog,
    description: createToolDescription(catalog.connectors),
  };
}

/** The configuration of the connectors that listed, with those that could not set apart. */
function buildAvailable(
  connectors: readonly Connector[],
  outcomes: ReadonlyArray<PromiseSettledResult<Record<string, ConnectorMethod>>>,
  /** whether each connector listed asynchronously (from a server, a document): only those may fail */
  remote: readonly boolean[],
  search: Pick<CatalogOptions, "embed" | "semanticWeight" | "limit"> | undefined,
): Configuration {
  const usable: Connector[] = [];
  const methods: Record<string, ConnectorMethod>[] = [];
  const unavailable = new Map<string, string>();
  outcomes.forEach((outcome, index) => {
    const connector = connectors[index] as Connector;
    if (outcome.status === "fulfilled") {
      // an operation a server or document named that is not one line a person can read sets its
      // connector aside; the host's own connector is the host's mistake, told at once
      const bad = badOperation(connector, outcome.value);
      if (bad !== undefined) {
        if (!remote[index]) throw new CodemodeError("INVALID_CONFIG", bad);
        unavailable.set(toIdentifier(connector.name), reasonOf(bad));
        return;
      }
      // what one connector listed is checked alone: a catalog a server sent that typegen cannot
      // take makes that connector unavailable, not the runtime
      try {
        build([connector], [outcome.value], search);
        usable.push(connector);
        methods.push(outcome.value);
        return;
      } catch (error) {
        // a catalog from outside that typegen cannot take sets the connector aside; what the host
        // configured itself (approval and replay policies, its own connectors) is its mistake,
        // told at once
        const fromCatalog = error instanceof CodemodeError && TypegenError.isInstance(error.cause);
        if (!remote[index] || !fromCatalog) throw error;
        unavailable.set(toIdentifier(connector.name), reasonOf(error));
        return;
      }
    }
    if (!remote[index]) throw outcome.reason;
    unavailable.set(toIdentifier(connector.name), reasonOf(outcome.reason));
  });
  const config = build(usable, methods, search);
  if (unavailable.size === 0) return config;
  const lines = [...unavailable].map(([name, reason]) => `- ${name}: ${reason}`);
  return {
    ...config,
    unavailable,
    description: `${config.description}\n\nThese namespaces could not be loaded now and have no methods; do not call them (they are tried again later):\n${lines.join("\n")}`,
  };
}

/**
 * Connectors whose methods are known at once are checked now, so that a bad configuration throws
 * here; connectors that list their methods asynchronously are listed on first use. One that cannot
 * list (a server down) is left out of the configuration, not the runtime's: the others work, and
 * it is listed again on a later use, at most once every `RELIST_AFTER_MS`.
 */
export function createConfigurator(
  connectors: readonly Connector[],
  search?: Pick<CatalogOptions, "embed" | "semanticWeight" | "limit">,
  now: () => number = () => Date.now(),
): Configurator {
  const list = (connector: Connector) => {
    let methods: ReturnType<Connector["methods"]>;
    try {
      methods = connector.methods();
    } catch (error) {
      methods = Promise.reject(error);
    }
    // a failure is read when the configuration is built, perhaps later: not unhandled meanwhile
    if (typeof (methods as PromiseLike<unknown>)?.then === "function") {
      Promise.resolve(methods).catch(() => {});
    }
    return methods;
  };
  const listed = connectors.map(list);
  const remote = listed.map(
    (methods) => typeof (methods as PromiseLike<unknown>)?.then === "function",
  );
  const asynchronous = remote.some(Boolean);
  let current: Configuration | undefined = asynchronous
    ? undefined
    : build(connectors, listed as Record<string, ConnectorMethod>[], search);
  let configuring: Promise<Configuration> | undefined;
  let listedAt = 0;
  const configureNow = () => {
    listedAt = now();
    const outcomes = connectors.map((connector, index) => {
      // a connector that listed keeps its list; one that could not is asked again
      const failed = current?.unavailable.has(toIdentifier(connector.name)) === true;
      if (failed) listed[index] = list(connector);
      return listed[index];
    });
    configuring ??= Promise.allSettled(outcomes as Promise<Record<string, ConnectorMethod>>[])
      .then((settled) => buildAvailable(connectors, settled, remote, search))
      .finally(() => {
        configuring = undefined;
      });
    return configuring;
  };
  return {
    get current() {
      return current;
    },
    async configure() {
      if (current && current.unavailable.size === 0) return current;
      if (current) {
        // some could not list: they are tried again in the background, the runs go on meanwhile
        if (!configuring && now() - listedAt >= RELIST_AFTER_MS) {
          configureNow().then(
            (config) => {
              current = config;
            },
            () => {},
          );
        }
        return current;
      }
      current = await (configuring ?? configureNow());
      return current;
    },
  };
}

/** The connectors a run needs that are not configured now. */
export function missingConnectors(config: Configuration, needed: readonly string[]): string[] {
  return needed.filter((connector) => !config.connectors.has(connector));
}
