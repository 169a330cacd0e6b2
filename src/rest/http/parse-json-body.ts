import { restError } from '../errors/rest-error-factory';
import type { RestError } from './rest-error';

/** How deep a JSON request body may nest: the top-level object is level 1. */
export const MAX_BODY_DEPTH = 64;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function invalidJson(message: string): RestError {
  return restError('rest_invalid_json', message);
}

/** Whether the bytes are only JSON white space (space, tab, CR, LF): such a body counts as no body. */
export function isBlankBody(bytes: Uint8Array): boolean {
  for (let index = 0; index < bytes.length; index++) {
    const byte = bytes[index];
    if (byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09) return false;
  }
  return true;
}

/**
 * Finds what makes a parsed body unacceptable: nesting deeper than {@link MAX_BODY_DEPTH}, or
 * a `__proto__` key (which a later `Object.assign` or merge would turn into a prototype change).
 */
function describeUnsafeStructure(value: unknown, depth: number): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth > MAX_BODY_DEPTH) return `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = describeUnsafeStructure(value[index], depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (Object.hasOwn(value, '__proto__')) return 'The request body must not contain "__proto__" keys.';
  for (const key in value) {
    const problem = describeUnsafeStructure((value as Record<string, unknown>)[key], depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Parses a JSON request body: the bytes must be valid UTF-8 (a leading BOM is dropped), the
 * JSON well formed, its top level an object, nested at most {@link MAX_BODY_DEPTH} levels,
 * with no `__proto__` key anywhere (rejected, not stripped).
 *
 * @throws {@link RestError} 400 `rest_invalid_json` saying which rule failed
 */
export function parseJsonBody(bytes: Uint8Array): Record<string, unknown> {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw invalidJson('The request body is not valid UTF-8.');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidJson('The request body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidJson('The request body must be a JSON object.');
  }
  const problem = describeUnsafeStructure(value, 1);
  if (problem) throw invalidJson(problem);
  return value as Record<string, unknown>;
}
