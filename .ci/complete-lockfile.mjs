// Adds lockfile entries for other platforms' optional binaries (biome, rollup…) that npm 11 leaves
// out when the registry reachable here does not carry them; without them `npm ci` refuses the
// lockfile ("Missing: … from lock file"). Run after every `npm install`:
//   node .ci/complete-lockfile.mjs package-lock.json
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = process.argv[2];
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const missing = new Map();
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === '' ? '' : `${path}/`;
    const candidates = [`${base}node_modules/${name}`, `node_modules/${name}`];
    if (candidates.some((c) => lock.packages[c])) continue;
    missing.set(`node_modules/${name}`, { name, range, dev: entry.dev === true });
  }
}
const CPUS = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x'];
for (const [key, { name, range, dev }] of missing) {
  // The registry reachable here does not carry other platforms' binaries: describe the entry
  // from its name so that npm ci recognises it as another platform's optional package.
  const tokens = name.split('/').pop().split('-');
  const os = [
    'android',
    'darwin',
    'linux',
    'win32',
    'freebsd',
    'openbsd',
    'netbsd',
    'sunos',
    'aix',
    'openharmony',
  ].find((o) => tokens.includes(o));
  const cpu = CPUS.find((c) => tokens.includes(c));
  const entry = { version: range };
  if (cpu) entry.cpu = [cpu];
  if (dev) entry.dev = true;
  if (tokens.includes('musl')) entry.libc = ['musl'];
  entry.optional = true;
  entry.os = [os ?? 'unknown'];
  lock.packages[key] = entry;
  console.log('added', key, JSON.stringify(entry));
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
