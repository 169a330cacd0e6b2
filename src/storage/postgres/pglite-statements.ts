/**
 * Named prepared statements on a PGlite instance, sent through its wire-protocol entry point.
 *
 * PGlite's `query(text, params)` sends every statement unnamed — parse, describe, bind,
 * describe, execute, sync: six calls into the database — so PostgreSQL parses, analyses and
 * plans it again each time. For the commit statement (one statement of many CTEs) that is
 * nearly all of a write's cost (≈ 3 ms against ≈ 0.4 ms executed from a prepared statement).
 * Here each statement text is parsed once per PGlite instance under a name of its own, and then
 * runs as one buffer of Bind, Execute and Sync: one call into the database, and the plan
 * cache of PostgreSQL keeps its plan.
 */
import type { PostgresQueryable, QueryRows } from './postgres-client';

/** A backend message as PGlite's protocol parser returns it (the fields the store reads). */
interface BackendMessage {
  readonly name: string;
  /** `rowDescription`: the result columns. */
  readonly fields?: ReadonlyArray<{ readonly name: string; readonly dataTypeID: number } | string | null>;
  /** `error`: the SQLSTATE. */
  readonly code?: string;
}

/** A type parser of PGlite (`parsers[oid]`), as `query` applies it to a text value. */
type TypeParser = (text: string, typeId: number) => unknown;

/** The part of a PGlite instance this module uses (all of it public in PGlite's typings). */
export interface PgliteProtocolClient extends PostgresQueryable {
  execProtocol(
    message: Uint8Array,
    options?: { throwOnError?: boolean; syncToFs?: boolean },
  ): Promise<{ messages: BackendMessage[] }>;
  /** Waits until the instance is ready; rejects once it is closing or closed (as `query` does first). */
  _checkReady(): Promise<void>;
  /** Serialises with the instance's transactions (`db.transaction` holds it throughout). */
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  /** Serialises with every other query of the instance. */
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  /** The text parsers by type OID that `query` applies to results. */
  readonly parsers?: Readonly<Record<number, TypeParser>>;
}

/** Whether `client` (a PGlite instance) offers what {@link PgliteStatements} needs. */
export function supportsPgliteStatements(client: object): client is PgliteProtocolClient {
  const fields = client as Record<string, unknown>;
  return (
    typeof fields.execProtocol === 'function' &&
    typeof fields._checkReady === 'function' &&
    typeof fields._runExclusiveTransaction === 'function' &&
    typeof fields._runExclusiveQuery === 'function'
  );
}

/** SQLSTATEs after which the statement is parsed again: it was deallocated, or its cached plan's result changed. */
const REPREPARE_CODES = new Set(['26000', '0A000']);
/** The prefix of the statement names (followed by a number unique on the instance). */
const NAME_PREFIX = 'cpf_option_store_';

const encoder = new TextEncoder();

/** Builds frontend protocol messages (the subset the store sends). */
class MessageWriter {
  #size = 0;
  #start = 0;
  #buffer = new Uint8Array(256);
  #view = new DataView(this.#buffer.buffer);

  #reserve(bytes: number): void {
    const needed = this.#size + bytes;
    if (needed <= this.#buffer.length) return;
    const grown = new Uint8Array(Math.max(needed, this.#buffer.length * 2));
    grown.set(this.#buffer.subarray(0, this.#size));
    this.#buffer = grown;
    this.#view = new DataView(grown.buffer);
  }

  /** Starts a message of `type` (its length is filled in by `end`). */
  begin(type: string): this {
    this.#reserve(5);
    this.#start = this.#size;
    this.#buffer[this.#size] = type.charCodeAt(0);
    this.#size += 5;
    return this;
  }

  int16(value: number): this {
    this.#reserve(2);
    this.#view.setInt16(this.#size, value);
    this.#size += 2;
    return this;
  }

  int32(value: number): this {
    this.#reserve(4);
    this.#view.setInt32(this.#size, value);
    this.#size += 4;
    return this;
  }

  bytes(value: Uint8Array): this {
    this.#reserve(value.length);
    this.#buffer.set(value, this.#size);
    this.#size += value.length;
    return this;
  }

  /** A NUL-terminated string. */
  cstring(text: string): this {
    return this.bytes(encoder.encode(text)).bytes(ZERO);
  }

  /** Ends the current message: writes its length. */
  end(): this {
    this.#view.setInt32(this.#start + 1, this.#size - this.#start - 1);
    return this;
  }

  /** The messages written so far, as one buffer. */
  finish(): Uint8Array {
    return this.#buffer.subarray(0, this.#size);
  }
}

const ZERO = new Uint8Array(1);

/** A value as PostgreSQL's text input reads it: null, an array literal (elements quoted), or the text. */
export function parameterText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    let literal = '{';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) literal += ',';
      const element = parameterText(value[index]);
      literal += element === null ? 'NULL' : `"${element.replace(/[\\"]/g, '\\$&')}"`;
    }
    return `${literal}}`;
  }
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** One statement text's name on the instance, whether the instance holds it, and its result columns. */
interface Statement {
  readonly name: string;
  prepared: boolean;
  /** From the description of its last parse (an execution alone does not describe its rows). */
  columns: readonly Column[];
}

