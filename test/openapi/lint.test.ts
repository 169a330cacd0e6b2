/**
 * The documents of the demo, the examples and a server with every setting type and control,
 * linted as users lint them: Redocly's `recommended` rules and Spectral's `spectral:oas`
 * ruleset report no error.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { createRestServer, type RestServer } from 'commerce-plugin-framework';
import { generateOpenApiDocument, type OpenApiDocument } from 'commerce-plugin-framework/openapi';
import { beforeAll, describe, expect, it } from 'vitest';
import { exampleServer } from '../../examples/demo/example-server';
import { itemsPlugin } from '../../examples/items-plugin/index';
import { ordersPlugin } from '../../examples/orders-plugin/index';
import { wooCommerceServer } from '../../examples/woocommerce-client/app';
import { authenticate, demoDocument } from './support/demo-document';
import { EverySettingPlugin } from './support/every-setting-plugin';

// Both packages are CommonJS: their named exports are read from the default export.
const { Spectral, Document } = spectralCore as unknown as typeof import('@stoplight/spectral-core');
const { Json } = spectralParsers as unknown as typeof import('@stoplight/spectral-parsers');

type Problem = { tool: string; rule: string; message: string; where: string };

let redoclyConfig: Awaited<ReturnType<typeof createConfig>>;
let spectral: InstanceType<typeof Spectral>;

beforeAll(async () => {
  redoclyConfig = await createConfig({ extends: ['recommended'] });
  spectral = new Spectral();
  spectral.setRuleset({ extends: [[oas as never, 'recommended']] } as never);
});

/** The errors (not warnings) both linters report on a document. */
async function lintErrors(document: OpenApiDocument): Promise<Problem[]> {
  const source = JSON.stringify(document);
  const [redocly, spectralResults] = await Promise.all([
    lintFromString({ source, absoluteRef: '/openapi.json', config: redoclyConfig }),
    spectral.run(new Document(source, Json, '/openapi.json')),
  ]);
  return [
    ...redocly
      .filter((problem) => problem.severity === 'error')
      .map((problem) => ({
        tool: 'redocly',
        rule: problem.ruleId,
        message: problem.message,
        where: problem.location[0]?.pointer ?? '',
      })),
    ...spectralResults
      .filter((result) => result.severity === 0)
      .map((result) => ({
        tool: 'spectral',
        rule: String(result.code),
        message: result.message,
        where: result.path.join('.'),
      })),
  ];
}

const info = { title: 'Lint test', version: '1.0.0', description: 'A document under lint.' };
const documentOf = (server: RestServer) => generateOpenApiDocument(server, info);

/** The documents linted: the demo, each example's server, and every setting type and control. */
const DOCUMENTS: readonly [string, () => OpenApiDocument][] = [
  ['the demo (gateway settings, items, orders, status)', demoDocument],
  ['the Express, Fastify and Hono examples (one server)', () => documentOf(exampleServer().server)],
  ['the WooCommerce-client example (/wp-json, wc/v3)', () => documentOf(wooCommerceServer({}))],
  ['the items example', () => documentOf(createRestServer({ plugins: [itemsPlugin()] }))],
  ['the orders example', () => documentOf(createRestServer({ plugins: [ordersPlugin()] }))],
  [
    'a server with every setting type (plain, default, options, multi) and every control',
    () => {
      const server = createRestServer({ plugins: [new EverySettingPlugin()], authenticate });
      const document = generateOpenApiDocument(server, info, { servers: [{ url: 'https://shop.example' }] });
      // each setting: its path and its history; the list, the batch, the history, export, import,
      // restore, the status report
      expect(Object.keys(document.paths)).toHaveLength(32 * 2 + 7);
      return document;
    },
  ],
];

describe('Redocly recommended and Spectral spectral:oas report no error', () => {
  it.each(DOCUMENTS)('on %s', async (_name, document) => {
    expect(await lintErrors(document())).toEqual([]);
  });
});
