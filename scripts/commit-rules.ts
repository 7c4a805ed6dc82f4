/**
 * The commit message rules `npm run check:commits` applies (README.md, "Operations": CI): a subject of at most 72 characters in the imperative ("Reject
 * compressed request bodies with 415", not "Rejects …" or "Rejected …"), details in the body
 * after one blank line.
 *
 * The imperative is checked on the subject's first word, after an optional `area: ` prefix
 * (`bench: Add …`, `docs/orders.md: Describe …`): it may not end like a past tense or a gerund
 * ("-ed", "-ing") or a third person ("-s"), apart from the verbs that end that way in the
 * imperative too (need, embed, bring, …) and words ending in "ss", "us" or "is" (process, focus,
 * Redis), and it may not be an article or determiner ("the", "this", "each", …). A heuristic: it
 * catches the usual slips, and a false alarm is fixed by rewording.
 */
export const MAX_SUBJECT_LENGTH = 72;

const IMPERATIVE_ED = new Set([
  'need',
  'seed',
  'speed',
  'feed',
  'proceed',
  'exceed',
  'succeed',
  'embed',
  'shed',
  'shred',
]);
// Words that often start a descriptive subject ("the bench reports …") and are no verb at all.
const NOT_VERBS = new Set([
  'the',
  'a',
  'an',
  'this',
  'that',
  'these',
  'those',
  'its',
  'our',
  'new',
  'each',
  'every',
]);
const IMPERATIVE_ING = new Set([
  'bring',
  'string',
  'ping',
  'ring',
  'sing',
  'sting',
  'swing',
  'sling',
  'wring',
  'fling',
  'cling',
]);

/** Problems of one commit message (subject, then optionally a blank line and a body); [] when fine. */
export function commitMessageProblems(message: string): string[] {
  const lines = message.replace(/\n+$/, '').split('\n');
  const subject = lines[0] ?? '';
  const problems: string[] = [];
  if (subject.trim() === '') return ['the subject is empty'];
  if ([...subject].length > MAX_SUBJECT_LENGTH) {
    problems.push(
      `the subject has ${[...subject].length} characters (at most ${MAX_SUBJECT_LENGTH}): move details to the body`,
    );
  }
  if (subject.endsWith('.')) problems.push('the subject ends with a full stop');
  if (lines.length > 1 && lines[1]!.trim() !== '')
    problems.push('the subject is not followed by a blank line');

  const withoutArea = subject.replace(/^[\w./@-]+:\s+/, '');
  const firstWord = /^[A-Za-z]+/.exec(withoutArea)?.[0]?.toLowerCase();
  if (firstWord && !isImperative(firstWord)) {
    problems.push(`"${firstWord}" is not the imperative: write the subject as a command ("Add …", "Fix …")`);
  }
  return problems;
}

function isImperative(word: string): boolean {
  if (NOT_VERBS.has(word)) return false;
  if (word.endsWith('ed')) return IMPERATIVE_ED.has(word);
  if (word.endsWith('ing')) return IMPERATIVE_ING.has(word);
  if (word.endsWith('s')) return /(ss|us|is)$/.test(word) || word.length <= 2;
  return true;
}
