import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Words each generated section draws its descriptions from (plus shared filler words). */
const SECTION_WORDS: Record<string, string[]> = {
  libs: ['shared', 'library', 'runtime', 'bindings'],
  python: ['python', 'module', 'pep', 'interpreter'],
  games: ['game', 'arcade', 'puzzle', 'player'],
  doc: ['documentation', 'manual', 'html', 'reference'],
};
const FILLER = ['for', 'the', 'and', 'tool', 'support', 'data', 'files', 'with'];

/**
 * Write an apt lists folder with one plain Packages file of `n` generated packages over four sections (every third
 * one under a contrib/ prefix), descriptions of 4–8 words mostly drawn from their section's words (10 % from another
 * section, so the task is not trivially separable), and a Release file with a Date. Deterministic.
 */
export function writeDebianLists(dir: string, n = 400): void {
  const sections = Object.keys(SECTION_WORDS);
  let seed = 7;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  const stanzas: string[] = [];
  for (let i = 0; i < n; i++) {
    const section = sections[i % sections.length]!;
    const words = Array.from({ length: 4 + Math.floor(next() * 5) }, () => (next() < 0.6 ? pick(SECTION_WORDS[next() < 0.9 ? section : pick(sections)]!) : pick(FILLER)));
    stanzas.push(`Package: pkg${i}\nVersion: 1.0-${i}\nDescription: ${words.join(' ')}\nSection: ${i % 3 === 0 ? 'contrib/' : ''}${section}\nPriority: optional\n`);
  }
  writeFileSync(join(dir, 'deb.example.org_debian_dists_test_main_binary-amd64_Packages'), stanzas.join('\n'));
  writeFileSync(join(dir, 'deb.example.org_debian_dists_test_InRelease'), 'Origin: Example\nDate: Sat, 11 Jul 2026 10:16:37 UTC\n');
}
