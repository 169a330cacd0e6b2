/**
 * A real local Redis Cluster for tests: three masters (no replicas) on free loopback ports in a
 * temporary directory, started with `redis-server --cluster-enabled yes` and joined with
 * `redis-cli --cluster create`, stopped (processes killed, directory removed) afterwards.
 *
 * `describeWithRedisCluster` starts one for a `describe` block. Without `redis-server` and
 * `redis-cli` on the PATH the block is skipped with a printed reason, except under
 * `REQUIRE_SERVICES=1`, where that is a failure. Every wait is bounded.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';

/** A node of the cluster. */
export interface ClusterNodeAddress {
  readonly host: string;
  readonly port: number;
}

/** A running local cluster. */
export interface LocalRedisCluster {
  /** The three masters, as ioredis `Cluster` startup nodes. */
  readonly nodes: readonly ClusterNodeAddress[];
  /** Kills the servers and removes their directory. */
  stop(): Promise<void>;
}

const HOST = '127.0.0.1';
const MASTERS = 3;
/** Redis uses port + 10000 for the cluster bus. */
const BUS_PORT_OFFSET = 10_000;
const START_TIMEOUT_MS = 20_000;

/** Whether `port` can be bound on the loopback interface now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, HOST, () => server.close(() => resolve(true)));
  });
}

/** A port the OS hands out (bound to port 0) whose cluster bus port (+10000) is free too. */
async function freeClusterPort(taken: ReadonlySet<number>): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, HOST, () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const bus = port + BUS_PORT_OFFSET;
    if (port > 0 && bus < 65_536 && !taken.has(port) && !taken.has(bus) && (await portIsFree(bus)))
      return port;
  }
  throw new Error('no free port pair for a Redis Cluster node');
}

/** Runs `redis-cli` with `args`; resolves to its output. */
function redisCli(args: readonly string[], timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('redis-cli', [...args], { timeout: timeoutMs }, (error, stdout, stderr) => {
      if (error) reject(new Error(`redis-cli ${args.join(' ')}: ${error.message}\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Redis Cluster: ${what} within ${timeoutMs} ms`);
}

/** Why a local cluster cannot be started here, or `undefined` when it can. */
export function redisClusterUnavailable(): string | undefined {
  for (const binary of ['redis-server', 'redis-cli']) {
    if (spawnSync(binary, ['--version'], { stdio: 'ignore' }).error) return `${binary} is not installed`;
  }
  return undefined;
}

/** Starts a three-master cluster on free loopback ports; resolves once `cluster info` says ok on every node. */
export async function startRedisCluster(): Promise<LocalRedisCluster> {
  const directory = await mkdtemp(join(tmpdir(), 'cpf-redis-cluster-'));
  const processes: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(
      processes.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    await rm(directory, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    const taken = new Set<number>();
    for (let index = 0; index < MASTERS; index++) {
      const port = await freeClusterPort(taken);
      ports.push(port);
      taken.add(port).add(port + BUS_PORT_OFFSET);
    }
    for (const port of ports) {
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          HOST,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(directory, `nodes-${port}.conf`),
          '--dir',
          directory,
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
        ],
        { stdio: 'ignore' },
      );
      processes.push(child);
    }
    for (const port of ports) {
      await waitFor(
        `node ${port} did not answer PING`,
        async () => (await redisCli(['-h', HOST, '-p', String(port), 'PING'], 2_000)).trim() === 'PONG',
        START_TIMEOUT_MS,
      );
    }
    await redisCli(
      [
        '--cluster',
        'create',
        ...ports.map((port) => `${HOST}:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
      START_TIMEOUT_MS,
    );
    for (const port of ports) {
      await waitFor(
        `node ${port} did not report cluster_state:ok`,
        async () =>
          (await redisCli(['-h', HOST, '-p', String(port), 'CLUSTER', 'INFO'], 2_000)).includes(
            'cluster_state:ok',
          ),
        START_TIMEOUT_MS,
      );
    }
    return { nodes: ports.map((port) => ({ host: HOST, port })), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * `describe` with a local Redis Cluster started before its tests and stopped after them.
 * `cluster()` gives the running cluster inside tests and hooks.
 */
export function describeWithRedisCluster(
  name: string,
  body: (cluster: () => LocalRedisCluster) => void,
): void {
  const missing = redisClusterUnavailable();
  if (missing !== undefined) {
    if (process.env.REQUIRE_SERVICES === '1') {
      describe(name, () => {
        it('requires redis-server and redis-cli', () => {
          throw new Error(`${missing} but REQUIRE_SERVICES=1: the Redis Cluster tests may not be skipped`);
        });
      });
      return;
    }
    console.log(`[skip] ${name}: ${missing} (install Redis to run the Redis Cluster tests)`);
    describe.skip(name, () => body(() => ({ nodes: [], stop: async () => {} })));
    return;
  }
  describe(name, () => {
    let running: LocalRedisCluster | undefined;
    beforeAll(async () => {
      running = await startRedisCluster();
    }, START_TIMEOUT_MS * 3);
    afterAll(async () => {
      await running?.stop();
    });
    body(() => {
      if (!running) throw new Error('the Redis Cluster is not running');
      return running;
    });
  });
}
