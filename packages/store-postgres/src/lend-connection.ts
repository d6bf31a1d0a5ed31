import type { PgLentClient, PgPoolLike } from "./pg-client.ts";
import { storeFailed } from "./pg-client.ts";

/** A connection the pool lent: its `error` events are heard from the moment it was handed over. */
export interface LentConnection {
  client: PgLentClient;
  /** whether the connection dropped (it emitted `error`) since it was lent */
  readonly broken: boolean;
  /** stops listening and hands it back; a connection that dropped (or `discard`) is not reused */
  release(discard?: boolean): void;
}

/**
 * Borrows one connection of `pool` and listens to its `error` event before anything else can
 * happen on it.
 *
 * A lent node-postgres client that hears no `error` listener when its connection drops ends the
 * process. The pool stops listening as it hands a client over, and the server's notice that it
 * ended the connection (an administrator's `pg_terminate_backend`, a restart) can arrive in the
 * same read as the message that made the client ready: node-postgres then emits `error` before a
 * promise's continuation could add a listener. The callback form of `connect` runs in that same
 * turn, so the listener is in place first. A pool whose `connect` ignores the callback and returns
 * a promise is listened to when the promise settles.
 */
export function lendConnection(pool: PgPoolLike): Promise<LentConnection> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const lent = (error: unknown, client: PgLentClient | undefined) => {
      if (settled) return;
      settled = true;
      if (error !== undefined && error !== null) return reject(storeFailed(error));
      if (!client) return reject(storeFailed(new Error("the pool lent no connection")));
      let broken = false;
      const dropped = () => {
        broken = true;
      };
      client.on?.("error", dropped);
      resolve({
        client,
        get broken() {
          return broken;
        },
        release(discard = false) {
          client.off?.("error", dropped);
          client.release(broken || discard);
        },
      });
    };
    let answer: undefined | PromiseLike<PgLentClient>;
    try {
      answer = pool.connect((error, client) => lent(error, client));
    } catch (error) {
      lent(error, undefined);
      return;
    }
    if (answer && typeof answer.then === "function") {
      answer.then(
        (client) => lent(undefined, client),
        (error: unknown) => lent(error ?? new Error("the pool refused a connection"), undefined),
      );
    }
  });
}
