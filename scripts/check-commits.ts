/**
 * `npm run check:commits` (CI): the messages of the commits after BASE follow
 * scripts/commit-rules.ts. Exit 1 with one line per problem.
 *
 *   tsx scripts/check-commits.ts            # commits after BASE up to HEAD
 *   tsx scripts/check-commits.ts <rev>      # commits after <rev> instead
 *
 * Why a fixed base: the rule came with issue 29, and the history before it has subjects of up to
 * 300 characters that stay as they are (history is not rewritten). BASE is main's last commit
 * before the rule; everything after it is checked, whichever branch it came from, and CI's fresh
 * clone of main needs no other reference (no merge base to guess). Merge commits are skipped:
 * git writes their subjects.
 */
import { execFileSync } from 'node:child_process';
import { commitMessageProblems } from './commit-rules.js';

export const BASE = '696bff67753980dc046113f0f1bd90908cf59c66';

const base = process.argv[2] ?? BASE;
const git = (...args: string[]): string => execFileSync('git', args, { encoding: 'utf8' });

try {
  git('cat-file', '-e', `${base}^{commit}`);
} catch {
  console.error(
    `check-commits: ${base} is not in this clone's history (a shallow clone?): fetch the full history`,
  );
  process.exit(1);
}

// One record per commit: hash, NUL, message, NUL.
const log = git('log', '--no-merges', '--format=%H%x00%B%x00', `${base}..HEAD`);
const records = log.split('\0');
const problems: string[] = [];
let checked = 0;
for (let i = 0; i + 1 < records.length; i += 2) {
  const hash = records[i]!.trim();
  const message = records[i + 1]!;
  checked += 1;
  for (const problem of commitMessageProblems(message)) {
    problems.push(`${hash.slice(0, 10)} "${message.split('\n')[0]}": ${problem}`);
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(
    `check-commits: ${problems.length} problem(s) in ${checked} commit(s) after ${base.slice(0, 10)}`,
  );
  process.exit(1);
}
console.log(`check-commits: ${checked} commit(s) after ${base.slice(0, 10)}, subjects fine`);
