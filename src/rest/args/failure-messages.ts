import type { ArgFailure, ArgFailureDetail, ArgPath } from './arg-failure';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A path as text: the name, then `[index]` for array elements and `.key` for object properties
 * (`["key"]` when the key is not an identifier), e.g. `line_items[2].sku`.
 */
export function formatArgPath(path: ArgPath): string {
  let text = '';
  for (let index = 0; index < path.length; index++) {
    const segment = path[index]!;
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (index === 0) text += segment;
    else text += IDENTIFIER.test(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
  }
  return text;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function describeEnumValue(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function listWords(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
}

function bounds(params: ArgFailure & { code: 'rest_out_of_bounds' }): string {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = params.params;
  if (minimum !== undefined && maximum !== undefined) {
    return `between ${minimum} (${exclusiveMinimum ? 'exclusive' : 'inclusive'}) and ${maximum} (${exclusiveMaximum ? 'exclusive' : 'inclusive'})`;
  }
  if (minimum !== undefined)
    return exclusiveMinimum ? `greater than ${minimum}` : `greater than or equal to ${minimum}`;
  return exclusiveMaximum ? `less than ${maximum}` : `less than or equal to ${maximum}`;
}

/**
 * The English message of an argument failure, naming its path: the one place where failures
 * (data) become prose. `data.params[name]` and `data.details[name].message` hold it.
 */
export function formatArgFailure(failure: ArgFailure): string {
  const at = formatArgPath(failure.path);
  switch (failure.code) {
    case 'rest_invalid_type':
      return `${at} is not of type ${failure.params.type.join(',')}.`;
    case 'rest_not_in_enum':
      return `${at} is not one of ${listWords(failure.params.allowed.map(describeEnumValue))}.`;
    case 'rest_out_of_bounds':
      return `${at} must be ${bounds(failure)}.`;
    case 'rest_too_short':
      return `${at} must be at least ${plural(failure.params.minLength, 'character')} long.`;
    case 'rest_too_long':
      return `${at} must be at most ${plural(failure.params.maxLength, 'character')} long.`;
    case 'rest_invalid_format':
      return `${at} is not a valid ${failure.params.format}.`;
    case 'rest_invalid_pattern':
      return failure.params.maxInputLength === undefined
        ? `${at} does not match pattern ${failure.params.pattern}.`
        : `${at} is too long to be checked against its pattern.`;
    case 'rest_too_few_items':
      return `${at} must contain at least ${plural(failure.params.minItems, 'item')}.`;
    case 'rest_too_many_items':
      return `${at} must contain at most ${plural(failure.params.maxItems, 'item')}.`;
    case 'rest_duplicate_items':
      return `${at} has duplicate items.`;
    case 'rest_property_required':
      return `${at} is a required property.`;
    case 'rest_additional_properties_forbidden':
      return `${at} is not an allowed property.`;
    case 'rest_invalid_param':
      switch (failure.params.reason) {
        case 'custom':
          return failure.params.message ?? `${at} is invalid.`;
        case 'repeated':
          return `${at} was given more than once, with different values.`;
        case 'encoding':
          return `${at} is not valid percent-encoded UTF-8.`;
      }
  }
}

/** A failure with its message, as `data.details[name]` holds it. */
export function toArgFailureDetail(failure: ArgFailure): ArgFailureDetail {
  return { ...failure, message: formatArgFailure(failure) } as ArgFailureDetail;
}
