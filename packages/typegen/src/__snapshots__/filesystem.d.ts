type ReadFileInput = {
 path: string;
 /** If provided, returns only the last N lines of the file */
 tail?: number;
 /** If provided, returns only the first N lines of the file */
 head?: number;
};
type ReadFileOutput = { content: string };

type ReadTextFileInput = ReadFileInput;
type ReadTextFileOutput = ReadFileOutput;

type ReadMediaFileInput = { path: string };
type ReadMediaFileOutput = {
 content: ({ type: "image" | "audio"; data: string; mimeType: string } | {
  type: "resource";
  resource: { uri: string; mimeType?: string; blob: string };
 })[];
};

type ReadMultipleFilesInput = {
 /** Array of file paths to read. */
 paths: string[];
};
type ReadMultipleFilesOutput = ReadFileOutput;

type WriteFileInput = { path: string; content: string };
type WriteFileOutput = ReadFileOutput;

type EditFileInput = {
 path: string;
 edits: {
  /** Text to search for - must match exactly */
  oldText: string;
  /** Text to replace with */
  newText: string;
 }[];
 /** Preview changes using git-style diff format */
 dryRun?: boolean;
};
type EditFileOutput = ReadFileOutput;

type CreateDirectoryInput = ReadMediaFileInput;
type CreateDirectoryOutput = ReadFileOutput;

type ListDirectoryInput = ReadMediaFileInput;
type ListDirectoryOutput = ReadFileOutput;

type ListDirectoryWithSizesInput = {
 path: string;
 /** Sort entries by name or size @default "name" */
 sortBy?: "name" | "size";
};
type ListDirectoryWithSizesOutput = ReadFileOutput;

type DirectoryTreeInput = {
 path: string;
 /** @default [] */
 excludePatterns?: string[];
};
type DirectoryTreeOutput = ReadFileOutput;

type MoveFileInput = { source: string; destination: string };
type MoveFileOutput = ReadFileOutput;

type SearchFilesInput = {
 path: string;
 pattern: string;
 /** @default [] */
 excludePatterns?: string[];
};
type SearchFilesOutput = ReadFileOutput;

type GetFileInfoInput = ReadMediaFileInput;
type GetFileInfoOutput = ReadFileOutput;

type ListAllowedDirectoriesInput = {};
type ListAllowedDirectoriesOutput = ReadFileOutput;

/** The @modelcontextprotocol/server-filesystem MCP server. */
declare const filesystem: {
 /** Read the complete contents of a file as text. */
 read_file(input: ReadFileInput): Promise<ReadFileOutput>;
 /** Read the complete contents of a file from the file system as text. */
 read_text_file(input: ReadTextFileInput): Promise<ReadTextFileOutput>;
 /** Read a file and return it as a base64-encoded content block with its MIME type. */
 read_media_file(input: ReadMediaFileInput): Promise<ReadMediaFileOutput>;
 /** Read the contents of multiple files simultaneously. */
 read_multiple_files(input: ReadMultipleFilesInput): Promise<ReadMultipleFilesOutput>;
 /** Create a new file or completely overwrite an existing file with new content. @approval */
 write_file(input: WriteFileInput): Promise<WriteFileOutput>;
 /** Make line-based edits to a text file. @approval */
 edit_file(input: EditFileInput): Promise<EditFileOutput>;
 /** Create a new directory or ensure a directory exists. */
 create_directory(input: CreateDirectoryInput): Promise<CreateDirectoryOutput>;
 /** Get a detailed listing of all files and directories in a specified path. */
 list_directory(input: ListDirectoryInput): Promise<ListDirectoryOutput>;
 /** Get a detailed listing of all files and directories in a specified path, including sizes. */
 list_directory_with_sizes(input: ListDirectoryWithSizesInput): Promise<ListDirectoryWithSizesOutput>;
 /** Get a recursive tree view of files and directories as a JSON structure. */
 directory_tree(input: DirectoryTreeInput): Promise<DirectoryTreeOutput>;
 /** Move or rename files and directories. @approval */
 move_file(input: MoveFileInput): Promise<MoveFileOutput>;
 /** Recursively search for files and directories matching a pattern. */
 search_files(input: SearchFilesInput): Promise<SearchFilesOutput>;
 /** Retrieve detailed metadata about a file or directory. */
 get_file_info(input: GetFileInfoInput): Promise<GetFileInfoOutput>;
 /** Returns the list of directories that this server is allowed to access. */
 list_allowed_directories(input?: ListAllowedDirectoriesInput): Promise<ListAllowedDirectoriesOutput>;
};
