import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { writeNpy } from '../../src/io/npy.js';
import { tempDir } from '../io/temp-dir.js';

/**
 * Issue 27's done-when "a metric added once appears in calib eval, reports, suite tables, selection rules and
 * weighted evaluation", checked by adding one: a child process loads the toolkit with a module hook that appends a
 * throwaway metric definition (declared in a file of this test, nowhere in src/) to the `METRICS` list of
 * metric-registry.js as it is loaded — the one line a contributor would add — and reports what the five consumers
 * then show. The metric is the top-label calibration gap |mean confidence − accuracy|, lower is better, with a
 * weighted form; its expected values are computed here from the logits.
 */

const dir = tempDir('metric-added-once');
const dist = fileURLToPath(new URL('../../', import.meta.url));
const exec = promisify(execFile);

const THROWAWAY = `
export const throwawayGap = {
  key: 'throwaway_gap',
  label: 'throwaway gap (%)',
  short: 'Throwaway gap',
  percent: true,
  better: 'lower',
  scope: 'top-label',
  description: 'test only: |mean confidence - accuracy|',
  compute: (context) => Math.abs(context.top.confidenceSum() - context.top.correctCount()) / context.n,
  weighted: { scope: 'top-label', compute: (w) => Math.abs(w.mean(w.confidence) - w.mean(w.correct)) },
};
`;

/** Appends `throwawayGap` to the METRICS array of metric-registry.js when it is loaded. */
const HOOKS = `
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!url.endsWith('/src/metrics/record/metric-registry.js')) return result;
  const source = Buffer.from(result.source).toString('utf8');
  const patched = source.replace(/(export const METRICS = \\[[\\s\\S]*?)(\\n\\];)/, '$1\\n    throwawayGap,$2');
  if (patched === source) throw new Error('metric-added-once: METRICS array not found in metric-registry.js');
  return { ...result, source: 'import { throwawayGap } from ' + JSON.stringify(new URL('./throwaway-metric.mjs', import.meta.url).href) + ';\\n' + patched };
}
`;

const REGISTER = `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`;

/** What each consumer shows of the metric (run in the child). */
const CHECK = (d: string) => `
const at = (p) => import(${JSON.stringify(pathToFileURL(d).href)} + p);
const { run } = await at('test/cli/capture.js');
const { metricTable } = await at('src/report/metric-table.js');
const { metricColumn } = await at('src/suite/report/suite-table.js');
const { SELECTION_RULES } = await at('src/suite/suite-schema.js');
const { chooseSweepValue, selectionRuleText } = await at('src/suite/report/sweep-selection.js');
const { SELECTION_METRICS, BestEpoch } = await at('src/train/run/best-epoch.js');
const { evaluateWeighted, WEIGHTED_METRIC_NAMES } = await at('src/metrics/weighted/weighted-evaluate.js');
const { readNpy } = await at('src/io/npy.js');
const [z, y, w] = process.argv.slice(2);
const evalJson = JSON.parse((await run(['eval', '--logits', z, '--labels', y, '--json'])).stdout);
const evalTable = (await run(['eval', '--logits', z, '--labels', y])).stdout;
const weightedJson = JSON.parse((await run(['eval', '--logits', z, '--labels', y, '--weights', w, '--json'])).stdout);
const report = metricTable([{ name: 'a', metrics: { throwaway_gap: 0.2 } }, { name: 'b', metrics: { throwaway_gap: 0.1 } }]);
const logits = await readNpy(z);
const labels = await readNpy(y);
const weights = await readNpy(w);
const [n, c] = logits.shape;
const weighted = evaluateWeighted({ rows: n, cols: c, data: logits.data }, Int32Array.from(labels.data), weights.data, { input: 'logits' });
console.log(JSON.stringify({
  evalJson: evalJson.throwaway_gap ?? evalJson.metrics?.throwaway_gap ?? null,
  evalTable: evalTable.split('\\n').filter((l) => l.includes('throwaway gap')),
  weightedCli: weightedJson.throwaway_gap ?? weightedJson.metrics?.throwaway_gap ?? weightedJson.weighted?.throwaway_gap ?? null,
  weightedCliKeys: Object.keys(weightedJson),
  report: { label: report.columns[0].label, better: report.columns[0].better, best: report.rows.map((r) => r.cells[0].best) },
  suiteColumn: metricColumn('throwaway_gap', { after: 'temperature' }),
  sweepRule: SELECTION_RULES.includes('throwaway_gap'),
  sweepText: selectionRuleText('throwaway_gap'),
  sweepChoice: chooseSweepValue([{ accuracy: 0.9, score: 0.2 }, { accuracy: 0.9, score: 0.1 }], 'throwaway_gap'),
  trainSelect: SELECTION_METRICS.includes('throwaway_gap'),
  trainMaximize: new BestEpoch('throwaway_gap').maximize,
  weightedNames: WEIGHTED_METRIC_NAMES.includes('throwaway_gap'),
  weightedValue: weighted.values.throwaway_gap ?? null,
}));
`;

