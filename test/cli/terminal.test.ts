/**
 * `cpf` on a pseudo-terminal: readable output (aligned tables, the chain that wins, a `+ ~ -`
 * diff), colours only on a colour terminal and never with `NO_COLOR`, `apply`'s confirmation
 * prompt answered `n` (nothing applied, exit 0) and `y` (applied), and a secret typed for
 * `set --stdin` never shown.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SettingsDocument } from 'commerce-plugin-framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOut } from './support/cli-run';
import { type CliSession, cliSession } from './support/cli-session';
import { runInTerminal } from './support/terminal';

const SECRET = 'sk_live_terminal_test_1234';
// biome-ignore lint/suspicious/noControlCharactersInRegex: colours are ESC sequences
const ANSI = /\u001b\[[0-9;]*m/g;

let session: CliSession;
let folder: string;
let env: Readonly<Record<string, string>>;

beforeAll(async () => {
  session = await cliSession('pglite');
  ({ folder, env } = session);
  await session.library(async ({ shop }) => {
    await shop.updateValue('fee', 0);
    await shop.updateValue('api_key', SECRET);
    await shop.scope('eu').updateValue('title', 'EU shop');
  });
}, 120_000);

afterAll(() => session.remove());

describe('cpf on a terminal', { timeout: 240_000 }, () => {
  it('prints aligned tables and the winning level, in colour unless NO_COLOR is set', async () => {
    const coloured = await runInTerminal(['list', 'shop', '--scope', 'eu/de'], { cwd: folder, env });
    const plain = await runInTerminal(['explain', 'shop', 'title', '--scope', 'eu/de'], {
      cwd: folder,
      env: { ...env, NO_COLOR: '1' },
    });
    expect(coloured.code, coloured.screen).toBe(0);
    expect(coloured.screen).toMatch(ANSI);
    const lines = coloured.screen.replace(ANSI, '').trimEnd().split('\n');
    expect(lines[0]).toBe('shop at eu/de');
    expect(lines[1]).toMatch(/^setting +type +value +origin$/);
    const valueColumn = lines[1]!.indexOf('value');
    const fee = lines.find((line) => line.startsWith('fee '))!;
    expect(fee.slice(valueColumn)).toMatch(/^0 +global$/);
    expect(lines.find((line) => line.startsWith('title '))!.slice(valueColumn)).toMatch(/^"EU shop" +eu$/);
    expect(lines.find((line) => line.startsWith('api_key '))!.slice(valueColumn)).toMatch(/^\*{8} +global$/);
    expect(plain.code, plain.screen).toBe(0);
    expect(plain.screen).not.toMatch(ANSI);
    expect(plain.screen).toMatch(/^eu\s+"EU shop"\s+← wins$/m);
    expect(plain.screen).toMatch(/^eu\/de\s+\(not set\)$/m);
    expect(plain.screen).toMatch(/^default\s+"Shop"$/m);
    for (const { screen } of [coloured, plain]) expect(screen).not.toContain(SECRET);
  });

  it('reports errors as one readable line: a usage error (2), a store that fails (7)', async () => {
    const plain = { NO_COLOR: '1' };
    const usage = await runInTerminal(['frobnicate'], { cwd: folder, env: plain });
    expect(usage.code).toBe(2);
    expect(usage.screen).toBe("cpf: unknown command 'frobnicate' (cli_usage)\n");
    const store = await runInTerminal(['get', 'shop', 'title'], {
      cwd: folder,
      env: {
        ...plain,
        CPF_TEST_STORE: 'postgres',
        CPF_TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
      },
    });
    expect(store.code).toBe(7);
    expect(store.screen).toMatch(
      /^cpf: PostgresOptionStore\.\w+ failed: connect ECONNREFUSED \S+ \(cli_store_failed\)\n$/,
    );
  });

  it('shows the plan as a diff and asks before applying: n applies nothing, y applies', async () => {
    const document = jsonOut<SettingsDocument>(await session.cpf(['export', 'shop']));
    document.levels['']!.fee = 2;
    document.levels['']!.note = 'new';
    document.levels.eu = { title: null };
    const file = join(folder, 'changes.json');
    await writeFile(file, JSON.stringify(document));

    const declined = await runInTerminal(['apply', file], {
      cwd: folder,
      env: { ...env, NO_COLOR: '1' },
      answer: 'n',
    });
    expect(declined.code, declined.screen).toBe(0);
    expect(declined.screen).toContain('plugin: shop\n~ fee 0 → 2\n+ note "new"\n- eu/title "EU shop"\n');
    expect(declined.screen).toMatch(/^id plan1:\S+$/m);
    expect(declined.screen).toContain('Apply 3 changes? [y/N] ');
    expect(declined.screen).toContain('Nothing applied.');
    await session.library(async ({ shop }) => expect(await shop.getValue('fee')).toBe(0));

    const accepted = await runInTerminal(['apply', file], { cwd: folder, env, answer: 'y' });
    expect(accepted.code, accepted.screen).toBe(0);
    expect(accepted.screen.replace(ANSI, '')).toContain('applied 3 changes to shop');
    await session.library(async ({ shop }) => {
      expect(await shop.getValue('fee')).toBe(2);
      expect(await shop.scope('eu').getOrigin('title')).toBeNull();
    });
    for (const { screen } of [declined, accepted]) expect(screen).not.toContain(SECRET);
  });

  it('reads a secret typed for set --stdin without showing it', async () => {
    const typed = 'sk_live_typed_at_the_terminal_5678';
    const result = await runInTerminal(['set', 'shop', 'api_key', '--stdin'], {
      cwd: folder,
      env: { ...env, NO_COLOR: '1' },
      prompt: '(not shown): ',
      answer: typed,
    });
    expect(result.code, result.screen).toBe(0);
    expect(result.screen).toContain('Value of api_key (not shown): ');
    expect(result.screen).not.toContain(typed);
    await session.library(async ({ shop }) => expect(await shop.getValue('api_key')).toBe(typed));
  });
});
