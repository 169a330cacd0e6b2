import { MemoryOptionStore, type OptionStore } from 'commerce-plugin-framework';
import { testOptionStore } from 'commerce-plugin-framework/testing';

// One MemoryOptionStore holds its own data; `share()` opens a second instance over it.
testOptionStore('MemoryOptionStore', () => new MemoryOptionStore(), {
  makeSibling: (store: OptionStore) => (store as MemoryOptionStore).share(),
});
