// The first screen's starters: what to try, each a button that sends its prompt.
import { api } from "./api.js";
import { h } from "./dom.js";

/** Suggestions shown at most. */
const SHOWN = 12;

/** Fills `target` with the agent's suggestions; `send(prompt)` sends one. */
export async function showSuggestions(target, send) {
  let suggestions;
  try {
    suggestions = await api("suggestions");
  } catch (error) {
    target.replaceChildren(
      h(
        "p",
        { class: "empty" },
        `No suggestions to show (${error.message}). Type a request below.`,
      ),
    );
    return;
  }
  const list = Array.isArray(suggestions) ? suggestions.slice(0, SHOWN) : [];
  target.replaceChildren(
    h("h3", { class: "welcome-title" }, "What the agent can do"),
    h(
      "p",
      { class: "hint" },
      "It answers by writing one program over the tracker, the notes and the catalog. Calls that change something wait for your approval here in the chat. Pick one to start:",
    ),
    h(
      "div",
      { class: "suggestions" },
      list.map((suggestion) =>
        h(
          "button",
          {
            type: "button",
            class: "suggestion",
            "data-prompt": suggestion.prompt,
            title: `Sends: ${suggestion.prompt}`,
            onclick: () => send(suggestion.prompt),
          },
          h("strong", { class: "suggestion-title" }, suggestion.title),
          h("span", { class: "suggestion-shows" }, suggestion.shows),
          h("span", { class: "suggestion-prompt" }, `“${suggestion.prompt}”`),
        ),
      ),
    ),
  );
}
