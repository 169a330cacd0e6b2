/**
 * `commerce-plugin-framework/testing`: the `OptionStore` conformance suite, for authors of
 * their own store adapters. Needs `vitest` (an optional peer dependency).
 *
 * @packageDocumentation
 */

export type { OptionStore } from '../storage/option-store';
export { type OptionStoreSuiteOptions, testOptionStore } from './test-option-store';
