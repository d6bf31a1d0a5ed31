// A small in-page confirm (a modal <dialog>, not window.confirm, so a test can drive it): resolves
// true on the confirm button, false on Cancel or Escape.
import { h } from "./dom.js";

/**
 * Asks before something that cannot be taken back. `body` is any nodes; `confirmLabel` names what
 * happens. `ready(content, confirmButton)`, when given, fills the body later (a preview still
 * loading): the confirm button stays disabled until its promise resolves to true.
 */
export function confirmDialog({
  title,
  body = [],
  confirmLabel = "Confirm",
  danger = true,
  ready,
}) {
  return new Promise((resolve) => {
    const confirm = h(
      "button",
      { type: "button", class: `confirm-yes${danger ? " danger-solid" : ""}` },
      confirmLabel,
    );
    const cancel = h("button", { type: "button", class: "confirm-no secondary" }, "Cancel");
    const content = h("div", { class: "confirm-body" }, body);
    const dialog = h(
      "dialog",
      { class: "confirm", "aria-labelledby": "confirm-title" },
      h("h3", { id: "confirm-title" }, title),
      content,
      h("div", { class: "row end" }, cancel, confirm),
    );
    let settled = false;
    const close = (answer) => {
      if (settled) return;
      settled = true;
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    confirm.addEventListener("click", () => close(true));
    cancel.addEventListener("click", () => close(false));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      close(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    if (ready) {
      confirm.disabled = true;
      ready(content, confirm).then(
        (ok) => {
          confirm.disabled = !ok;
          if (ok) confirm.focus();
        },
        () => {
          confirm.disabled = true;
        },
      );
    } else {
      cancel.focus();
    }
  });
}
