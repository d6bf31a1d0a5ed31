// Fields documented once here mean the same wherever they appear below without a comment:
//   button: Button to click, defaults to left
//   element: Human-readable element description used to obtain permission to interact with the element
//   filename: File name to save the result to.
//   target: Exact target element reference from the page snapshot, or a unique element selector
//   x: X coordinate
//   y: Y coordinate

type BrowserCloseInput = {};
type BrowserCloseOutput = unknown;

type BrowserResizeInput = {
 /** Width of the browser window */
 width: number;
 /** Height of the browser window */
 height: number;
};
type BrowserResizeOutput = unknown;

type BrowserConsoleMessagesInput = {
 /** Level of the console messages to return. @default "info" */
 level?: "error" | "warning" | "info" | "debug";
 /** Return all console messages since the beginning of the session, not just since the last navigation. */
 all?: boolean;
 /** File name to save the console messages to. */
 filename?: string;
};
type BrowserConsoleMessagesOutput = unknown;

type BrowserResumeInput = {
 /** When true, execution will pause again before the next action, allowing step-by-step debugging. */
 step?: boolean;
 /** Pause execution at a specific <file>:<line>, e.g. "example.spec.ts:42". */
 location?: string;
};
type BrowserResumeOutput = unknown;

type BrowserHighlightInput = {
 element?: string;
 target: string;
 /** Additional inline CSS applied to the highlight overlay, e.g. "outline: 2px dashed red". */
 style?: string;
};
type BrowserHighlightOutput = unknown;

type BrowserHideHighlightInput = {
 /** Human-readable element description used when adding the highlight; must match the value passed to browser_highlight. */
 element?: string;
 target?: string;
};
type BrowserHideHighlightOutput = unknown;

type BrowserAnnotateInput = {};
type BrowserAnnotateOutput = unknown;

type BrowserHandleDialogInput = {
 /** Whether to accept the dialog. */
 accept: boolean;
 /** The text of the prompt in case of a prompt dialog. */
 promptText?: string;
};
type BrowserHandleDialogOutput = unknown;

type BrowserEmulateMediaInput = {
 /** Emulates the prefers-color-scheme media feature */
 colorScheme?: "light" | "dark" | null;
 /** Emulates the prefers-reduced-motion media feature */
 reducedMotion?: "reduce" | "no-preference" | null;
 /** Emulates the forced-colors media feature */
 forcedColors?: "active" | "none" | null;
 /** Emulates the prefers-contrast media feature */
 contrast?: "more" | "no-preference" | null;
 /** Changes the CSS media type of the page */
 media?: "screen" | "print" | null;
};
type BrowserEmulateMediaOutput = unknown;

type BrowserEvaluateInput = {
 element?: string;
 target?: string;
 /** () => { /* code *\/ } or (element) => { /* code *\/ } when element is provided */
 function: string;
 filename?: string;
};
type BrowserEvaluateOutput = unknown;

type BrowserFileUploadInput = {
 /** The absolute paths to the files to upload. */
 paths?: string[];
};
type BrowserFileUploadOutput = unknown;

type BrowserDropInput = {
 element?: string;
 target: string;
 /** Absolute paths to files to drop onto the element. */
 paths?: string[];
 /** Data to drop, as a map of MIME type to string value (e.g. {"text/plain": "hello", "text/uri-list": "https://example.com"}). */
 data?: Record<string, string>;
};
type BrowserDropOutput = unknown;

type BrowserFindInput = {
 /** Plain text to search for in the page snapshot (case-insensitive substring match). */
 text?: string;
 /** Regular expression to search for in the page snapshot. */
 regex?: string;
 /** Save results to a file instead of returning them in the response. */
 filename?: string;
};
type BrowserFindOutput = unknown;

type BrowserFillFormInput = {
 /** Fields to fill in */
 fields: {
  element?: string;
  target: string;
  /** Human-readable field name */
  name: string;
  /** Type of the field */
  type: "textbox" | "checkbox" | "radio" | "combobox" | "slider";
  /** Value to fill in the field. */
  value: string;
 }[];
};
type BrowserFillFormOutput = unknown;

type BrowserPressKeyInput = {
 /** Name of the key to press or a character to generate, such as `ArrowLeft` or `a` */
 key: string;
};
type BrowserPressKeyOutput = unknown;

type BrowserTypeInput = {
 element?: string;
 target: string;
 /** Text to type into the element */
 text: string;
 /** Whether to submit entered text (press Enter after) */
 submit?: boolean;
 /** Whether to type one character at a time. */
 slowly?: boolean;
};
type BrowserTypeOutput = unknown;

type BrowserMouseMoveXyInput = {
 x: number;
 y: number;
};
type BrowserMouseMoveXyOutput = unknown;

