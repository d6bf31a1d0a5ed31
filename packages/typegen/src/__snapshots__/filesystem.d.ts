// Fields documented once here mean the same wherever they appear below without a comment:
//   head: If provided, returns only the first N lines of the file
//   tail: If provided, returns only the last N lines of the file

type ReadFileInput = {
  path: string;
  tail?: number;
  head?: number;
};
type ReadFileOutput = { content: string };

type ReadTextFileInput = {
  path: string;
  tail?: number;
  head?: number;
};
type ReadTextFileOutput = { content: string };

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
type ReadMultipleFilesOutput = { content: string };

type WriteFileInput = { path: string; content: string };
type WriteFileOutput = { content: string };

type EditFileInput = {
  path: string;
  edits: {
    /** Text to search for - must match exactly */
    oldText: string;
    /** Text to replace with */
    newText: string;
  }[];
  /** Preview changes using git-style diff format @default false */
  dryRun?: boolean;
};
type EditFileOutput = { content: string };

type CreateDirectoryInput = { path: string };
type CreateDirectoryOutput = { content: string };

type ListDirectoryInput = { path: string };
type ListDirectoryOutput = { content: string };

type ListDirectoryWithSizesInput = {
  path: string;
  /** Sort entries by name or size @default "name" */
  sortBy?: "name" | "size";
};
type ListDirectoryWithSizesOutput = { content: string };

type DirectoryTreeInput = {
  path: string;
  /** @default [] */
  excludePatterns?: string[];
};
type DirectoryTreeOutput = { content: string };

type MoveFileInput = { source: string; destination: string };
type MoveFileOutput = { content: string };

type SearchFilesInput = {
  path: string;
  pattern: string;
  /** @default [] */
  excludePatterns?: string[];
};
type SearchFilesOutput = { content: string };

type GetFileInfoInput = { path: string };
type GetFileInfoOutput = { content: string };

type ListAllowedDirectoriesInput = {};
type ListAllowedDirectoriesOutput = { content: string };

/**
 * The @modelcontextprotocol/server-filesystem MCP server.
 * Methods marked @approval: the run pauses at the call until a person approves it.
 */
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
