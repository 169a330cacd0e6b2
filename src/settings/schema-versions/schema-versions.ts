import type { StoreCheck, StoreWrite } from '../../storage/store-commit';
import type { SettingsSchema } from '../schema/settings-schema';
import type { LevelServices } from '../values/level-services';
import { storedKeyPages } from '../values/stored-keys';
import { SchemaOutdatedError } from './schema-outdated';
import { formatSchemaRecord, parseSchemaRecord, recordCeiling, type SchemaRecord } from './schema-record';
import type { MigrationReport, SettingsMigration } from './settings-migration';

/** Where the stored settings stand with regard to this instance's `schemaVersion`. */
export type SchemaStatus =
  /** The record names this instance's version: writes check that it still does. */
  | { readonly kind: 'current' }
  /** Nothing recorded, and nothing to migrate: the first write or load records the version. */
  | { readonly kind: 'unrecorded' }
  /** Migrations are due (the stored version is older), or running towards this version. */
  | { readonly kind: 'pending'; readonly stored: number; readonly migrating: boolean }
  /** The stored version is newer (an older release during a rolling deploy): read only. */
  | { readonly kind: 'outdated'; readonly stored: number };

/** What a write adds to its commit so that it lands only at this instance's schema version. */
export interface SchemaGuard {
  /** The condition on the record (it still names this version). */
  readonly check?: StoreCheck;
  /** Or, when nothing is recorded yet: recording it, in the same atomic step. */
  readonly write?: StoreWrite;
}

/** What a container's schema versions are configured with. */
export interface SchemaVersionsOptions {
  /** `schemaVersion` (at least 1). */
  readonly code: number;
  /** The steps 2…code, in order. */
  readonly migrations: readonly SettingsMigration[];
  /** `migrateOnLoad`. */
  readonly migrateOnLoad: boolean;
}

/**
 * What one instance knows of its plugin's schema record (docs/architecture.md, "Schema
 * versions"): read with the first level read, followed by the change feed, and corrected by every
 * commit it made fail. It decides what a write carries (a check of the record, or recording it)
 * or whether the write is refused (409), and runs the migrations the first use is due.
 */
export class SchemaVersions {
  /** This instance's `schemaVersion`. */
  readonly code: number;
  /** The steps. */
  readonly migrations: readonly SettingsMigration[];
  /** Whether the first use runs due migrations. */
  readonly migrateOnLoad: boolean;
  /** The ids no longer registered that the steps read (their values belong to the plugin too). */
  readonly readIds: readonly string[];
  readonly #schema: SettingsSchema;
  readonly #services: () => LevelServices;
  #text: string | undefined;
  #known = false;
  /** Whether the status was looked at since the record was last read (the first use's work is done). */
  #settled = false;
  /** With nothing recorded: whether the plugin stores nothing at all (a fresh install). */
  #fresh: boolean | undefined;
  /** Runs `migrate()` (set by the container). */
  migrate: () => Promise<MigrationReport> = () => Promise.reject(new Error('migrate is not wired'));

  /**
   * @param schema - the registry and keys
   * @param services - the store access (given lazily: it is built after this)
   * @param options - the version, the steps and `migrateOnLoad`
   */
  constructor(schema: SettingsSchema, services: () => LevelServices, options: SchemaVersionsOptions) {
    this.#schema = schema;
    this.#services = services;
    this.code = options.code;
    this.migrations = options.migrations;
    this.migrateOnLoad = options.migrateOnLoad;
    this.readIds = [...new Set(options.migrations.flatMap((step) => step.reads ?? []))];
  }

  /** Whether the record's stored text is known (else the next read brings it along). */
  get known(): boolean {
    return this.#known;
  }

  /** Whether the first use's work (recording, migrating) is done for the record as known. */
  get settled(): boolean {
    return this.#known && this.#settled;
  }

  /** The record's text as known (`undefined`: nothing recorded). */
  get text(): string | undefined {
    return this.#text;
  }

