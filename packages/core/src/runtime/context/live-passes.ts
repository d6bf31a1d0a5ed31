import { type Cancellation, PassTicket } from "./cancellation.ts";

/** The runs that have a pass running (and the reverts running), for one store in this process. */
export interface LivePasses {
  add(id: string): void;
  delete(id: string): void;
  has(id: string): boolean;
  /**
   * A pass of this process is about to take run `id` (or holds it): its ticket, until it leaves,
   * is what `runtime.cancel` stops
   */
  enter(id: string): PassTicket;
  /** the tickets of run `id` in this process */
  tickets(id: string): readonly PassTicket[];
  /**
   * `runtime.cancel` of run `id` is under way: every ticket of it, those that enter meanwhile too,
   * is cancelled, until the returned function is called
   */
  cancelling(id: string, cancellation: Cancellation): () => void;
}

/**
 * The live passes of the runtimes over one storage in this process, kept in that storage's
 * `StoreLocal` (see store-local.ts): a runtime made for one request never expires a run whose pass
 * another runtime over the same storage is still driving.
 */
export function createLivePasses(): LivePasses {
  const counts = new Map<string, number>();
  const tickets = new Map<string, Set<PassTicket>>();
  const intents = new Map<string, Cancellation[]>();
  return {
    enter(id) {
      const held = tickets.get(id) ?? new Set<PassTicket>();
      tickets.set(id, held);
      const ticket = new PassTicket(id, () => {
        held.delete(ticket);
        if (held.size === 0 && tickets.get(id) === held) tickets.delete(id);
      });
      held.add(ticket);
      const [cancellation] = intents.get(id) ?? [];
      if (cancellation) ticket.cancel(cancellation);
      return ticket;
    },
    cancelling(id, cancellation) {
      const under = intents.get(id) ?? [];
      intents.set(id, [...under, cancellation]);
      for (const ticket of tickets.get(id) ?? []) ticket.cancel(cancellation);
      return () => {
        const left = (intents.get(id) ?? []).filter((each) => each !== cancellation);
        if (left.length > 0) intents.set(id, left);
        else intents.delete(id);
      };
    },
    tickets(id) {
      return [...(tickets.get(id) ?? [])];
    },
    add(id) {
      counts.set(id, (counts.get(id) ?? 0) + 1);
    },
    delete(id) {
      const count = (counts.get(id) ?? 1) - 1;
      if (count > 0) counts.set(id, count);
      else counts.delete(id);
    },
    has(id) {
      return counts.has(id);
    },
  };
}
