import { brandClass } from '../../errors/brand';
import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/**
 * An operation on a scope that the settings' `scopeExists` option refuses (a typo such as `EU`
 * for `eu` would otherwise create an orphan override): code 404, nothing read or stored. The
 * REST layer answers it with 404 `rest_scope_not_found`.
 */
export class ScopeNotFoundError extends Framework_Plugin_Exception {
  /** The scope path that does not exist. */
  readonly scope: string;

  /** @param scope - the scope path `scopeExists` refused */
  constructor(scope: string) {
    super(`The scope "${scope}" does not exist`, 404);
    this.name = 'ScopeNotFoundError';
    this.scope = scope;
  }
}
brandClass(ScopeNotFoundError, 'ScopeNotFoundError');
