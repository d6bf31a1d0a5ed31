type Entity = {
 /** The name of the entity */
 name: string;
 /** The type of the entity */
 entityType: string;
 /** An array of observation contents associated with the entity */
 observations: string[];
};

type Relation = {
 /** The name of the entity where the relation starts */
 from: string;
 /** The name of the entity where the relation ends */
 to: string;
 /** The type of the relation */
 relationType: string;
};

type CreateEntitiesInput = { entities: Entity[] };
type CreateEntitiesOutput = CreateEntitiesInput;

type CreateRelationsInput = { relations: Relation[] };
type CreateRelationsOutput = CreateRelationsInput;

type AddObservationsInput = {
 observations: {
  /** The name of the entity to add the observations to */
  entityName: string;
  /** An array of observation contents to add */
  contents: string[];
 }[];
};
type AddObservationsOutput = { results: { entityName: string; addedObservations: string[] }[] };

type DeleteEntitiesInput = {
 /** An array of entity names to delete */
 entityNames: string[];
};
type DeleteEntitiesOutput = { success: boolean; message: string };

type DeleteObservationsInput = {
 deletions: {
  /** The name of the entity containing the observations */
  entityName: string;
  /** An array of observations to delete */
  observations: string[];
 }[];
};
type DeleteObservationsOutput = DeleteEntitiesOutput;

type DeleteRelationsInput = {
 /** An array of relations to delete */
 relations: Relation[];
};
type DeleteRelationsOutput = DeleteEntitiesOutput;

type ReadGraphInput = {};
type ReadGraphOutput = { entities: Entity[]; relations: Relation[] };

type SearchNodesInput = {
 /** The search query to match against entity names, types, and observation content */
 query: string;
};
type SearchNodesOutput = ReadGraphOutput;

type OpenNodesInput = {
 /** An array of entity names to retrieve */
 names: string[];
};
type OpenNodesOutput = ReadGraphOutput;

/** The @modelcontextprotocol/server-memory MCP server. */
declare const memory: {
 /** Create multiple new entities in the knowledge graph */
 create_entities(input: CreateEntitiesInput): Promise<CreateEntitiesOutput>;
 /** Create multiple new relations between entities in the knowledge graph. */
 create_relations(input: CreateRelationsInput): Promise<CreateRelationsOutput>;
 /** Add new observations to existing entities in the knowledge graph */
 add_observations(input: AddObservationsInput): Promise<AddObservationsOutput>;
 /** Delete multiple entities and their associated relations from the knowledge graph @approval */
 delete_entities(input: DeleteEntitiesInput): Promise<DeleteEntitiesOutput>;
 /** Delete specific observations from entities in the knowledge graph @approval */
 delete_observations(input: DeleteObservationsInput): Promise<DeleteObservationsOutput>;
 /** Delete multiple relations from the knowledge graph @approval */
 delete_relations(input: DeleteRelationsInput): Promise<DeleteRelationsOutput>;
 /** Read the entire knowledge graph */
 read_graph(input?: ReadGraphInput): Promise<ReadGraphOutput>;
 /** Search for nodes in the knowledge graph based on a query */
 search_nodes(input: SearchNodesInput): Promise<SearchNodesOutput>;
 /** Open specific nodes in the knowledge graph by their names */
 open_nodes(input: OpenNodesInput): Promise<OpenNodesOutput>;
};
