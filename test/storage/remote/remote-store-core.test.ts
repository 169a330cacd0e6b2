/**
 * What a remote store does with the messages its change feed brings: its own are dropped before
 * they are decoded (by the sender id at the start of the text), every other one reaches its
 * subscribers, a sender whose id merely starts with this instance's included.
 */
import { describe, expect, it } from 'vitest';
import { type ChangeFeedEvents, RemoteStoreCore } from '../../../src/storage/remote/remote-store-core';

/** A store core whose feed is the test: `deliver` hands it a message as a feed would. */
function watchedCore() {
  let events: ChangeFeedEvents | undefined;
  const core = new RemoteStoreCore({
    store: 'TestStore',
    timeoutMs: 0,
    onWatchError: undefined,
    openFeed: (feedEvents) => {
      events = feedEvents;
      return { stop: async () => {} };
    },
  });
  const changed: string[] = [];
  let resyncs = 0;
  core.watch(
    (key) => changed.push(key),
    () => resyncs++,
  );
  if (events === undefined) throw new Error('the first watch opens the feed');
  const feed = events;
  // The instance's id, as its own one-key message carries it: `k:<id>:<key>`.
  const id = core.changeMessage(['a']).slice(2, -2);
  return { core, id, changed, resyncs: () => resyncs, deliver: (text: string) => feed.onMessage(text) };
}

describe('RemoteStoreCore and the change feed', () => {
  it("drops the instance's own messages in every form: one key, several, versioned, resync", () => {
    const { core, id, changed, resyncs, deliver } = watchedCore();
    const versioned = core.versionedMessage(['a', 'b'], ['1', null])!;
    for (const text of [
      core.changeMessage(['a']),
      core.changeMessage(['a', 'b']),
      `${versioned.head}123${versioned.tail}`,
      core.changeMessage(['x'.repeat(100)], 50),
    ]) {
      deliver(text);
    }
    expect(core.changeMessage(['x'.repeat(100)], 50)).toBe(`r:${id}`);
    expect(changed).toEqual([]);
    expect(resyncs()).toBe(0);
  });

  it("delivers every other sender's message, one whose id starts with this instance's id included", () => {
    const { id, changed, resyncs, deliver } = watchedCore();
    deliver(`k:${id}0:a`);
    deliver(`m:${id}ff:["b","c"]`);
    deliver(`k:${id.slice(0, -1)}:d`);
    deliver(`r:${id}0`);
    expect(changed).toEqual(['a', 'b', 'c', 'd']);
    expect(resyncs()).toBe(1);
  });
});