  /** A read brought the record's stored text. */
  loaded(text: string | undefined): void {
    if (this.#known && text === this.#text) return;
    this.#text = text;
    this.#known = true;
    this.#settled = false;
  }

  /** The record changed elsewhere (the change feed, a resync): read it again with the next read. */
  forget(): void {
    this.#known = false;
    this.#settled = false;
    this.#fresh = undefined;
  }

  /** Reads the record now. */
  async read(): Promise<string | undefined> {
    const services = this.#services();
    const key = this.#schema.schemaRecordKey;
    const found = await services.call('getMany', () => services.store.getMany([key]));
    this.loaded(found.get(key));
    return this.#text;
  }

  /** The record as known, read when it is not. */
  async record(): Promise<SchemaRecord | undefined> {
    if (!this.#known) await this.read();
    return this.#text === undefined ? undefined : parseSchemaRecord(this.#text);
  }

  /** Where the stored settings stand (reads the record, and whether anything is stored, when needed). */
  async status(): Promise<SchemaStatus> {
    const record = await this.record();
    if (record === undefined) {
      if (this.#text !== undefined) return { kind: 'outdated', stored: Number.MAX_SAFE_INTEGER };
      if (this.code === 1) return { kind: 'unrecorded' };
      this.#fresh ??= !(await this.hasStoredValue());
      return this.#fresh ? { kind: 'unrecorded' } : { kind: 'pending', stored: 1, migrating: false };
    }
    const ceiling = recordCeiling(record);
    if (ceiling > this.code) return { kind: 'outdated', stored: ceiling };
    if (record.target === undefined && record.version === this.code) return { kind: 'current' };
    return {
      kind: 'pending',
      stored: record.target ?? record.version,
      migrating: record.target !== undefined,
    };
  }

  /**
   * The stored version (CONTRACT §11 `getSchemaVersion()`): the recorded one (while a migration
   * runs, the version it started from); with none recorded, 1 when the plugin stores anything,
   * else this instance's version.
   *
   * @param known - take the record as this instance knows it, when it knows one, instead of
   *   reading it (for a caller that follows every change: the change feed keeps it current)
   */
  async storedVersion(known = false): Promise<number> {
    if (!(known && this.#known)) await this.read();
    const record = this.#text === undefined ? undefined : parseSchemaRecord(this.#text);
    if (record !== undefined) return record.version;
    if (this.code === 1) return 1;
    return (await this.hasStoredValue()) ? 1 : this.code;
  }

  /**
   * What a write must carry: a check that the record names this version, or — nothing recorded
   * — recording it in the same commit. Runs due migrations first when `migrateOnLoad` holds.
   *
   * @throws {@link SchemaOutdatedError} (409) when the stored version is newer, a migration runs
   *   and this instance may not run it, or migrations are due and `migrateOnLoad` is off
   */
  async guard(plugin: string): Promise<SchemaGuard> {
    // A store without `commit` can check nothing atomically: the record is only read (and an
    // outdated instance refuses), not written along with each write.
    const atomic = typeof this.#services().store.commit === 'function';
    for (let attempt = 0; attempt < 3; attempt++) {
      const status = await this.status();
      this.#settled = true;
      const key = this.#schema.schemaRecordKey;
      switch (status.kind) {
        case 'current':
          return atomic ? { check: { key, expect: this.#text ?? null } } : {};
        case 'unrecorded':
          return atomic
            ? { write: { key, value: formatSchemaRecord({ version: this.code }), expect: null } }
            : {};
        case 'outdated':
          throw new SchemaOutdatedError(plugin, status.stored, this.code);
        case 'pending':
          if (!this.migrateOnLoad)
            throw new SchemaOutdatedError(plugin, status.stored, this.code, status.migrating);
          await this.migrate();
          this.forget();
      }
    }
    throw new SchemaOutdatedError(plugin, this.code, this.code, true);
  }

  /**
   * The first use's work, once the record is known: runs due migrations (`migrateOnLoad`), and
   * records the version of a fresh install (at version 1 there is nothing to tell apart: the first
   * write records it). Resolves to true when a migration ran (the values read before are stale).
   * A failure to record is left for the first write.
   */
  async settle(): Promise<boolean> {
    if (this.settled) return false;
    const status = await this.status();
    this.#settled = true;
    if (status.kind === 'pending' && this.migrateOnLoad) {
      await this.migrate();
      this.forget();
      return true;
    }
    if (status.kind === 'unrecorded' && this.code > 1) {
      const services = this.#services();
      const store = services.store;
      const key = this.#schema.schemaRecordKey;
      const text = formatSchemaRecord({ version: this.code });
      try {
        if (typeof store.commit === 'function') {
          const result = await services.commit({ writes: [{ key, value: text, expect: null }] });
          this.loaded(result.ok ? text : (result.current.get(key) ?? undefined));
          this.#settled = result.ok;
        } else {
          await services.call('set', () => store.set(key, text));
          this.loaded(text);
          this.#settled = true;
        }
      } catch {
        // Left for the first write, which records it in its own commit.
      }
    }
    return false;
  }

  /**
   * Whether the plugin stores any value: at the global level under a registered id or an id the
   * steps read, or at any scope (one key of a scan per id is enough).
   */
  async hasStoredValue(): Promise<boolean> {
    const services = this.#services();
    const ids = [
      ...new Set([...[...this.#schema.settings()].map((setting) => setting.getId()), ...this.readIds]),
    ];
    const globals = ids.map((id) => this.#schema.keyOf(id));
    const found = await services.call('getMany', () => services.store.getMany(globals));
    if (found.size > 0) return true;
    for (const id of ids) {
      for await (const page of storedKeyPages(services, this.#schema.scopedKeyPrefix(id), 1)) {
        if (page.length > 0) return true;
      }
    }
    return false;
  }
}
