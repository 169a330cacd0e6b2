import { keyedDigest } from './plan-seal';
import type { PlanChange, PlanError } from './settings-plan';

/**
 * The precondition of one planned key: a digest of the text it held when the plan was made (keyed
 * with the store's salt, so it says nothing about a secret), `null` when nothing was stored.
 */
export function preconditionOf(salt: string, key: string, text: string | undefined): string | null {
  return text === undefined ? null : keyedDigest(salt, 'pc1:', [key, text]);
}

/** A precondition as it was computed: the key, the stored text it digests and the digest. */
export interface DigestedText {
  readonly key: string;
  readonly text: string | undefined;
  readonly digest: string | null;
}

/** Per plan made in this process: the salt and, per change, what its precondition digested. */
const digestedByPlan = new WeakMap<object, { salt: string; texts: readonly DigestedText[] }>();

/**
 * Remembers, for as long as `plan` lives, the texts its preconditions digested: applying the same
 * plan object then compares each key's current text with the one planned against instead of
 * digesting it again (10,000 HMACs for a plan of 10,000 changes). A plan that went through JSON
 * or another process has no memory and is digested as before; the answer is the same.
 */
export function rememberDigests(plan: object, salt: string, texts: readonly DigestedText[]): void {
  digestedByPlan.set(plan, { salt, texts });
}

/**
 * The current precondition of change `index` of `plan`: `preconditionOf(salt, key, text)`, taken
 * from what planning remembered when it digested this very key and text under this salt.
 */
export function currentPrecondition(
  plan: object,
  index: number,
  salt: string,
  key: string,
  text: string | undefined,
): string | null {
  const remembered = digestedByPlan.get(plan);
  const digested = remembered?.salt === salt ? remembered.texts[index] : undefined;
  if (digested !== undefined && digested.key === key && digested.text === text) return digested.digest;
  return preconditionOf(salt, key, text);
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
