// What the demo page's end-to-end tests do as a person would: open a folded panel, answer a card
// and wait for the turn it starts, read a field of a JSON tree, check that nothing is wider than
// the window.
import type { Locator, Page } from "playwright-core";

/** Opens a folded panel of the side column (`<details id=…>`) if it is closed. */
export async function openPanel(page: Page, id: string): Promise<void> {
  const panel = page.locator(`details#${id}`);
  if ((await panel.getAttribute("open")) === null) await panel.locator("> summary").click();
}

/** The chat's count of finished turns. */
export async function turns(page: Page): Promise<number> {
  return Number((await page.locator("#chat-log").getAttribute("data-turns")) ?? 0);
}

/** Runs `act` (which starts a turn: an answer to a card, say) and waits until that turn is done. */
export async function andTheTurn(page: Page, act: () => Promise<void>): Promise<void> {
  const before = await turns(page);
  await act();
  await page.waitForSelector(`#chat-log[data-turns="${before + 1}"]`);
}

/** The text of a key's value in a JSON tree (the first row with that key). */
export function jsonField(tree: Locator, key: string): Promise<string | null> {
  return tree
    .locator(".j-row", { has: tree.page().locator(`> .j-key:text-is("${key}")`) })
    .first()
    .locator("> :nth-child(2)")
    .textContent();
}

/** Elements wider than their box (a horizontal scrollbar), by a short description of each. */
export function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const wide: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      wide.push(`page ${root.scrollWidth}>${root.clientWidth}`);
    const boxes = Array.from(
      document.querySelectorAll<HTMLElement>("main, .side, #chat-log, .panel"),
    );
    for (const element of boxes) {
      const style = getComputedStyle(element);
      if (style.display === "none") continue;
      if (element.scrollWidth > element.clientWidth + 1) {
        wide.push(
          `${element.id || element.className} ${element.scrollWidth}>${element.clientWidth}`,
        );
      }
    }
    return wide;
  });
}

/** Whether an input's placeholder fits in its box, measured in the input's own font. */
export function placeholderFits(page: Page, selector: string): Promise<boolean> {
  return page.$eval(selector, (element) => {
    const input = element as HTMLInputElement;
    const style = getComputedStyle(input);
    const context = document.createElement("canvas").getContext("2d");
    if (!context) return false;
    context.font = style.font;
    const room =
      input.clientWidth -
      Number.parseFloat(style.paddingLeft) -
      Number.parseFloat(style.paddingRight);
    return context.measureText(input.placeholder).width <= room;
  });
}
