/** An item of the reference item routes. */
export interface Item {
  id: number;
  name: string;
  description: string;
  price: number;
  status: ItemStatus;
  /** Only managers see it (`edit` context). */
  internal_note: string;
  date_created: string;
  date_modified: string;
}

/** The states of an item; `trash` is where a non-forced delete puts it. */
export type ItemStatus = 'publish' | 'draft' | 'trash';

/** What a client sends to create an item. */
export interface NewItem {
  name: string;
  description?: string;
  price: number;
  status?: Exclude<ItemStatus, 'trash'>;
  internal_note?: string;
}

/** How a list is cut and sorted. */
export interface ItemQuery {
  page: number;
  perPage: number;
  search?: string;
  orderby: 'date' | 'name' | 'modified';
  order: 'ASC' | 'DESC';
  /** Only items in these states (default: every state but `trash`). */
  statuses?: readonly Exclude<ItemStatus, 'trash'>[];
}

/**
 * Items in memory: the storage behind the reference item routes (swap it for a database in a
 * real plugin). Dates are ISO 8601 in UTC; `now` is injectable for tests.
 */
export class InMemoryItemRepository {
  readonly #items = new Map<number, Item>();
  readonly #now: () => Date;
  #nextId = 1;

  /** @param now - the clock (default: the system clock) */
  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
  }

  /** One page of the items that are not in the trash (of `query.statuses`, when given), and how many there are in all. */
  list(query: ItemQuery): { items: Item[]; total: number } {
    const needle = query.search?.toLowerCase();
    const matching = [...this.#items.values()].filter(
      (item) =>
        item.status !== 'trash' &&
        (query.statuses === undefined || query.statuses.includes(item.status)) &&
        (needle === undefined ||
          item.name.toLowerCase().includes(needle) ||
          item.description.toLowerCase().includes(needle)),
    );
    const key = { date: 'date_created', name: 'name', modified: 'date_modified' } as const;
    const field = key[query.orderby];
    const direction = query.order === 'ASC' ? 1 : -1;
    matching.sort((a, b) => {
      const left = a[field];
      const right = b[field];
      return (left < right ? -1 : left > right ? 1 : a.id - b.id) * direction;
    });
    const start = (query.page - 1) * query.perPage;
    return {
      items: matching.slice(start, start + query.perPage).map((item) => ({ ...item })),
      total: matching.length,
    };
  }

  /** The item, or `undefined`. */
  get(id: number): Item | undefined {
    const item = this.#items.get(id);
    return item && { ...item };
  }

  /** Whether another item (not `exceptId`) already has this name. */
  hasName(name: string, exceptId?: number): boolean {
    for (const item of this.#items.values()) if (item.id !== exceptId && item.name === name) return true;
    return false;
  }

  /** Stores a new item and returns it. */
  create(input: NewItem): Item {
    const now = this.#now().toISOString();
    const item: Item = {
      id: this.#nextId++,
      name: input.name,
      description: input.description ?? '',
      price: input.price,
      status: input.status ?? 'publish',
      internal_note: input.internal_note ?? '',
      date_created: now,
      date_modified: now,
    };
    this.#items.set(item.id, item);
    return { ...item };
  }

  /** Changes some fields of an item; `undefined` when there is no such item. */
  update(
    id: number,
    changes: Partial<Omit<Item, 'id' | 'date_created' | 'date_modified'>>,
  ): Item | undefined {
    const item = this.#items.get(id);
    if (!item) return undefined;
    const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
    Object.assign(item, defined, { date_modified: this.#now().toISOString() });
    return { ...item };
  }

  /** Removes an item for good; returns it, or `undefined` when there was none. */
  delete(id: number): Item | undefined {
    const item = this.#items.get(id);
    this.#items.delete(id);
    return item && { ...item };
  }
}
