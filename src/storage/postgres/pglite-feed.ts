import { runStoreOperation } from '../remote/store-operation';
import type { NotificationFeed, NotificationFeedEvents, NotificationFeedTiming } from './notification-feed';
import type { PgliteListener } from './postgres-client';

/**
 * LISTEN through PGlite's own `listen` API. PGlite is one connection inside this process: it
 * cannot be lost, and a NOTIFY sent through it reaches its own listeners (the store tells its
 * own writes apart by the instance id in the payload).
 */
export class PgliteFeed implements NotificationFeed {
  readonly #unlisten: Promise<(() => Promise<void>) | undefined>;
  #stopped = false;

  /**
   * @param database - the caller's PGlite instance
   * @param channel - the channel to listen on
   * @param events - where notifications, activation and errors go
   * @param timing - the store's name and the listen timeout
   */
  constructor(
    database: PgliteListener,
    channel: string,
    events: NotificationFeedEvents,
    timing: NotificationFeedTiming,
  ) {
    const onPayload = (payload: string) => {
      if (!this.#stopped) events.onPayload(payload);
    };
    this.#unlisten = runStoreOperation(timing, 'watch', () =>
      database.listen(`"${channel}"`, onPayload),
    ).then(
      (unlisten) => {
        if (!this.#stopped) events.onActive();
        return unlisten;
      },
      (error) => {
        if (!this.#stopped) events.onError(error);
        return undefined;
      },
    );
  }

  /** Removes the store's listener (PGlite runs UNLISTEN once no listener of the channel is left). */
  async stop(): Promise<void> {
    this.#stopped = true;
    const unlisten = await this.#unlisten;
    await unlisten?.().catch(() => undefined);
  }
}
