type SequentialthinkingInput = {
 /** Your current thinking step */
 thought: string;
 /** Whether another thought step is needed */
 nextThoughtNeeded: boolean | string;
 /** Current thought number (numeric value, e.g., 1, 2, 3) @minimum 1 */
 thoughtNumber: number;
 /** Estimated total thoughts needed (numeric value, e.g., 5, 10) @minimum 1 */
 totalThoughts: number;
 /** Whether this revises previous thinking */
 isRevision?: boolean | string;
 /** Which thought is being reconsidered @minimum 1 */
 revisesThought?: number;
 /** Branching point thought number @minimum 1 */
 branchFromThought?: number;
 /** Branch identifier */
 branchId?: string;
 /** If more thoughts are needed */
 needsMoreThoughts?: boolean | string;
};
type SequentialthinkingOutput = {
 thoughtNumber: number;
 totalThoughts: number;
 nextThoughtNeeded: boolean;
 branches: string[];
 thoughtHistoryLength: number;
};

/** The @modelcontextprotocol/server-sequential-thinking MCP server. */
declare const sequential_thinking: {
 /** A detailed tool for dynamic and reflective problem-solving through thoughts. */
 sequentialthinking(input: SequentialthinkingInput): Promise<SequentialthinkingOutput>;
};
