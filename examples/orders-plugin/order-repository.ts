import { toIsoWithOffset } from './iso-date';

/** The states of an order; new orders are `pending`. */
export const ORDER_STATUSES = [
  'pending',
  'processing',
  'on-hold',
  'completed',
  'cancelled',
  'refunded',
  'failed',
] as const;

/** One of {@link ORDER_STATUSES}. */
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** One line of an order. */
export interface LineItem {
  id: number;
  product_id: number;
  name: string;
  quantity: number;
  price: number;
  /** `quantity × price`, rounded to cents. */
  total: number;
}

/** An order. */
export interface Order {
  id: number;
  status: OrderStatus;
  currency: string;
  customer_id: number | null;
  customer_note: string;
  line_items: LineItem[];
  /** The sum of the line totals. */
  total: number;
  /** ISO 8601 with the shop's offset, e.g. `2024-05-01T14:30:00+02:00`. */
  date_created: string;
  date_modified: string;
}

/** What a client sends to create an order. */
export interface NewOrder {
  line_items: { product_id: number; name: string; quantity: number; price: number }[];
  currency: string;
  customer_id?: number;
  customer_note?: string;
}

/** How a list of orders is cut and sorted. */
export interface OrderQuery {
  page: number;
  perPage: number;
  search?: string;
  status?: OrderStatus;
  orderby: 'date' | 'name' | 'modified';
  order: 'ASC' | 'DESC';
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

/**
 * Orders in memory, the storage behind the reference order routes. Dates are written in the
 * shop's time zone (`offsetMinutes` east of UTC) with an explicit offset.
 */
export class InMemoryOrderRepository {
  readonly #orders = new Map<number, { order: Order; created: number; modified: number }>();
  readonly #now: () => Date;
  readonly #offsetMinutes: number;
  #nextId = 1;
  #nextLineId = 1;

  /**
   * @param options - `now`: the clock; `offsetMinutes`: the shop's UTC offset for dates (default 0)
   */
  constructor(options: { now?: () => Date; offsetMinutes?: number } = {}) {
    this.#now = options.now ?? (() => new Date());
    this.#offsetMinutes = options.offsetMinutes ?? 0;
  }

  /** Stores a new `pending` order and returns it. */
  create(input: NewOrder): Order {
    const now = this.#now();
    const lineItems = input.line_items.map((line) => ({
      id: this.#nextLineId++,
      product_id: line.product_id,
      name: line.name,
      quantity: line.quantity,
      price: line.price,
      total: cents(line.quantity * line.price),
    }));
    const order: Order = {
      id: this.#nextId++,
      status: 'pending',
      currency: input.currency,
      customer_id: input.customer_id ?? null,
      customer_note: input.customer_note ?? '',
      line_items: lineItems,
      total: cents(lineItems.reduce((sum, line) => sum + line.total, 0)),
      date_created: toIsoWithOffset(now, this.#offsetMinutes),
      date_modified: toIsoWithOffset(now, this.#offsetMinutes),
    };
    this.#orders.set(order.id, { order, created: now.getTime(), modified: now.getTime() });
    return structuredClone(order);
  }

  /** The order, or `undefined`. */
  get(id: number): Order | undefined {
    const entry = this.#orders.get(id);
    return entry && structuredClone(entry.order);
  }

  /** One page of orders, and how many match in all. `orderby: 'name'` sorts by id. */
  list(query: OrderQuery): { orders: Order[]; total: number } {
    const needle = query.search?.toLowerCase();
    const matching = [...this.#orders.values()].filter(
      ({ order }) =>
        (query.status === undefined || order.status === query.status) &&
        (needle === undefined ||
          order.customer_note.toLowerCase().includes(needle) ||
          order.line_items.some((line) => line.name.toLowerCase().includes(needle))),
    );
    const direction = query.order === 'ASC' ? 1 : -1;
    matching.sort((a, b) => {
      const difference =
        query.orderby === 'date'
          ? a.created - b.created
          : query.orderby === 'modified'
            ? a.modified - b.modified
            : 0;
      return (difference === 0 ? a.order.id - b.order.id : difference) * direction;
    });
    const start = (query.page - 1) * query.perPage;
    return {
      orders: matching.slice(start, start + query.perPage).map(({ order }) => structuredClone(order)),
      total: matching.length,
    };
  }

  /** Removes an order for good; `false` when there was no such order. */
  delete(id: number): boolean {
    return this.#orders.delete(id);
  }

  /** Changes the status or note of an order; `undefined` when there is no such order. */
  update(id: number, changes: { status?: OrderStatus; customer_note?: string }): Order | undefined {
    const entry = this.#orders.get(id);
    if (!entry) return undefined;
    const now = this.#now();
    if (changes.status !== undefined) entry.order.status = changes.status;
    if (changes.customer_note !== undefined) entry.order.customer_note = changes.customer_note;
    entry.modified = now.getTime();
    entry.order.date_modified = toIsoWithOffset(now, this.#offsetMinutes);
    return structuredClone(entry.order);
  }
}
