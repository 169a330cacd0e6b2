/**
 * What each entry of this layer loads at run time, read from the sources (the import graph
 * from the entry file): host frameworks only in their own entry, nothing from `node:` in the
 * runtime-agnostic entries (`/hono`, `/openapi`).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The run-time (not type-only) module specifiers reachable from an entry, relative ones followed. */
function runtimeImports(entry: string): Set<string> {
  const external = new Set<string>();
  const seen = new Set<string>();
  const pending = [resolve(ROOT, entry)];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    const specifiers = [
      ...[...source.matchAll(IMPORT)].filter((match) => match[2] === undefined).map((match) => match[3]!),
      ...[...source.matchAll(DYNAMIC)].map((match) => match[1]!),
    ];
    for (const specifier of specifiers) {
      if (specifier.startsWith('.'))
        pending.push(resolve(dirname(file), `${specifier.replace(/\.ts$/, '')}.ts`));
      else external.add(specifier);
    }
  }
  return external;
}

const HOSTS = ['express', 'fastify', 'hono'];

describe.each([
  ['src/adapters/node/index.ts', [], true],
  ['src/adapters/express/index.ts', ['express'], true],
  ['src/adapters/fastify/index.ts', [], true], // types only from fastify
  ['src/adapters/hono/index.ts', ['hono'], false],
  ['src/openapi/index.ts', [], false],
] as const)('%s', (entry, hosts, mayUseNode) => {
  const imports = runtimeImports(entry);

  it(`loads ${hosts.length === 0 ? 'no host framework' : `only ${hosts.join(', ')}`}`, () => {
    expect([...imports].filter((specifier) => HOSTS.includes(specifier)).sort()).toEqual([...hosts]);
    const others = [...imports].filter(
      (specifier) => !specifier.startsWith('node:') && !HOSTS.includes(specifier),
    );
    for (const other of others) expect(['zod', 'zod/mini', 'fast-json-stable-stringify']).toContain(other);
  });

  if (!mayUseNode) {
    it('loads no node: module', () => {
      expect([...imports].filter((specifier) => specifier.startsWith('node:'))).toEqual([]);
    });
  }
});
