/**
 * Rewrites the relative module specifiers of an emitted declaration file, so that the file
 * resolves under every `moduleResolution` a consumer may use (`node16`/`nodenext` need full
 * file names in ES modules; `bundler` and CommonJS resolution accept them too).
 */
import ts from 'typescript';

/** Turns one relative specifier (as written in the source, without extension) into the one to emit. */
export type SpecifierMapper = (specifier: string) => string;

/** The positions of the module specifiers a declaration file names: imports, exports and `import("…")` types. */
function specifierLiterals(file: ts.SourceFile): ts.StringLiteralLike[] {
  const literals: ts.StringLiteralLike[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteralLike(node.moduleSpecifier)
    ) {
      literals.push(node.moduleSpecifier);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteralLike(node.argument.literal)
    ) {
      literals.push(node.argument.literal);
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteralLike(node.moduleReference.expression)
    ) {
      literals.push(node.moduleReference.expression);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return literals;
}

/**
 * `text` (a declaration file) with every relative specifier passed through `map`; package
 * specifiers (`zod/mini`, `node:http`, `hono`…) are left as they are.
 */
export function rewriteRelativeSpecifiers(fileName: string, text: string, map: SpecifierMapper): string {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let result = '';
  let copied = 0;
  for (const literal of specifierLiterals(file)) {
    const specifier = literal.text;
    if (
      !specifier.startsWith('./') &&
      !specifier.startsWith('../') &&
      specifier !== '.' &&
      specifier !== '..'
    ) {
      continue;
    }
    const start = literal.getStart(file) + 1; // after the opening quote
    const end = literal.getEnd() - 1; // before the closing quote
    result += text.slice(copied, start) + map(specifier);
    copied = end;
  }
  return result + text.slice(copied);
}
