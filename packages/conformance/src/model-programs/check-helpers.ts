// Small helpers the model programs' checks share.
import type { Outcome } from "./model-program.ts";
import type { Invoice, Rec } from "./world.ts";

export const iso = (ms: number) => new Date(ms).toISOString();
export const round2 = (n: number) => Math.round(n * 100) / 100;
export const unpaidTotal = (invoices: Invoice[]) =>
  invoices.filter((invoice) => !invoice.paid).reduce((sum, invoice) => sum + invoice.amount, 0);
export const orNull = <T>(body: () => T): T | null => {
  try {
    return body();
  } catch {
    return null;
  }
};
export const shownAt = (outcome: Outcome, index = 0) => outcome.shown[index] as Rec;
