/** A plugin whose routes are given per test: for exercising the pipeline through `server.fetch`. */
import {
  type ArgSchema,
  allowPublic,
  createRestServer,
  type EndpointDefinition,
  Framework_Plugin,
  Framework_REST_API,
  type RestServer,
  type RestServerOptions,
  type RouteRegistry,
} from 'commerce-plugin-framework';
import { authenticate } from './fixtures';

export type RouteTable = [
  namespace: string,
  path: string,
  endpoints: EndpointDefinition | EndpointDefinition[],
][];

class TableApi extends Framework_REST_API {
  constructor(
    plugin: Framework_Plugin,
    private readonly table: RouteTable,
  ) {
    super(plugin);
  }
  override registerRoutes(routes: RouteRegistry): void {
    super.registerRoutes(routes);
    for (const [namespace, path, endpoints] of this.table) routes.register(namespace, path, endpoints);
  }
}

/** A plugin that registers the given routes. */
export class TablePlugin extends Framework_Plugin {
  constructor(
    private readonly table: RouteTable,
    id = 'table',
  ) {
    super({ id, name: 'Table', version: '1' });
  }
  protected override initRestApiHandler(): void {
    this.restApiHandler = new TableApi(this, this.table);
  }
}

/** A server with the given routes (plus bearer auth from the fixtures). */
export function tableServer(table: RouteTable, options: Partial<RestServerOptions> = {}): RestServer {
  return createRestServer({ plugins: [new TablePlugin(table)], authenticate, ...options });
}

/** A server with one public route `/api/test/v1/echo` (GET and POST) answering its params. */
export function echoServer(
  args: Record<string, ArgSchema>,
  options: Partial<RestServerOptions> = {},
): RestServer {
  return tableServer(
    [
      [
        'test/v1',
        '/echo',
        {
          methods: ['GET', 'POST'],
          permission: allowPublic(),
          args,
          handler: (request) => ({ params: request.params }),
        },
      ],
    ],
    options,
  );
}
