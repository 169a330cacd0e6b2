/** What `get` and `explain` read first: the value in effect at a level, where it comes from, its tag. */
import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import { maskValue } from '../../settings/secrets/mask';

/** A setting's value in effect at one level. */
export interface EffectiveValue {
  /** The value (a secret's masked). */
  readonly value: unknown;
  /** Where it comes from, as REST's `origin`: a scope path, `''` global, `null` the default. */
  readonly origin: string | null;
  /** The entity tag of its stored state along the scope's chain. */
  readonly etag: string;
  /** Whether the setting is a secret. */
  readonly secret: boolean;
}

/** Reads setting `id` at `scope` (`''`: the global level); rejects as the library does (404…). */
export async function effectiveValue(
  settings: Framework_Abstract_Settings,
  scope: string,
  id: string,
): Promise<EffectiveValue> {
  const level = settings.level(scope);
  const [value, origin, etag] = await Promise.all([
    level.getValue(id),
    level.getOrigin(id),
    level.getETag(id),
  ]);
  const secret = settings.getSetting(id)?.isSecret() === true;
  return { value: maskValue(value, secret), origin, etag, secret };
}
