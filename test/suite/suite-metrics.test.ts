import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeNpy } from '../../src/io/npy.js';
import { evaluateOptIn, topLabel } from '../../src/metrics/index.js';
import { runPosthoc } from '../../src/suite/posthoc-step.js';
import { buildTable, tableColumns } from '../../src/suite/report/suite-table.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { posthocChanges } from '../../src/suite/identity/run-check.js';
import { posthocIdentity } from '../../src/suite/identity/run-identity.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('suite-metrics');
const BASE = { name: 'opt-in', base: { dataset: 'mnist', subset: 300, epochs: 1 }, methods: [{ name: 'ce' }], posthoc: ['temperature'] };

test('a suite names metrics of the record (default and opt-in); unknown and repeated names are refused', () => {
  assert.deepEqual(parseSuite({ ...BASE, metrics: ['prr', 'calibration_slope_error', 'aurc'] }).metrics, ['prr', 'calibration_slope_error', 'aurc']);
  assert.deepEqual(parseSuite(BASE).metrics, []);
  assert.throws(() => parseSuite({ ...BASE, metrics: ['prrr'] }), /suite\.metrics\[0\]: expected one of .*'prr', 'auarc'/);
  assert.throws(() => parseSuite({ ...BASE, metrics: ['ici', 'ici'] }), /suite\.metrics: expected distinct metric names/);
});

/** A run directory with 3-class logits of val and test splits (over-confident: accuracy ≈ 60 %). */
async function run(name: string): Promise<{ dir: string; test: Float32Array; labels: Int32Array }> {
  const runDir = join(dir, name);
  mkdirSync(runDir, { recursive: true });
  const rng = new Random(9);
  const out: { test?: Float32Array; labels?: Int32Array } = {};
  for (const split of ['val', 'test']) {
    const n = 300;
    const labels = Int32Array.from({ length: n }, () => rng.int(3));
    const logits = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) logits[i * 3 + k] = rng.normal();
      logits[i * 3 + (rng.uniform() < 0.6 ? labels[i]! : (labels[i]! + 1) % 3)]! += 3 * rng.uniform() + 1;
    }
    await writeNpy(join(runDir, `${split}-logits.npy`), logits, [n, 3]);
    await writeNpy(join(runDir, `${split}-labels.npy`), labels, [n]);
    if (split === 'test') Object.assign(out, { test: logits, labels });
  }
  return { dir: runDir, test: out.test!, labels: out.labels! };
}

test('the post-hoc step computes the opt-in metrics a suite names, before and after each calibrator (the record entries)', async () => {
  const r = await run('with-metrics');
  const result = await runPosthoc(r.dir, ['temperature'], 15, ['prr', 'ici']);
  const top = topLabel({ rows: 300, cols: 3, data: r.test }, r.labels, 'logits');
  const expected = evaluateOptIn(top.confidence, top.correct, ['prr', 'ici']);
  assert.equal(result.test['prr'], expected.prr);
  assert.equal(result.test['ici'], expected.ici);
  const after = result.calibrators['temperature']!.test;
  assert.equal(typeof after['prr'], 'number');
  assert.equal(typeof after['ici'], 'number');
  const written = JSON.parse(readFileSync(join(r.dir, 'posthoc.json'), 'utf8')) as { test: Record<string, number> };
  assert.equal(written.test['ici'], expected.ici);
  // Without metrics the keys are absent (posthoc.json as before).
  const plain = await runPosthoc(r.dir, ['temperature'], 15);
  assert.ok(!('prr' in plain.test));
});

test('the post-hoc identity names the opt-in metrics only when there are some; a change asks for a refit', () => {
  const before = posthocIdentity('h', ['temperature'], 15);
  assert.ok(!('metrics' in before), 'identities of suites without metrics are unchanged');
  const now = posthocIdentity('h', ['temperature'], 15, ['prr']);
  assert.deepEqual(posthocChanges(before, now), ['opt-in metrics none → prr']);
  assert.deepEqual(posthocChanges(now, now), []);
});

test('suite tables render a named metric before and after each calibrator, with its label, unit and best mark', () => {
  const cols = tableColumns(['temperature'], false, false, ['prr', 'auarc', 'calibration_slope']);
  assert.deepEqual(
    cols.slice(-6).map((c) => c.label),
    ['PRR', 'PRR after TS', 'AUARC (%)', 'AUARC after TS (%)', 'Calibration slope', 'Calibration slope after TS'],
  );
  assert.deepEqual(
    cols.slice(-6).map((c) => c.key),
    ['prr', 'prr@temperature', 'auarc', 'auarc@temperature', 'calibration_slope', 'calibration_slope@temperature'],
  );
  assert.equal(cols.at(-6)!.better, 'higher');
  assert.equal(cols.at(-1)!.better, undefined, 'a target value (slope 1) has no best mark');
  const prr = cols.slice(-6, -5);
  const table = buildTable(
    'mnist · mlp',
    prr,
    [
      { method: 'ce', label: 'CE', seeds: 2, values: [[0.3, 0.5]] },
      { method: 'ls', label: 'LS', seeds: 2, values: [[0.2, 0.2]] },
    ],
    'std',
  );
  assert.equal(table.rows[0]!.cells[0]!.text, '0.400 ± 0.141');
  assert.equal(table.rows[0]!.cells[0]!.best, true);
  assert.equal(table.rows[1]!.cells[0]!.best, false);
});