type BrowserMouseClickXyInput = {
 x: number;
 y: number;
 button?: "left" | "right" | "middle";
 /** Number of clicks, defaults to 1 */
 clickCount?: number;
 /** Time to wait between mouse down and mouse up in milliseconds, defaults to 0 */
 delay?: number;
};
type BrowserMouseClickXyOutput = unknown;

type BrowserMouseDragXyInput = {
 /** Start X coordinate */
 startX: number;
 /** Start Y coordinate */
 startY: number;
 /** End X coordinate */
 endX: number;
 /** End Y coordinate */
 endY: number;
};
type BrowserMouseDragXyOutput = unknown;

type BrowserMouseDownInput = {
 /** Button to press, defaults to left */
 button?: "left" | "right" | "middle";
};
type BrowserMouseDownOutput = unknown;

type BrowserMouseUpInput = BrowserMouseDownInput;
type BrowserMouseUpOutput = unknown;

type BrowserMouseWheelInput = {
 /** X delta @default 0 */
 deltaX?: number;
 /** Y delta @default 0 */
 deltaY?: number;
};
type BrowserMouseWheelOutput = unknown;

type BrowserNavigateInput = {
 /** The URL to navigate to */
 url: string;
};
type BrowserNavigateOutput = unknown;

type BrowserNavigateBackInput = {};
type BrowserNavigateBackOutput = unknown;

type BrowserNetworkRequestsInput = {
 /** Whether to include successful static resources like images, fonts, scripts, etc. Defaults to false. */
 static?: boolean;
 /** Only return requests whose URL matches this regexp (e.g. "/api/.*user"). */
 filter?: string;
 /** File name to save the network requests to. */
 filename?: string;
};
type BrowserNetworkRequestsOutput = unknown;

type BrowserNetworkRequestInput = {
 /** 1-based index of the request, as printed by browser_network_requests. @minimum 1 */
 index: number;
 /** Return only this part of the request. */
 part?: "request-headers" | "request-body" | "response-headers" | "response-body";
 filename?: string;
};
type BrowserNetworkRequestOutput = unknown;

type BrowserPdfSaveInput = {
 /** File name to save the pdf to. */
 filename?: string;
};
type BrowserPdfSaveOutput = unknown;

type BrowserStartRecordingInput = {};
type BrowserStartRecordingOutput = unknown;

type BrowserStopRecordingInput = {};
type BrowserStopRecordingOutput = unknown;

type BrowserRunCodeUnsafeInput = {
 /** A JavaScript function containing Playwright code to execute. */
 code?: string;
 /** Load code from the specified file. */
 filename?: string;
};
type BrowserRunCodeUnsafeOutput = unknown;

type BrowserTakeScreenshotInput = {
 element?: string;
 target?: string;
 /** Image format for the screenshot. */
 type?: "png" | "jpeg" | "webp";
 /** File name to save the screenshot to. */
 filename?: string;
 /** When true, takes a screenshot of the full scrollable page, instead of the currently visible viewport. */
 fullPage?: boolean;
 /** Image resolution scale. @default "css" */
 scale?: "css" | "device";
};
type BrowserTakeScreenshotOutput = unknown;

type BrowserSnapshotInput = {
 target?: string;
 /** Save snapshot to a file instead of returning it in the response. */
 filename?: string;
 /** Limit the depth of the snapshot tree */
 depth?: number;
 /** Include each element's bounding box as [box=x,y,width,height] in the snapshot. */
 boxes?: boolean;
};
type BrowserSnapshotOutput = unknown;

type BrowserClickInput = {
 element?: string;
 target: string;
 /** Whether to perform a double click instead of a single click */
 doubleClick?: boolean;
 button?: "left" | "right" | "middle";
 /** Modifier keys to press */
 modifiers?: ("Alt" | "Control" | "ControlOrMeta" | "Meta" | "Shift")[];
};
type BrowserClickOutput = unknown;

type BrowserDragInput = {
 /** Human-readable source element description used to obtain the permission to interact with the element */
 startElement?: string;
 /** Exact target element reference from the page snapshot, or a unique element selector */
 startTarget: string;
 /** Human-readable target element description used to obtain the permission to interact with the element */
 endElement?: string;
 /** Exact target element reference from the page snapshot, or a unique element selector */
 endTarget: string;
};
type BrowserDragOutput = unknown;

type BrowserHoverInput = {
 element?: string;
 target: string;
};
type BrowserHoverOutput = unknown;

type BrowserSelectOptionInput = {
 element?: string;
 target: string;
 /** Array of values to select in the dropdown. */
 values: string[];
};
type BrowserSelectOptionOutput = unknown;

type BrowserTabsInput = {
 /** Operation to perform */
 action: "list" | "new" | "close" | "select";
 /** Tab index, used for close/select. */
 index?: number;
 /** URL to navigate to in the new tab, used for new. */
 url?: string;
};
type BrowserTabsOutput = unknown;

