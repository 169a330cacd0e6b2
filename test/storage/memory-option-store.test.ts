import { MemoryOptionStore } from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('MemoryOptionStore', () => {
  it('starts from an object, from pairs, or empty', async () => {
    expect(await new MemoryOptionStore({ a: '1' }).get('a')).toBe('1');
    expect(await new MemoryOptionStore([['b', '2']]).get('b')).toBe('2');
    expect(await new MemoryOptionStore(new Map([['c', '3']])).get('c')).toBe('3');
    expect(await new MemoryOptionStore().get('a')).toBeUndefined();
  });

  it('gets, sets and deletes text; absent keys are absent from getMany', async () => {
    const store = new MemoryOptionStore({ a: '1' });
    await store.set('b', '');
    await store.set('a', 'one');
    expect(await store.getMany(['a', 'b', 'missing'])).toEqual(
      new Map([
        ['a', 'one'],
        ['b', ''],
      ]),
    );
    expect(await store.getMany([])).toEqual(new Map());
    expect(await store.delete('a')).toBe(true);
    expect(await store.delete('a')).toBe(false);
    expect(await store.get('a')).toBeUndefined();
  });

  it('treats keys as opaque strings', async () => {
    const store = new MemoryOptionStore();
    for (const key of ['__proto__', 'constructor', 'a%', 'a_', '*', 'ключ 😀', '']) await store.set(key, key);
    for (const key of ['__proto__', 'constructor', 'a%', 'a_', '*', 'ключ 😀', ''])
      expect(await store.get(key)).toBe(key);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('toString')).toBeUndefined();
  });

  it('reports the writes of sibling instances, not its own', async () => {
    const store = new MemoryOptionStore();
    const sibling = store.share();
    const seen: string[] = [];
    const seenBySibling: string[] = [];
    store.watch((key) => seen.push(key));
    sibling.watch((key) => seenBySibling.push(key));
    await sibling.set('a', '1');
    await sibling.delete('a');
    await sibling.delete('a'); // nothing removed: nothing to report
    await store.set('b', '2');
    await settle();
    expect(seen).toEqual(['a', 'a']);
    expect(seenBySibling).toEqual(['b']);
    expect(await store.get('b')).toBe('2');
    expect(await sibling.get('b')).toBe('2');
  });

  it('stops reporting after unsubscribe, even a change already on its way', async () => {
    const store = new MemoryOptionStore();
    const sibling = store.share();
    const seen: string[] = [];
    const unwatch = store.watch((key) => seen.push(key));
    const writing = sibling.set('a', '1'); // the change is on its way to the watcher…
    unwatch(); // …when it unsubscribes
    await writing;
    await sibling.set('b', '1');
    await settle();
    expect(seen).toEqual([]);
  });

  it('treats the same callback subscribed twice as two subscriptions', async () => {
    const store = new MemoryOptionStore();
    const seen: string[] = [];
    const onChange = (key: string) => seen.push(key);
    const first = store.watch(onChange);
    store.watch(onChange);
    first();
    await store.share().set('a', '1');
    await settle();
    expect(seen).toEqual(['a']);
  });

  it('close() detaches the instance from its siblings', async () => {
    const store = new MemoryOptionStore();
    const sibling = store.share();
    const seen: string[] = [];
    store.watch((key) => seen.push(key));
    await store.close();
    await sibling.set('a', '1');
    await settle();
    expect(seen).toEqual([]);
    expect(await sibling.get('a')).toBe('1');
  });
});
