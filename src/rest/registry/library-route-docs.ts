import type { Framework_Abstract_Settings } from '../../settings/abstract-settings';
import type { Framework_Plugin } from '../plugin';
import type { EndpointDocs } from './endpoint-docs';

/**
 * @internal What documents the library's own routes (settings, export/import/restore, system
 * status): the functions of `settings-docs`, `config-docs` and `status-docs`.
 */
export interface LibraryRouteDocs {
  /** `settingsRouteDocs`. */
  readonly settings: (
    settings: Framework_Abstract_Settings,
    itemSchema: () => object,
  ) => Readonly<Record<string, () => EndpointDocs>>;
  /** `configRouteDocs`. */
  readonly config: (settings: Framework_Abstract_Settings) => Readonly<Record<string, () => EndpointDocs>>;
  /** `systemStatusDocs`. */
  readonly systemStatus: (
    plugins: readonly Framework_Plugin[],
    commercePrefix: string,
    options: { readonly filtered: boolean },
  ) => EndpointDocs;
}

let installed: LibraryRouteDocs | undefined;

/**
 * @internal Installs the documentation of the library's own routes. The OpenAPI entry's modules
 * do (through `errors/error-docs`), so that an application that never generates a document does
 * not bundle the documentation's texts and schemas.
 */
export function installLibraryRouteDocs(docs: LibraryRouteDocs): void {
  installed = docs;
}

/**
 * @internal The documentation of one of the library's routes: `pick` applied to the installed
 * documentation; empty (`{}`) when none is installed (no OpenAPI module loaded).
 */
export function libraryRouteDocs(pick: (docs: LibraryRouteDocs) => EndpointDocs): EndpointDocs {
  return installed === undefined ? {} : pick(installed);
}

/**
 * @internal The per-route documentation thunks of a documentation group (settings or config
 * routes of one plugin), the group built once, on the first route asked for.
 */
export function lazyRouteDocs(
  group: (docs: LibraryRouteDocs) => Readonly<Record<string, () => EndpointDocs>>,
): (name: string) => () => EndpointDocs {
  let built: Readonly<Record<string, () => EndpointDocs>> | undefined;
  return (name) => () =>
    libraryRouteDocs((docs) => {
      built ??= group(docs);
      return built[name]!();
    });
}