type BrowserStartTracingInput = {};
type BrowserStartTracingOutput = unknown;

type BrowserStopTracingInput = {};
type BrowserStopTracingOutput = unknown;

type BrowserStartVideoInput = {
 /** File name to save the video to. */
 filename?: string;
 /** Video size */
 size?: {
  /** Video width */
  width: number;
  /** Video height */
  height: number;
 };
 /** Video frame rate in frames per second, defaults to 25 */
 fps?: number;
 /** Render an animated mouse cursor that travels to each action point. */
 cursor?: boolean;
};
type BrowserStartVideoOutput = unknown;

type BrowserStopVideoInput = {};
type BrowserStopVideoOutput = unknown;

type BrowserVideoChapterInput = {
 /** Chapter title */
 title: string;
 /** Chapter description */
 description?: string;
 /** Duration in milliseconds to show the chapter card */
 duration?: number;
};
type BrowserVideoChapterOutput = unknown;

type BrowserVideoShowActionsInput = {
 /** How long each action annotation stays on screen, in milliseconds. */
 duration?: number;
 /** Where to place the action title relative to the page. */
 position?: "top-left" | "top" | "top-right" | "bottom-left" | "bottom" | "bottom-right";
 /** Cursor decoration for pointer actions. */
 cursor?: "none" | "pointer";
 /** Styles of the action decorations. */
 style?: {
  /** CSS declarations for the zero-sized marker centered on the action point, e.g. "width: 20px; height: 20px; border-radius: 50%; background: red". */
  point?: string;
  /** CSS declarations for the box that covers the target element, e.g. "outline: 2px solid #333". */
  highlight?: string;
  /** CSS declarations for the action title, e.g. "font-size: 16px". */
  title?: string;
 };
};
type BrowserVideoShowActionsOutput = unknown;

type BrowserVideoHideActionsInput = {};
type BrowserVideoHideActionsOutput = unknown;

type BrowserWaitForInput = {
 /** The time to wait in seconds, at most 30 */
 time?: number;
 /** The text to wait for */
 text?: string;
 /** The text to wait for to disappear */
 textGone?: string;
};
type BrowserWaitForOutput = unknown;

