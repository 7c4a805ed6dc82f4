import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitMessageProblems } from '../../scripts/commit-rules.js';

const ROOT = new URL('../..', import.meta.url).pathname;

describe('commit message rules (npm run check:commits)', () => {
  it('accepts short imperative subjects, with or without an area prefix and a body', () => {
    for (const message of [
      'Reject compressed request bodies with 415',
      'bench: Add the open-loop orders module',
      'docs/performance.md: Keep the figures, drop the log',
      'Process the queue in two ordered scans\n\nThe claim read every dead index entry.\n',
      'Embed the QR code in the receipt',
      'Bring the worker down after its jobs',
      'Redis: Share the counters between instances',
      'x'.repeat(72),
    ]) {
      expect(commitMessageProblems(message), message).toEqual([]);
    }
  });

  it('names what is wrong', () => {
    expect(commitMessageProblems('')).toEqual(['the subject is empty']);
    expect(commitMessageProblems('x'.repeat(73))).toEqual([
      'the subject has 73 characters (at most 72): move details to the body',
    ]);
    expect(commitMessageProblems('Fix the wallet rounding.')).toEqual(['the subject ends with a full stop']);
    expect(commitMessageProblems('Fix the wallet rounding\nsecond line')).toEqual([
      'the subject is not followed by a blank line',
    ]);
    for (const [message, word] of [
      ['Adds a retry to the worker', 'adds'],
      ['Added a retry to the worker', 'added'],
      ['Adding a retry to the worker', 'adding'],
      ['bench: the catalog module reports the headers', 'the'],
      ['PGlite: parameterised statements named from their second run', 'parameterised'],
    ] as const) {
      expect(commitMessageProblems(message), message).toEqual([
        `"${word}" is not the imperative: write the subject as a command ("Add …", "Fix …")`,
      ]);
    }
  });

  describe('the CLI, on a repository', () => {
    const repo = mkdtempSync(join(tmpdir(), 'check-commits-'));
    afterAll(() => rmSync(repo, { recursive: true, force: true }));
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
        cwd: repo,
        encoding: 'utf8',
      });
    const cli = (base: string) =>
      spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/check-commits.ts'), base], {
        cwd: repo,
        encoding: 'utf8',
      });

    it('checks only the commits after the base, and fails on a bad subject', () => {
      git('init', '-q');
      git(
        'commit',
        '-q',
        '--allow-empty',
        '-m',
        'an old subject from before the rule, long enough to break it today',
      );
      const base = git('rev-parse', 'HEAD').trim();
      git('commit', '-q', '--allow-empty', '-m', 'Add a feature', '-m', 'Details in the body.');
      const fine = cli(base);
      expect(fine.status, fine.stderr).toBe(0);
      expect(fine.stdout).toContain('1 commit(s)');

      git(
        'commit',
        '-q',
        '--allow-empty',
        '-m',
        'Added another feature, with a subject that runs on and on well past the limit',
      );
      const bad = cli(base);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toContain('"added" is not the imperative');
      expect(bad.stderr).toContain('(at most 72)');
      expect(bad.stderr).not.toContain('an old subject');
    }, 60_000);

    it('fails clearly when the base is not in the history', () => {
      const missing = cli('0123456789abcdef0123456789abcdef01234567');
      expect(missing.status).toBe(1);
      expect(missing.stderr).toContain('is not in this clone');
    }, 60_000);
  });
});
