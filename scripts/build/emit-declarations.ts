/**
 * The package's declarations, emitted once by `tsc` for every entry and written twice: as ES
 * module declarations (`.d.ts`, for `import`) and as CommonJS declarations (`.d.cts`, for
 * `require`), each tree naming its own files, so that neither module system reaches a file of
 * the other. Each entry of `package.json#exports` gets a one-line file re-exporting its module.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, posix, relative, resolve } from 'node:path';
import ts from 'typescript';
import { rewriteRelativeSpecifiers } from './module-specifiers';

/** Where the declaration tree goes, inside the output folder. */
export const TYPES_FOLDER = 'types';

/** One module system's declaration files: their extension and the one their specifiers name. */
interface DeclarationFlavour {
  /** `.d.ts` or `.d.cts`. */
  readonly declaration: string;
  /** The run-time extension a specifier names for it: `.js` or `.cjs`. */
  readonly specifier: string;
}

const FLAVOURS: readonly DeclarationFlavour[] = [
  { declaration: '.d.ts', specifier: '.js' },
  { declaration: '.d.cts', specifier: '.cjs' },
];

/** What {@link emitDeclarations} needs. */
export interface DeclarationBuild {
  /** The project's folder (where `tsconfig.json` is). */
  readonly root: string;
  /** The entries: output name (`index`, `stores/postgres`…) → source file relative to `root`. */
  readonly entries: Readonly<Record<string, string>>;
  /** The output folder (`dist`). */
  readonly outDir: string;
  /** Settles when the output folder may be written (tsup cleans it first); the compiler runs meanwhile. */
  readonly writable?: Promise<void>;
}

/** The compiler options of the build: the project's, emitting declarations only, without a second type check. */
function buildOptions(root: string, outDir: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  });
  if (parsed === undefined) throw new Error('tsconfig.json could not be read');
  return {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    // `npm run typecheck` checks the project; the declarations need no second check (TS ≥ 5.6).
    noCheck: true,
    rootDir: join(root, 'src'),
    declarationDir: join(outDir, TYPES_FOLDER),
    paths: undefined,
  };
}

/** The emitted file (path inside the tree) that the relative specifier `specifier`, written in `from`, names. */
function resolveSpecifier(emitted: ReadonlyMap<string, string>, from: string, specifier: string): string {
  const target = posix.join(posix.dirname(from), specifier);
  for (const candidate of [`${target}.d.ts`, posix.join(target, 'index.d.ts')]) {
    if (emitted.has(candidate)) return candidate;
  }
  throw new Error(`${from}: "${specifier}" names no emitted declaration file`);
}

/**
 * A relative specifier written in `from` naming `to`'s run-time file of `flavour` (both paths
 * relative to the output folder, `to` a `.d.ts` path).
 */
function specifierOf(from: string, to: string, flavour: DeclarationFlavour): string {
  const path = posix.relative(posix.dirname(from), to).replace(/\.d\.ts$/, flavour.specifier);
  return path.startsWith('.') ? path : `./${path}`;
}

/** The comment that opens a module's declaration file (its TSDoc `@module` text), if any, with its line break. */
function moduleComment(text: string): string {
  return /^\/\*\*[\s\S]*?\*\/\n/.exec(text)?.[0] ?? '';
}

function formatDiagnostics(diagnostics: readonly ts.Diagnostic[]): string {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => process.cwd(),
    getNewLine: () => '\n',
  });
}

/**
 * Emits the declarations of `build.entries` into `<outDir>/types` (both trees) and one
 * `<outDir>/<entry>.d.ts` / `.d.cts` per entry. Throws on any configuration, syntax or
 * declaration-emit error.
 *
 * @returns the number of files written
 */
export async function emitDeclarations(build: DeclarationBuild): Promise<number> {
  const outDir = resolve(build.outDir);
  const options = buildOptions(build.root, outDir);
  const rootNames = Object.values(build.entries).map((source) => join(build.root, source));
  const program = ts.createProgram({ rootNames, options });
  const problems = [...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics()];
  // Path inside the tree (posix, `settings/store-calls.d.ts`) → text.
  const emitted = new Map<string, string>();
  const typesDir = join(outDir, TYPES_FOLDER);
  const result = program.emit(undefined, (fileName, text) => {
    emitted.set(relative(typesDir, fileName).split('\\').join('/'), text);
  });
  problems.push(...result.diagnostics);
  if (problems.length > 0) throw new Error(`declaration emit failed:\n${formatDiagnostics(problems)}`);

  const entryModules = new Map<string, string>();
  for (const [name, source] of Object.entries(build.entries)) {
    const module = posix.relative('src', source.split('\\').join('/')).replace(/\.ts$/, '');
    if (!emitted.has(`${module}.d.ts`))
      throw new Error(`entry ${name}: no declaration emitted for ${source}`);
    entryModules.set(name, module);
  }

  // Only the files the entries' declarations reach are shipped (the others describe code no
  // consumer can name), each written once per module system.
  const files = new Map<string, string>();
  const pending = [...entryModules.values()].map((module) => `${module}.d.ts`);
  const reached = new Set<string>();
  while (pending.length > 0) {
    const path = pending.pop()!;
    if (reached.has(path)) continue;
    reached.add(path);
    const text = emitted.get(path)!;
    for (const flavour of FLAVOURS) {
      const rewritten = rewriteRelativeSpecifiers(path, text, (specifier) => {
        const target = resolveSpecifier(emitted, path, specifier);
        pending.push(target);
        return specifierOf(`${TYPES_FOLDER}/${path}`, `${TYPES_FOLDER}/${target}`, flavour);
      });
      files.set(join(typesDir, path.replace(/\.d\.ts$/, flavour.declaration)), rewritten);
    }
  }
  for (const [name, module] of entryModules) {
    for (const flavour of FLAVOURS) {
      const specifier = specifierOf(name, `${TYPES_FOLDER}/${module}.d.ts`, flavour);
      const comment = moduleComment(emitted.get(`${module}.d.ts`)!);
      files.set(join(outDir, `${name}${flavour.declaration}`), `${comment}export * from '${specifier}';\n`);
    }
  }
  await build.writable;
  const folders = new Set([...files.keys()].map((file) => dirname(file)));
  await Promise.all([...folders].map((folder) => mkdir(folder, { recursive: true })));
  await Promise.all([...files].map(([file, text]) => writeFile(file, text)));
  return files.size;
}