/** The @playwright/mcp MCP server. */
declare const playwright: {
 /** Close the page @approval */
 browser_close(input?: BrowserCloseInput): Promise<BrowserCloseOutput>;
 /** Resize the browser window @approval */
 browser_resize(input: BrowserResizeInput): Promise<BrowserResizeOutput>;
 /** Returns all console messages */
 browser_console_messages(input?: BrowserConsoleMessagesInput): Promise<BrowserConsoleMessagesOutput>;
 /** Resume script execution after it was paused. @approval */
 browser_resume(input?: BrowserResumeInput): Promise<BrowserResumeOutput>;
 /** Show a persistent highlight overlay around the element on the page. */
 browser_highlight(input: BrowserHighlightInput): Promise<BrowserHighlightOutput>;
 /** Remove a highlight overlay previously added for the element. */
 browser_hide_highlight(input?: BrowserHideHighlightInput): Promise<BrowserHideHighlightOutput>;
 /** Open the Playwright Dashboard in annotation mode for the current page and wait for the user to draw annotations. */
 browser_annotate(input?: BrowserAnnotateInput): Promise<BrowserAnnotateOutput>;
 /** Handle a dialog @approval */
 browser_handle_dialog(input: BrowserHandleDialogInput): Promise<BrowserHandleDialogOutput>;
 /** Emulate CSS media features for the page, for example switch between the light and dark color scheme. @approval */
 browser_emulate_media(input?: BrowserEmulateMediaInput): Promise<BrowserEmulateMediaOutput>;
 /** Evaluate JavaScript expression on page or element @approval */
 browser_evaluate(input: BrowserEvaluateInput): Promise<BrowserEvaluateOutput>;
 /** Upload one or multiple files @approval */
 browser_file_upload(input?: BrowserFileUploadInput): Promise<BrowserFileUploadOutput>;
 /** Drop files or MIME-typed data onto an element, as if dragged from outside the page. @approval */
 browser_drop(input: BrowserDropInput): Promise<BrowserDropOutput>;
 /** Search the accessibility snapshot of the current page for text or a regular expression. */
 browser_find(input?: BrowserFindInput): Promise<BrowserFindOutput>;
 /** Fill multiple form fields @approval */
 browser_fill_form(input: BrowserFillFormInput): Promise<BrowserFillFormOutput>;
 /** Press a key on the keyboard @approval */
 browser_press_key(input: BrowserPressKeyInput): Promise<BrowserPressKeyOutput>;
 /** Type text into editable element @approval */
 browser_type(input: BrowserTypeInput): Promise<BrowserTypeOutput>;
 /** Move mouse to a given position @approval */
 browser_mouse_move_xy(input: BrowserMouseMoveXyInput): Promise<BrowserMouseMoveXyOutput>;
 /** Click mouse button at a given position @approval */
 browser_mouse_click_xy(input: BrowserMouseClickXyInput): Promise<BrowserMouseClickXyOutput>;
 /** Drag left mouse button to a given position @approval */
 browser_mouse_drag_xy(input: BrowserMouseDragXyInput): Promise<BrowserMouseDragXyOutput>;
 /** Press mouse down @approval */
 browser_mouse_down(input?: BrowserMouseDownInput): Promise<BrowserMouseDownOutput>;
 /** Press mouse up @approval */
 browser_mouse_up(input?: BrowserMouseUpInput): Promise<BrowserMouseUpOutput>;
 /** Scroll mouse wheel @approval */
 browser_mouse_wheel(input?: BrowserMouseWheelInput): Promise<BrowserMouseWheelOutput>;
 /** Navigate to a URL @approval */
 browser_navigate(input: BrowserNavigateInput): Promise<BrowserNavigateOutput>;
 /** Go back to the previous page in the history @approval */
 browser_navigate_back(input?: BrowserNavigateBackInput): Promise<BrowserNavigateBackOutput>;
 /** Returns a numbered list of network requests since loading the page. */
 browser_network_requests(input?: BrowserNetworkRequestsInput): Promise<BrowserNetworkRequestsOutput>;
 /** Returns full details (headers and body) of a single network request, or a single part if `part` is set. */
 browser_network_request(input: BrowserNetworkRequestInput): Promise<BrowserNetworkRequestOutput>;
 /** Save page as PDF */
 browser_pdf_save(input?: BrowserPdfSaveInput): Promise<BrowserPdfSaveOutput>;
 /** Start recording actions that the user performs in the browser as Playwright code. */
 browser_start_recording(input?: BrowserStartRecordingInput): Promise<BrowserStartRecordingOutput>;
 /** Stop the recording started with browser_start_recording and return the recorded actions as Playwright code. */
 browser_stop_recording(input?: BrowserStopRecordingInput): Promise<BrowserStopRecordingOutput>;
 /** Run a Playwright code snippet. @approval */
 browser_run_code_unsafe(input?: BrowserRunCodeUnsafeInput): Promise<BrowserRunCodeUnsafeOutput>;
 /** Take a screenshot of the current page. */
 browser_take_screenshot(input?: BrowserTakeScreenshotInput): Promise<BrowserTakeScreenshotOutput>;
 /** Capture accessibility snapshot of the current page, this is better than screenshot */
 browser_snapshot(input?: BrowserSnapshotInput): Promise<BrowserSnapshotOutput>;
 /** Perform click on a web page @approval */
 browser_click(input: BrowserClickInput): Promise<BrowserClickOutput>;
 /** Perform drag and drop between two elements @approval */
 browser_drag(input: BrowserDragInput): Promise<BrowserDragOutput>;
 /** Hover over element on page @approval */
 browser_hover(input: BrowserHoverInput): Promise<BrowserHoverOutput>;
 /** Select an option in a dropdown @approval */
 browser_select_option(input: BrowserSelectOptionInput): Promise<BrowserSelectOptionOutput>;
 /** List, create, close, or select a browser tab. @approval */
 browser_tabs(input: BrowserTabsInput): Promise<BrowserTabsOutput>;
 /** Start trace recording */
 browser_start_tracing(input?: BrowserStartTracingInput): Promise<BrowserStartTracingOutput>;
 /** Stop trace recording */
 browser_stop_tracing(input?: BrowserStopTracingInput): Promise<BrowserStopTracingOutput>;
 /** Start video recording */
 browser_start_video(input?: BrowserStartVideoInput): Promise<BrowserStartVideoOutput>;
 /** Stop video recording */
 browser_stop_video(input?: BrowserStopVideoInput): Promise<BrowserStopVideoOutput>;
 /** Add a chapter marker to the video recording. */
 browser_video_chapter(input: BrowserVideoChapterInput): Promise<BrowserVideoChapterOutput>;
 /** Annotate subsequent actions performed on the page with a callout that names the action and, when styled, marks the action point and highlights the target element. */
 browser_video_show_actions(input?: BrowserVideoShowActionsInput): Promise<BrowserVideoShowActionsOutput>;
 /** Stop annotating actions performed on the page. */
 browser_video_hide_actions(input?: BrowserVideoHideActionsInput): Promise<BrowserVideoHideActionsOutput>;
 /** Wait for text to appear or disappear or a specified time to pass */
 browser_wait_for(input?: BrowserWaitForInput): Promise<BrowserWaitForOutput>;
};
