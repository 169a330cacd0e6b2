import { Framework_Plugin_Exception } from '../../errors/framework-plugin-exception';

/** One segment of a route path: fixed text, or a `{name}` parameter. */
export type TemplateSegment =
  | { readonly kind: 'static'; readonly text: string }
  | { readonly kind: 'param'; readonly name: string };

const PARAM = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
const STATIC = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/**
 * Parses a route path such as `/items/{id}/notes`: it starts with `/`, has no empty segment
 * and no trailing `/`; each segment is fixed URL-path text or a whole-segment `{name}`
 * parameter (names unique within the path).
 *
 * @throws {@link Framework_Plugin_Exception} (400) saying what is wrong with the path
 */
export function parsePathTemplate(path: unknown, where: string): TemplateSegment[] {
  const invalid = (problem: string) =>
    new Framework_Plugin_Exception(`${where}: invalid route path ${JSON.stringify(path)}: ${problem}`, 400);
  if (typeof path !== 'string' || !path.startsWith('/')) throw invalid('it must start with "/"');
  if (path === '/') throw invalid('a route needs at least one segment after the namespace');
  const segments: TemplateSegment[] = [];
  const names = new Set<string>();
  for (const text of path.slice(1).split('/')) {
    if (text === '') throw invalid('empty segment (a doubled or trailing "/")');
    const param = PARAM.exec(text);
    if (param) {
      const name = param[1]!;
      if (name === '__proto__') throw invalid('"__proto__" cannot be a parameter name');
      if (names.has(name)) throw invalid(`parameter {${name}} appears twice`);
      names.add(name);
      segments.push({ kind: 'param', name });
    } else if (text === '.' || text === '..' || !STATIC.test(text)) {
      throw invalid(
        `segment ${JSON.stringify(text)} is neither URL path text nor a whole-segment {name} parameter`,
      );
    } else {
      segments.push({ kind: 'static', text });
    }
  }
  return segments;
}
