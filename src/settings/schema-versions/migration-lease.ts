import type { LevelServices } from '../values/level-services';

/** How long a lease lasts without renewal. */
const LEASE_MS = 5_000;
/** How often the holder renews it. */
const RENEW_MS = 1_500;
/** How often a waiting instance looks again. */
const POLL_MS = 100;

/** The lease's stored text: who holds it and until when (ms since the epoch). */
interface LeaseText {
  readonly owner: string;
  readonly until: number;
}

function parseLease(text: string | undefined): LeaseText | undefined {
  if (text === undefined) return undefined;
  try {
    const lease = JSON.parse(text) as Partial<LeaseText>;
    return typeof lease.owner === 'string' && typeof lease.until === 'number'
      ? (lease as LeaseText)
      : undefined;
  } catch {
    return undefined;
  }
}

function randomOwner(): string {
  const bytes = new Uint8Array(9);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The migration lease (`<prefix>_<plugin>:migration-lease`): which instance runs a migration
 * now, so that the others wait for it instead of doing the same work. It only saves work — every
 * level's migration is conditional on the level's own marker — so a lease a crashed instance left
 * behind just expires (after 5 s without renewal) and the next instance takes over.
 */
export class MigrationLease {
  readonly #services: LevelServices;
  readonly #key: string;
  #text: string;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #released = false;

  private constructor(services: LevelServices, key: string, text: string) {
    this.#services = services;
    this.#key = key;
    this.#text = text;
    this.#schedule();
  }

  /**
   * Takes the lease, or waits while another live instance holds it. Resolves to the lease, or to
   * `'done'` as soon as `done()` says the migration this instance wanted is finished.
   */
  static async acquire(
    services: LevelServices,
    key: string,
    done: () => Promise<boolean>,
  ): Promise<MigrationLease | 'done'> {
    const store = services.store;
    if (typeof store.commit !== 'function') throw new Error('a lease needs the commit capability');
    for (;;) {
      if (await done()) return 'done';
      const found = await services.call('getMany', () => store.getMany([key]));
      const current = found.get(key);
      const lease = parseLease(current);
      if (lease === undefined || lease.until <= Date.now()) {
        const text = JSON.stringify({ owner: randomOwner(), until: Date.now() + LEASE_MS });
        const result = await services.commit({ writes: [{ key, value: text, expect: current ?? null }] });
        if (result.ok) return new MigrationLease(services, key, text);
        continue;
      }
      await sleep(POLL_MS);
    }
  }

  /** Gives the lease back (when it is still this instance's). */
  async release(): Promise<void> {
    this.#released = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    await this.#services
      .commit({ writes: [{ key: this.#key, value: null, expect: this.#text }] })
      .catch(() => undefined);
  }

  #schedule(): void {
    this.#timer = setTimeout(() => {
      void this.#renew();
    }, RENEW_MS);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  async #renew(): Promise<void> {
    if (this.#released) return;
    const text = JSON.stringify({
      owner: parseLease(this.#text)?.owner ?? randomOwner(),
      until: Date.now() + LEASE_MS,
    });
    const result = await this.#services
      .commit({ writes: [{ key: this.#key, value: text, expect: this.#text }] })
      .catch(() => undefined);
    if (result?.ok) this.#text = text;
    // Lost (another instance took over after a stall): the markers keep the work correct; go on.
    if (!this.#released) this.#schedule();
  }
}
