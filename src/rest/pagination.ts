/** One page of a list, with what the pagination headers need. */
export interface Page<T> {
  /** The items of the page. */
  readonly items: T[];
  /** How many items the whole list has. */
  readonly total: number;
  /** How many pages the whole list has (0 for an empty list). */
  readonly totalPages: number;
}

/** Cuts page `page` (from 1) of `perPage` items out of `items`. */
export function paginate<T>(items: readonly T[], page: number, perPage: number): Page<T> {
  if (!(Number.isInteger(page) && page >= 1 && Number.isInteger(perPage) && perPage >= 1)) {
    throw new RangeError(`paginate: page and perPage must be integers from 1, got ${page} and ${perPage}`);
  }
  const start = (page - 1) * perPage;
  return {
    items: items.slice(start, start + perPage),
    total: items.length,
    totalPages: Math.ceil(items.length / perPage),
  };
}

/** The pagination headers of a list: `X-Total` (items) and `X-Total-Pages`. */
export function paginationHeaders(total: number, perPage: number): Record<string, string> {
  return { 'X-Total': String(total), 'X-Total-Pages': String(Math.ceil(total / Math.max(1, perPage))) };
}
