// How times, durations, calls and errors read on the page.

/** "10:42:13" */
export const clock = (ms) => new Date(ms).toLocaleTimeString();

/** "just now", "12 s ago", "3 min ago", "2 h ago", or the date for older times. */
export function ago(ms, now = Date.now()) {
  const seconds = Math.round((now - ms) / 1000);
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return new Date(ms).toLocaleString();
}

/** "4 ms", "1.2 s", "3 min 5 s" */
export function duration(ms) {
  if (!Number.isFinite(ms) || ms < 0) return "?";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  if (minutes < 60) return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A journal seq (zero-based) as a person counts: "call 1". */
export const callNumber = (seq) => `call ${Number(seq) + 1}`;

/** "tracker.create_task" */
export const callName = (call) => `${call.connector}.${call.method}`;

/** An error as readable text: a message with its real line breaks, whatever shape it came in. */
export function errorText(error) {
  if (error === undefined || error === null) return "unknown error";
  if (typeof error === "string") return error;
  if (typeof error.message === "string") return error.message;
  return JSON.stringify(error, null, 2);
}

/** Who answered: "in the chat", "in the queue", "through the API". */
export function where(via) {
  if (via === "chat") return "in the chat";
  if (via === "queue") return "in the queue";
  if (via === "api") return "through the API";
  if (via === "tool-approval") return "by a tool approval";
  return via ? `via ${via}` : "";
}

/** Keeps every `[data-ago]` element's relative time current. */
export function tickRelativeTimes(root = document) {
  const update = () => {
    for (const element of root.querySelectorAll("[data-ago]")) {
      element.textContent = ago(Number(element.dataset.ago));
    }
  };
  setInterval(update, 15_000);
}
