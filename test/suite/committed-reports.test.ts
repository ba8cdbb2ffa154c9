import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLAIM_OUTCOMES } from '../../src/suite/report/verdict-vocabulary.js';

const ROOT = new URL('../../../docs/reproductions/', import.meta.url).pathname;

/** A verdict entry of a committed report.json: the claims layout (CLAIMS-SPEC.md) or the older `claim`-only one. */
interface Entry {
  readonly claim: string | null;
  readonly outcome: string;
  readonly lower: number | null;
  readonly upper: number | null;
  readonly direction?: '<' | '>' | '~' | null;
  readonly margin?: number | null;
  readonly interval_level?: number | null;
  readonly outcome_holm?: string | null;
  readonly id?: string | null;
}

function reports(): { name: string; verdicts: Entry[] }[] {
  return readdirSync(ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(ROOT, d.name, 'report.json')))
    .map((d) => ({ name: d.name, verdicts: (JSON.parse(readFileSync(join(ROOT, d.name, 'report.json'), 'utf8')) as { verdicts: Entry[] }).verdicts }));
}

/** The claim's direction: the new layout's `direction`, or the old layout's "A < B on M" text. */
function directionOf(v: Entry): '<' | '>' | '~' | undefined {
  if (v.direction !== undefined) return v.direction ?? undefined;
  const m = /^\s*[a-z0-9][a-z0-9-]*(?:\+[a-z0-9-]+)?\s*([<>~])/.exec(v.claim ?? '');
  return m?.[1] as '<' | '>' | '~' | undefined;
}

test('every committed report: no "holds" without a 95 % interval excluding 0 in the claim’s direction', () => {
  const all = reports();
  assert.ok(all.length >= 8, `the committed reports are read (${all.map((r) => r.name).join(', ')})`);
  let checked = 0;
  for (const r of all) {
    for (const v of r.verdicts) {
      const where = `${r.name}: ${v.id ?? v.claim}`;
      if (v.outcome === 'holds' || v.outcome_holm === 'holds') {
        const dir = directionOf(v);
        assert.ok(dir === '<' || dir === '>', `${where}: holds without a direction`);
        assert.ok(typeof v.lower === 'number' && typeof v.upper === 'number', `${where}: holds without an interval`);
        assert.ok(dir === '<' ? v.upper! < 0 : v.lower! > 0, `${where}: holds with [${v.lower}, ${v.upper}] for "${dir}"`);
        if (v.interval_level !== undefined) assert.equal(v.interval_level, 0.95, `${where}: holds on a ${v.interval_level} interval`);
        checked++;
      }
      if (v.outcome_holm === 'holds') assert.equal(v.outcome, 'holds', `${where}: holds after Holm but not raw`);
      if (v.outcome === 'equivalent') {
        assert.ok(typeof v.margin === 'number' && v.lower! > -v.margin && v.upper! < v.margin, `${where}: equivalent with [${v.lower}, ${v.upper}] and margin ${v.margin}`);
      }
      // The claims layout uses the one vocabulary; the older reports only its predecessors.
      if (v.direction !== undefined) assert.ok((CLAIM_OUTCOMES as readonly string[]).includes(v.outcome), `${where}: outcome "${v.outcome}"`);
      else assert.ok(['holds', 'does not hold', 'inconclusive', 'not evaluated'].includes(v.outcome), `${where}: outcome "${v.outcome}"`);
    }
  }
  assert.ok(checked > 20, `holds entries checked: ${checked}`);
});
