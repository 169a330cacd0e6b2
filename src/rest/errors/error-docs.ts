import type { DocSchema, ErrorDoc } from '../registry/endpoint-docs';
import { installLibraryRouteDocs } from '../registry/library-route-docs';
import { configRouteDocs } from '../settings-routes/config-docs';
import { settingsRouteDocs } from '../settings-routes/settings-docs';
import { systemStatusDocs } from '../status-docs';
import type { RestErrorCode } from './error-catalogue';
import {
  type CatalogueErrorDocOptions,
  catalogueErrorDoc as errorDocOf,
  VALUE_ISSUE_SCHEMA as ISSUE,
} from './error-doc-schemas';

// The error documentation the OpenAPI entry reads (see `error-doc-schemas`). Loading this module
// also installs the documentation of the library's own routes, which only a document generator
// needs: an application that does not import the OpenAPI entry does not bundle it.
installLibraryRouteDocs({
  settings: (settings, itemSchema) => ({ ...settingsRouteDocs(settings, itemSchema) }),
  config: configRouteDocs,
  systemStatus: systemStatusDocs,
});

/** One issue of a refused setting value: `{path, code, message}` (see `error-doc-schemas`). */
export const VALUE_ISSUE_SCHEMA: DocSchema = ISSUE;

/** The `ErrorDoc` of a catalogue code (see `error-doc-schemas`). */
export function catalogueErrorDoc(code: RestErrorCode, options: CatalogueErrorDocOptions = {}): ErrorDoc {
  return errorDocOf(code, options);
}
