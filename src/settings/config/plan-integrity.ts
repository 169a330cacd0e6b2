import { keyedDigest } from './plan-seal';
import type { PlanChange, PlanError } from './settings-plan';

/**
 * The precondition of one planned key: a digest of the text it held when the plan was made (keyed
 * with the store's salt, so it says nothing about a secret), `null` when nothing was stored.
 */
export function preconditionOf(salt: string, key: string, text: string | undefined): string | null {
  return text === undefined ? null : keyedDigest(salt, 'pc1:', [key, text]);
}

/**
 * A plan's id: a keyed digest of its plugin, changes (secrets by their plain storage text, which
 * the plan only carries sealed), errors and preconditions. Deterministic for the same document (or
 * restore target) and the same stored states; any edit of the plan changes it, and only a process
 * with the store's salt can compute it — so `applyPlan` recomputes it to refuse an edited or forged
 * plan.
 */
export function planId(
  salt: string,
  plugin: string,
  changes: readonly PlanChange[],
  errors: readonly PlanError[],
  preconditions: readonly (string | null)[],
  plainSecrets: Readonly<Record<string, string>>,
): string {
  const secrets = Object.keys(plainSecrets)
    .sort()
    .map((index) => [index, plainSecrets[index]]);
  return keyedDigest(salt, 'plan1:', [
    plugin,
    JSON.stringify(changes),
    JSON.stringify(errors),
    JSON.stringify(preconditions),
    JSON.stringify(secrets),
  ]);
}
