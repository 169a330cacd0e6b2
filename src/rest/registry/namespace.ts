import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

const NAMESPACE = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?\/v[0-9]+$/;

/**
 * Checks a namespace: `<slug>/v<N>`, the slug lower-case letters, digits, `-` and `_`
 * (not at either end), e.g. `acme/v1`, `commerce/v3`.
 *
 * @throws {@link Framework_Plugin_Exception} (400) naming the namespace
 */
export function assertNamespace(namespace: unknown): asserts namespace is string {
  if (typeof namespace !== 'string' || !NAMESPACE.test(namespace)) {
    throw new Framework_Plugin_Exception(
      `Invalid route namespace ${JSON.stringify(namespace)}: use "<slug>/v<N>", e.g. "acme/v1" (slug: a-z, 0-9, "-", "_")`,
      400,
    );
  }
}