/** The statements of one PGlite instance, shared by every store on it (names are unique per instance). */
const registries = new WeakMap<PgliteProtocolClient, Map<string, Statement>>();

/**
 * Runs parameterised statements on a PGlite instance as named prepared statements, with the same
 * results as `query` (rows keyed by column name, values through the instance's type parsers) and
 * the same errors (PGlite's `DatabaseError`, with its SQLSTATE `code`). Queries are serialised
 * with the instance's other queries and transactions exactly as `query` does it.
 */
export class PgliteStatements {
  readonly #client: PgliteProtocolClient;
  readonly #statements: Map<string, Statement>;

  /** @param client - a PGlite instance ({@link supportsPgliteStatements}) */
  constructor(client: PgliteProtocolClient) {
    this.#client = client;
    let registry = registries.get(client);
    if (registry === undefined) {
      registry = new Map();
      registries.set(client, registry);
    }
    this.#statements = registry;
  }

  /** Runs `text` with `values` (one round trip into the database; the first time, it is also parsed and named). */
  query(text: string, values: readonly unknown[]): Promise<QueryRows> {
    let statement = this.#statements.get(text);
    if (statement === undefined) {
      statement = { name: `${NAME_PREFIX}${this.#statements.size + 1}`, prepared: false, columns: [] };
      this.#statements.set(text, statement);
    }
    const known = statement;
    const client = this.#client;
    return client._checkReady().then(() =>
      client._runExclusiveTransaction(() =>
        client._runExclusiveQuery(async () => {
          try {
            return await this.#send(text, known, values);
          } catch (error) {
            if (!known.prepared || !REPREPARE_CODES.has(String((error as { code?: unknown }).code)))
              throw error;
            known.prepared = false;
            return this.#send(text, known, values);
          }
        }),
      ),
    );
  }

  async #send(text: string, statement: Statement, values: readonly unknown[]): Promise<QueryRows> {
    const writer = new MessageWriter();
    const parsing = !statement.prepared;
    if (parsing) {
      // Close first: a statement an earlier, failed call left behind under this name.
      writer.begin('C').bytes(STATEMENT).cstring(statement.name).end();
      writer.begin('P').cstring(statement.name).cstring(text).int16(0).end();
      // Described as a statement, before the bind: its columns are known even when the bind fails.
      writer.begin('D').bytes(STATEMENT).cstring(statement.name).end();
    }
    writer.begin('B').bytes(ZERO).cstring(statement.name).int16(0).int16(values.length);
    for (const value of values) {
      const literal = parameterText(value);
      if (literal === null) writer.int32(-1);
      else {
        const bytes = encoder.encode(literal);
        writer.int32(bytes.length).bytes(bytes);
      }
    }
    writer.int16(0).end();
    writer.begin('E').bytes(ZERO).int32(0).end();
    writer.begin('S').end();
    const { messages } = await this.#client.execProtocol(writer.finish(), { throwOnError: false });
    const rows: unknown[] = [];
    for (const message of messages) {
      if (message instanceof Error || message.name === 'error') throw message;
      if (message.name === 'parseComplete') statement.prepared = true;
      else if (message.name === 'rowDescription') statement.columns = (message.fields ?? []) as Column[];
      else if (message.name === 'noData') statement.columns = [];
      else if (message.name === 'dataRow') rows.push(this.#row(statement.columns, message.fields ?? []));
    }
    return { rows };
  }

  #row(columns: readonly Column[], fields: NonNullable<BackendMessage['fields']>): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    const parsers = this.#client.parsers;
    for (let index = 0; index < columns.length; index++) {
      const { name, dataTypeID } = columns[index]!;
      const text = fields[index];
      if (typeof text !== 'string') row[name] = null;
      else {
        const parse = parsers?.[dataTypeID];
        row[name] = parse === undefined ? text : parse(text, dataTypeID);
      }
    }
    return row;
  }
}

/** A result column as the row description names it. */
interface Column {
  readonly name: string;
  readonly dataTypeID: number;
}

const STATEMENT = new Uint8Array(['S'.charCodeAt(0)]);
