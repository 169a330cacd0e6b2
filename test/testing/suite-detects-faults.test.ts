import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

interface JsonReport {
  testResults: Array<{
    assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }>;
  }>;
}

/** Which test of the suite each broken store must fail (and it may fail others too). */
const expectedFailures: Record<string, string> = {
  like: 'no LIKE or glob matching: wildcards in a key match only themselves',
  'self-reporting': "watch does not report the instance's own writes",
  'empty-is-absent': 'the empty string is a stored value, distinct from absent',
  trimming: 'values come back byte for byte',
  'always-deleted': 'delete answers true when it removed a value, false when there was none',
  normalising: 'unicode is kept exactly: astral characters, combining marks, no normalisation',
  'closing-shared': 'instances are independent: closing one leaves another working',
  deaf: "watch reports another instance's sets and deletes",
  'ignores-expect': 'commit conditions: absent, equal text, a mismatching text, none',
  'partial-writes':
    'all or nothing: one failing condition among many writes changes nothing and logs nothing',
  'logs-when-refused':
    'all or nothing: one failing condition among many writes changes nothing and logs nothing',
  'commit-without-readlog': 'a store has both commit and readLog, or neither',
  'per-key-notify':
    "one change message per commit: a sibling's watch reports all its keys in one go, not its own",
  'check-then-write':
    'of concurrent commits with the same expected text, through two instances, exactly one succeeds',
  'untrimmed-log': 'the change log: appended in order, trimmed to keep, read newest first, one log per name',
  'like-prefix': 'listKeys answers the keys that start with the prefix, as text: no LIKE or glob patterns',
  'ignores-checks':
    'a commit applies only when every checked key holds its text: held, failing, absent, the empty string',
  'ignores-max-bytes':
    'the oldest entries go first until the UTF-8 bytes fit; multi-byte characters count by their bytes',
  'ignores-page-tag': 'a tag filters the page and the total; readLog still answers exactly the entry texts',
  'never-trimmed':
    'trimmed: false until the log loses an entry to keep, to maxBytes or to a commit beyond its bounds',
  'like-scan':
    'pages through the keys that start with the prefix, compared as text: no LIKE or glob patterns',
  'overreaching-suffixes':
    'merges the suffixes of several prefixes, each once, in order, with the prefixes it follows, the texts asked for and the joined keys',
};

it('the conformance suite fails stores that break its rules, and passes a correct one', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'cpf-suite-'));
  const outputFile = join(directory, 'report.json');
  try {
    await new Promise<void>((resolve) => {
      execFile(
        process.execPath,
        [
          join(repositoryRoot, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--config',
          'test/testing/fixtures/vitest.fixture.config.ts',
          '--reporter=json',
          `--outputFile=${outputFile}`,
        ],
        { cwd: repositoryRoot, timeout: 60_000, env: { ...process.env, CI: '' } },
        () => resolve(), // it exits non-zero: most suites in it fail on purpose
      );
    });
    const report = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
    const results = report.testResults.flatMap((file) => file.assertionResults);
    const suiteOf = (result: { ancestorTitles: string[] }) =>
      result.ancestorTitles[0]!.replace('OptionStore conformance: ', '');
    const control = results.filter((result) => suiteOf(result) === 'control');
    expect(control.length).toBeGreaterThan(25);
    expect(control.filter((result) => result.status !== 'passed')).toEqual([]);
    for (const [store, title] of Object.entries(expectedFailures)) {
      const result = results.find((each) => suiteOf(each) === store && each.title === title);
      expect(result?.status, `${store}: ${title}`).toBe('failed');
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}, 90_000);
