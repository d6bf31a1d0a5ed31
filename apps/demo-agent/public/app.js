// The page: wires the chat, the run detail and the panels; every panel refreshes when the agent
// says something changed.
import { createApprovals } from "./approvals.js";
import { refreshCatalog } from "./catalog.js";
import { startChat } from "./chat.js";
import { showConnectors } from "./connectors.js";
import { createExecutions } from "./executions.js";
import { tickRelativeTimes } from "./format.js";
import { refreshNotes } from "./notes.js";
import { createRunCode } from "./run-code.js";
import { createRunDetail } from "./run-detail.js";
import { serial } from "./serial.js";
import { createSnippets } from "./snippets.js";
import { refreshTracker } from "./tracker.js";

const refreshers = [];

/** Refreshes every panel, one refresh at a time. */
const refreshAll = serial(() =>
  Promise.all(refreshers.map((refresh) => refresh().catch((error) => console.error(error)))),
);

refreshers.push(
  createApprovals({ refreshAll }),
  createExecutions(),
  createRunDetail({ refreshAll }),
  createSnippets({ refreshAll }),
  refreshTracker,
  refreshNotes,
  refreshCatalog,
);
createRunCode({ refreshAll });
startChat({ onChanged: refreshAll });
tickRelativeTimes();
showConnectors().catch((error) => console.error(error));
refreshAll().then(() => {
  document.body.dataset.ready = "true";
});
