import {
  createRestServer,
  Framework_Abstract_Settings,
  Framework_Plugin,
  MemoryOptionStore,
  type RouteDescriptor,
} from 'commerce-plugin-framework';
import { describe, expect, it } from 'vitest';

// The documentation of the library's own routes (settings, export/import/restore, system status)
// lives with the OpenAPI entry: an application that never generates a document does not bundle
// it. Their `docs` resolve to it once that entry is loaded, to `{}` before.
class ShopSettings extends Framework_Abstract_Settings {
  protected registerSettings(): void {
    this.registerSetting('mode', 'string', { name: 'Mode', default: 'test' });
  }
}

class ShopPlugin extends Framework_Plugin {
  readonly settings = new ShopSettings('acme', new MemoryOptionStore());

  constructor() {
    super({ id: 'acme', name: 'Acme', version: '1.0.0' });
  }

  override getSettingsHandler(): ShopSettings {
    return this.settings;
  }
}

function docsOf(routes: readonly RouteDescriptor[], path: string): unknown {
  const declared = routes.find((route) => route.path === path)?.endpoints[0]?.docs;
  return typeof declared === 'function' ? declared() : declared;
}

describe('the documentation of the library’s own routes', () => {
  it('is installed by the OpenAPI entry, and read on demand', async () => {
    const server = createRestServer({ plugins: [new ShopPlugin()] });
    const routes = server.getRoutes();
    expect(docsOf(routes, '/api/commerce/v3/acme/settings')).toEqual({});
    expect(docsOf(routes, '/api/commerce/v3/system_status')).toEqual({});

    await import('commerce-plugin-framework/openapi');
    expect(docsOf(routes, '/api/commerce/v3/acme/settings')).toMatchObject({ summary: expect.any(String) });
    expect(docsOf(routes, '/api/commerce/v3/acme/settings/export')).toMatchObject({
      summary: expect.any(String),
    });
    expect(docsOf(routes, '/api/commerce/v3/system_status')).toMatchObject({ responses: expect.anything() });
  });
});
