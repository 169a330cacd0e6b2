/**
 * What README.md and docs/ say about where a name comes from holds: the names each code
 * example imports from an entry, the names a sentence attributes to the root entry ("(root
 * entry)") or to a subpath entry ("from `commerce-plugin-framework/x`"), and — in a document
 * that says everything in it comes from the root entry — every exported name it mentions that
 * its paragraph does not attribute to another entry. Names are read from the entries' sources
 * with the type checker, so type-only exports count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entryPoints } from '../../entries.config.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const PACKAGE = 'commerce-plugin-framework';
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')),
].map((name) => (name === 'README.md' ? name : `docs/${name}`));

/** Entry specifier (`commerce-plugin-framework`, `commerce-plugin-framework/admin`…) → the names it exports. */
function entryExports(): Map<string, Set<string>> {
  const sources = Object.values(entryPoints).map((source) => join(ROOT, source));
  const program = ts.createProgram(sources, {
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const exports = new Map<string, Set<string>>();
  for (const [subpath, source] of Object.entries(entryPoints)) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(join(ROOT, source))!)!;
    const names = checker.getExportsOfModule(module).map((symbol) => symbol.name);
    exports.set(subpath === '.' ? PACKAGE : `${PACKAGE}/${subpath}`, new Set(names));
  }
  return exports;
}

const EXPORTS = entryExports();
const ROOT_NAMES = EXPORTS.get(PACKAGE)!;
const exporters = (name: string) =>
  [...EXPORTS].filter(([, names]) => names.has(name)).map(([entry]) => entry);

/** Backticked names in `text` (`name` or `name(args)`) that some entry exports. */
function exportedNamesIn(text: string): string[] {
  return [...text.matchAll(/`([A-Za-z_$][\w$]*)(?:\([^`]*\))?`/g)]
    .map((match) => match[1]!)
    .filter((name) => exporters(name).length > 0);
}

/** The entries a text names in full (`commerce-plugin-framework/admin`; the bare name is the root entry). */
function entriesNamedIn(text: string): Set<string> {
  const named = new Set<string>();
  for (const match of text.matchAll(/`(commerce-plugin-framework(?:\/[a-z-]+){0,2})`/g)) named.add(match[1]!);
  return named;
}

describe.each(DOCUMENTS)('%s', (document) => {
  const text = readFileSync(join(ROOT, document), 'utf8');
  const prose = text.replace(/```[\s\S]*?```/g, '');

  it('imports in its examples only names their entry exports', () => {
    const wrong: string[] = [];
    for (const match of text.matchAll(
      /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(commerce-plugin-framework[^']*)'/g,
    )) {
      const names = EXPORTS.get(match[2]!);
      expect(names, `${document} imports from ${match[2]}, which is no entry`).toBeDefined();
      for (const item of match[1]!.split(',')) {
        const name = item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!;
        if (name !== '' && !names!.has(name))
          wrong.push(`${name} from ${match[2]} (it is in ${exporters(name)})`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('attributes names to the entries that export them', () => {
    const wrong: string[] = [];
    for (const sentence of prose.split(/(?<=[.;:])\s+(?=[A-Z`(])/)) {
      // "`a` and `b` (root entry)", "(`formatArgFailure`, root entry)"
      for (const match of sentence.matchAll(/((?:`[^`]+`[^`()]{0,40}?)+)\((?:([^()]*?),\s*)?root entry\)/g)) {
        for (const name of exportedNamesIn(`${match[1]}${match[2] ?? ''}`)) {
          if (!ROOT_NAMES.has(name)) wrong.push(`${name} (root entry): it is in ${exporters(name)}`);
        }
      }
      // "`compileArgs(…)` (from `commerce-plugin-framework/adapter-kit`)"
      for (const match of sentence.matchAll(
        /((?:`[^`]+`[^`()]{0,40}?)+)\(from `(commerce-plugin-framework[^`]*)`\)/g,
      )) {
        for (const name of exportedNamesIn(match[1]!)) {
          if (!EXPORTS.get(match[2]!)?.has(name))
            wrong.push(`${name} (from ${match[2]}): it is in ${exporters(name)}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  const intro = prose.split(/^## /m)[0]!;
  if (/Everything here comes from the root entry/.test(intro)) {
    it('mentions only root-entry names, unless the paragraph names their entry', () => {
      const wrong: string[] = [];
      for (const paragraph of prose.split(/\n\s*\n/)) {
        const named = entriesNamedIn(paragraph);
        for (const name of exportedNamesIn(paragraph)) {
          if (ROOT_NAMES.has(name) || exporters(name).some((entry) => named.has(entry))) continue;
          wrong.push(`${name}: it is in ${exporters(name)}, which the paragraph does not name`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }
});
