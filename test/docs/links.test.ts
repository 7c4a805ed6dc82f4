import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const MARKDOWN = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function headings(file: string): { titles: Set<string>; anchors: Set<string> } {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const titles = [...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => m[1]!.trim());
  return { titles: new Set(titles.map((t) => t.replace(/`/g, ''))), anchors: new Set(titles.map(slug)) };
}

describe('links between the docs', () => {
  it('every `file.md#anchor` link in README.md and docs/ points to a heading that exists', () => {
    const broken: string[] = [];
    for (const file of MARKDOWN) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*\.md|)#([^)\s]+)\)/g)) {
        const path = target ? relative(ROOT, join(ROOT, dirname(file), target)) : file;
        if (!existsSync(join(ROOT, path))) {
          broken.push(`${file}: ${target}#${anchor} (no such file)`);
          continue;
        }
        if (!headings(path).anchors.has(anchor!)) broken.push(`${file}: ${target || ''}#${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every mention `docs/x.md, "Heading"` in README.md and docs/ names a heading that exists', () => {
    const broken: string[] = [];
    for (const file of MARKDOWN) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/\s*\n\s*/g, ' ');
      for (const [, target, title] of text.matchAll(/((?:docs\/)?[\w-]+\.md),? "([^"]+)"/g)) {
        const path = target!.startsWith('docs/') ? target! : `docs/${target}`;
        if (!existsSync(join(ROOT, path)) || !headings(path).titles.has(title!)) {
          broken.push(`${file}: ${target}, "${title}"`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
