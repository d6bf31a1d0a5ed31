type EchoInput = {
 /** Message to echo */
 message: string;
};
type EchoOutput = unknown;

type GetAnnotatedMessageInput = {
 /** Type of message to demonstrate different annotation patterns */
 messageType: "error" | "success" | "debug";
 /** Whether to include an example image */
 includeImage?: boolean;
};
type GetAnnotatedMessageOutput = unknown;

type GetEnvInput = {};
type GetEnvOutput = unknown;

type GetResourceLinksInput = {
 /** Number of resource links to return (1-10) @default 3 @minimum 1 @maximum 10 */
 count?: number;
};
type GetResourceLinksOutput = unknown;

type GetResourceReferenceInput = {
 /** @default "Text" */
 resourceType?: "Text" | "Blob";
 /** ID of the text resource to fetch @default 1 */
 resourceId?: number;
};
type GetResourceReferenceOutput = unknown;

type GetStructuredContentInput = {
 /** Choose city */
 location: "New York" | "Chicago" | "Los Angeles";
};
type GetStructuredContentOutput = {
 /** Temperature in celsius */
 temperature: number;
 /** Weather conditions description */
 conditions: string;
 /** Humidity percentage */
 humidity: number;
};

type GetSumInput = {
 /** First number */
 a: number;
 /** Second number */
 b: number;
};
type GetSumOutput = unknown;

type GetTinyImageInput = {};
type GetTinyImageOutput = unknown;

type GzipFileAsResourceInput = {
 /** Name of the output file @default "README.md.gz" */
 name?: string;
 /** URL or data URI of the file content to compress @default "https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md" @format uri */
 data?: string;
 /** How the resulting gzipped file should be returned. @default "resourceLink" */
 outputType?: "resourceLink" | "resource";
};
type GzipFileAsResourceOutput = unknown;

type ToggleSimulatedLoggingInput = {};
type ToggleSimulatedLoggingOutput = unknown;

type ToggleSubscriberUpdatesInput = {};
type ToggleSubscriberUpdatesOutput = unknown;

type TriggerLongRunningOperationInput = {
 /** Duration of the operation in seconds @default 10 */
 duration?: number;
 /** Number of steps in the operation @default 5 */
 steps?: number;
};
type TriggerLongRunningOperationOutput = unknown;

type GetRootsListInput = {};
type GetRootsListOutput = unknown;

type TriggerElicitationRequestInput = {};
type TriggerElicitationRequestOutput = unknown;

type TriggerUrlElicitationInput = {
 /** The URL the user should open @format uri */
 url: string;
 /** Message shown to the user before opening the URL @default "Please open the link to complete this action." */
 message?: string;
 /** Optional explicit elicitation ID. */
 elicitationId?: string;
 /** Controls which elicitation mechanism is used. */
 errorPath?: boolean;
};
type TriggerUrlElicitationOutput = unknown;

type TriggerSamplingRequestInput = {
 /** The prompt to send to the LLM */
 prompt: string;
 /** Maximum number of tokens to generate @default 100 */
 maxTokens?: number;
};
type TriggerSamplingRequestOutput = unknown;

type SimulateResearchQueryInput = {
 /** The research topic to investigate */
 topic: string;
 /** Simulate an ambiguous query that requires clarification (triggers input_required status) */
 ambiguous?: boolean;
};
type SimulateResearchQueryOutput = unknown;

type TriggerSamplingRequestAsyncInput = TriggerSamplingRequestInput;
type TriggerSamplingRequestAsyncOutput = unknown;

type TriggerElicitationRequestAsyncInput = {};
type TriggerElicitationRequestAsyncOutput = unknown;

/** The @modelcontextprotocol/server-everything MCP server. */
declare const everything: {
 /** Echoes back the input string */
 echo(input: EchoInput): Promise<EchoOutput>;
 /** Demonstrates how annotations can be used to provide metadata about content. */
 get_annotated_message(input: GetAnnotatedMessageInput): Promise<GetAnnotatedMessageOutput>;
 /** Returns all environment variables, helpful for debugging MCP server configuration */
 get_env(input?: GetEnvInput): Promise<GetEnvOutput>;
 /** Returns up to ten resource links that reference different types of resources */
 get_resource_links(input?: GetResourceLinksInput): Promise<GetResourceLinksOutput>;
 /** Returns a resource reference that can be used by MCP clients */
 get_resource_reference(input?: GetResourceReferenceInput): Promise<GetResourceReferenceOutput>;
 /** Returns structured content along with an output schema for client data validation */
 get_structured_content(input: GetStructuredContentInput): Promise<GetStructuredContentOutput>;
 /** Returns the sum of two numbers */
 get_sum(input: GetSumInput): Promise<GetSumOutput>;
 /** Returns a tiny MCP logo image. */
 get_tiny_image(input?: GetTinyImageInput): Promise<GetTinyImageOutput>;
 /** Compresses a single file using gzip compression. */
 gzip_file_as_resource(input?: GzipFileAsResourceInput): Promise<GzipFileAsResourceOutput>;
 /** Toggles simulated, random-leveled logging on or off. */
 toggle_simulated_logging(input?: ToggleSimulatedLoggingInput): Promise<ToggleSimulatedLoggingOutput>;
 /** Toggles simulated resource subscription updates on or off. */
 toggle_subscriber_updates(input?: ToggleSubscriberUpdatesInput): Promise<ToggleSubscriberUpdatesOutput>;
 /** Demonstrates a long running operation with progress updates. */
 trigger_long_running_operation(input?: TriggerLongRunningOperationInput): Promise<TriggerLongRunningOperationOutput>;
 /** Lists the current MCP roots provided by the client. */
 get_roots_list(input?: GetRootsListInput): Promise<GetRootsListOutput>;
 /** Trigger a Request from the Server for User Elicitation */
 trigger_elicitation_request(input?: TriggerElicitationRequestInput): Promise<TriggerElicitationRequestOutput>;
 /** Trigger a URL elicitation so the client can direct the user to a browser flow. */
 trigger_url_elicitation(input: TriggerUrlElicitationInput): Promise<TriggerUrlElicitationOutput>;
 /** Trigger a Request from the Server for LLM Sampling */
 trigger_sampling_request(input: TriggerSamplingRequestInput): Promise<TriggerSamplingRequestOutput>;
 /** Simulates a deep research operation that gathers, analyzes, and synthesizes information. */
 simulate_research_query(input: SimulateResearchQueryInput): Promise<SimulateResearchQueryOutput>;
 /** Trigger an async sampling request that the CLIENT executes as a background task. */
 trigger_sampling_request_async(input: TriggerSamplingRequestAsyncInput): Promise<TriggerSamplingRequestAsyncOutput>;
 /** Trigger an async elicitation request that the CLIENT executes as a background task. */
 trigger_elicitation_request_async(input?: TriggerElicitationRequestAsyncInput): Promise<TriggerElicitationRequestAsyncOutput>;
};
