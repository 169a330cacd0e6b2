/**
 * `commerce-plugin-framework/testing`: the `OptionStore` conformance suite, for authors of
 * their own store adapters. Needs `vitest` (an optional peer dependency).
 *
 * @module commerce-plugin-framework/testing
 */

export type { OptionStore } from '../storage/option-store';
export { type OptionStoreSuiteOptions, testOptionStore } from './test-option-store';
