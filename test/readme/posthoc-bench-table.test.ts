import { test } from 'node:test';
import assert from 'node:assert/strict';
import { posthocBenchTable, readPosthocBenchFiles, structuredAtOrBelowTs, type PosthocBenchSet } from '../../src/cli/docs/posthoc-bench-table.js';

const methods = (ts: number, svs: number | undefined, sms: number | undefined): PosthocBenchSet['methods'] => ({
  temperature: { nll: ts, ece: 0.01, fit_cpu_s: 0.05 },
  ...(svs !== undefined ? { svs: { nll: svs, ece: 0.02, fit_cpu_s: 0.5 } } : { svs: { error: 'L-BFGS did not converge' } }),
  ...(sms !== undefined ? { sms: { nll: sms, ece: 0.03, fit_cpu_s: 12.4 } } : { sms: { skipped: 'run with --include-sms' } }),
});
const set = (name: string, m: PosthocBenchSet['methods']): PosthocBenchSet => ({ set: name, classes: 100, split: 'seeded', raw: { nll: 1, ece: 0.1 }, methods: m });

test('the done-when verdict is computed per set: SMS and SVS both at or below TS, ties included', () => {
  assert.equal(structuredAtOrBelowTs(set('a', methods(0.9, 0.89, 0.88))), 'met');
  assert.equal(structuredAtOrBelowTs(set('b', methods(0.9, 0.9, 0.9))), 'met');
  assert.equal(structuredAtOrBelowTs(set('c', methods(0.9, 0.89, 0.91))), 'not met');
  assert.equal(structuredAtOrBelowTs(set('d', methods(0.9, 0.91, 0.88))), 'not met');
  assert.equal(structuredAtOrBelowTs(set('e', methods(0.9, 0.89, undefined))), 'not measured');
  assert.equal(structuredAtOrBelowTs(set('f', methods(0.9, undefined, 0.8))), 'not measured');
});

test('the generated table shows every method per set, says why a cell is empty, and counts the sets that meet the done-when', () => {
  const file = {
    command: 'node dist/bench/posthoc-real-predictions.js --only x',
    date: '2026-11-28T00:00:00Z',
    sets: [set('met-set', methods(0.9, 0.89, 0.88)), set('skip-set', methods(0.9, 0.89, undefined))],
  };
  const table = posthocBenchTable([{ name: 'x.json', file }]);
  const lines = table.split('\n');
  assert.equal(lines[0], '| method | met-set (C = 100) | skip-set (C = 100) |');
  assert.ok(lines.includes('| sms | 0.8800 · 3.00 % · 12 s | skipped |'), table);
  assert.ok(lines.includes('| svs | 0.8900 · 2.00 % · 0.50 s | 0.8900 · 2.00 % · 0.50 s |'), table);
  assert.ok(lines.includes('| vector | – | – |'), table);
  assert.ok(lines.includes("| **done-when: SMS and SVS test log loss ≤ temperature's** | met | not measured |"), table);
  assert.match(table, /Done-when met on 1 of 2 sets/);
  assert.match(table, /`x\.json`: `node dist\/bench\/posthoc-real-predictions\.js --only x` \(2026-11-28T00:00:00Z\)/);
  assert.match(posthocBenchTable([]), /No bench results/);
});

test('the committed bench files read back with a command and a date each', () => {
  for (const { name, file } of readPosthocBenchFiles()) {
    assert.match(file.command, /^node dist\/bench\/posthoc-real-predictions\.js/, name);
    assert.ok(file.date.length > 0 && file.sets.length > 0, name);
  }
});