test('a metric definition added once to METRICS reaches calib eval, reports, suite tables, selection rules and weighted evaluation', async () => {
  const n = 50;
  const k = 3;
  const logits = Float32Array.from({ length: n * k }, (_, i) => 2.5 * Math.sin(1.3 * i + 0.2));
  const labels = Int32Array.from({ length: n }, (_, i) => (i * 5) % k);
  const weights = Float64Array.from({ length: n }, (_, i) => 1 + (i % 4));
  // Expected values, from the logits: top-label confidence max softmax and correctness per row.
  let conf = 0;
  let acc = 0;
  let wConf = 0;
  let wAcc = 0;
  let wSum = 0;
  for (let i = 0; i < n; i++) {
    const row = Array.from(logits.subarray(i * k, (i + 1) * k));
    const m = Math.max(...row);
    const s = row.reduce((a, z) => a + Math.exp(z - m), 0);
    const c = 1 / s;
    const a = row.indexOf(m) === labels[i] ? 1 : 0;
    conf += c;
    acc += a;
    wConf += weights[i]! * c;
    wAcc += weights[i]! * a;
    wSum += weights[i]!;
  }
  const gap = Math.abs(conf - acc) / n;
  const weightedGap = Math.abs(wConf / wSum - wAcc / wSum);
  await writeNpy(join(dir, 'z.npy'), logits, [n, k]);
  await writeNpy(join(dir, 'y.npy'), labels, [n]);
  await writeNpy(join(dir, 'w.npy'), weights, [n]);
  writeFileSync(join(dir, 'throwaway-metric.mjs'), THROWAWAY);
  writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
  writeFileSync(join(dir, 'register.mjs'), REGISTER);
  writeFileSync(join(dir, 'check.mjs'), CHECK(dist));
  const { stdout } = await exec(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, join(dir, 'check.mjs'), join(dir, 'z.npy'), join(dir, 'y.npy'), join(dir, 'w.npy')]);
  const seen = JSON.parse(stdout) as Record<string, unknown>;
  // 1. calib eval: the --json key and the table row with its label.
  assert.ok(Math.abs((seen['evalJson'] as number) - gap) <= 1e-12, `calib eval --json: ${seen['evalJson']} vs ${gap}`);
  assert.equal((seen['evalTable'] as string[]).length, 1, 'calib eval table row');
  // 2. reports: a column with the record's header and direction, best cell marked.
  assert.deepEqual(seen['report'], { label: 'Throwaway gap (%)', better: 'lower', best: [false, true] });
  // 3. suite tables: a column after a post-hoc method, with unit and direction.
  assert.deepEqual(seen['suiteColumn'], { key: 'throwaway_gap@temperature', label: 'Throwaway gap after TS (%)', metric: 'throwaway_gap', after: 'temperature', percent: true, better: 'lower' });
  // 4. selection rules: a suite sweep rule and a calib train --select criterion, both minimising.
  assert.equal(seen['sweepRule'], true);
  assert.equal(seen['sweepText'], 'lowest mean validation Throwaway gap');
  assert.equal(seen['sweepChoice'], 1);
  assert.equal(seen['trainSelect'], true);
  assert.equal(seen['trainMaximize'], false);
  // 5. weighted evaluation: in the weighted list, computed by evaluateWeighted and by calib eval --weights.
  assert.equal(seen['weightedNames'], true);
  assert.ok(Math.abs((seen['weightedValue'] as number) - weightedGap) <= 1e-12, `evaluateWeighted: ${seen['weightedValue']} vs ${weightedGap}`);
  assert.ok(Math.abs((seen['weightedCli'] as number) - weightedGap) <= 1e-12, `calib eval --weights: ${JSON.stringify(seen['weightedCliKeys'])} ${seen['weightedCli']}`);
});
