import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  accumulateParallel,
  CalibrationAccumulator,
  evaluate,
  METRIC_NAMES,
  METRICS,
  TopLabelAccumulator,
  TOP_LABEL_METRICS,
  type CalibrationOptions,
  type MetricDefinition,
} from '../../src/metrics/index.js';
import { Random } from '../../src/util/random.js';
import { randomProbabilities, sampleLabels } from './helpers.js';

/**
 * Every metric declared in metric-registry.ts, whatever it is, gets these checks: a well-formed declaration,
 * merges and worker threads equal to one update bit for bit, and state round trips. A new metric added to
 * `METRICS` is covered without editing this file.
 */

const RESERVED = new Set(['input', 'marginalBinning', 'marginalDebias', 'classes', 'top', 'classwise']);
const SHAPE = { classes: 5, input: 'probabilities', bins: 15, convention: '(l,u]', adaptive: 'equal-mass', marginalDebias: true } as const;

test('every metric declares a unique snake_case key, a label, a description and state fields no other metric uses', () => {
  const keys = new Set<string>();
  const fields = new Set<string>();
  assert.deepEqual(
    METRIC_NAMES,
    METRICS.map((m) => m.key),
  );
  for (const metric of METRICS as readonly MetricDefinition[]) {
    assert.match(metric.key, /^[a-z][a-z0-9_]*$/, metric.key);
    assert.ok(!keys.has(metric.key), `duplicate key ${metric.key}`);
    keys.add(metric.key);
    assert.ok(metric.label.length > 0 && metric.description.length > 0, metric.key);
    for (const marginalBinning of ['equal-width', 'equal-mass'] as const) {
      const spec = metric.state?.({ ...SHAPE, marginalBinning, refinementCalibrator: 'temperature' }) ?? {};
      for (const name of Object.keys(spec)) {
        assert.ok(!RESERVED.has(name), `${metric.key}: state field ${name} clashes with the accumulator's own keys`);
        assert.ok(marginalBinning === 'equal-mass' || !fields.has(name), `${metric.key}: state field ${name} is declared twice`);
        fields.add(name);
      }
      if (Object.keys(spec).length > 0) assert.ok(metric.update, `${metric.key} declares state but no update`);
    }
  }
  assert.deepEqual(
    TOP_LABEL_METRICS.map((m) => m.key),
    METRICS.filter((m: MetricDefinition) => m.scope === 'top-label').map((m) => m.key),
  );
});

const OPTION_SETS: CalibrationOptions[] = [
  { input: 'probabilities' },
  { input: 'probabilities', marginalBinning: 'equal-mass', bins: 10, convention: '[l,u)' },
  { input: 'logits', marginalBinning: 'equal-mass', adaptive: 'interp' },
];

function data(seed: number, n: number, c: number, logits: boolean): { data: Float64Array; labels: Int32Array } {
  const rng = new Random(seed);
  const p = randomProbabilities(rng, n, c, 2);
  const labels = sampleLabels(rng, p, n, c, 0.3);
  return { data: logits ? p.map((v) => 2 * Math.log(v)) : p, labels };
}

test('for every metric: three merged chunks, a state round trip and worker threads equal one update bit for bit', async () => {
  const n = 2400;
  const c = 5;
  for (const options of OPTION_SETS) {
    const { data: values, labels } = data(3, n, c, options.input === 'logits');
    const whole = evaluate({ rows: n, cols: c, data: values }, labels, options);
    const cuts = [0, 700, 1900, n];
    const merged = new CalibrationAccumulator(options);
    for (let j = 0; j < 3; j++) {
      const part = new CalibrationAccumulator(options).update(
        { rows: cuts[j + 1]! - cuts[j]!, cols: c, data: values.subarray(cuts[j]! * c, cuts[j + 1]! * c) },
        labels.subarray(cuts[j]!, cuts[j + 1]!),
      );
      merged.merge(CalibrationAccumulator.fromState(structuredClone(part.toState())));
    }
    const parallel = await accumulateParallel({ rows: n, cols: c, data: values }, labels, { ...options, threads: 3, minParallelRows: 0 });
    for (const name of METRIC_NAMES) {
      assert.ok(Object.is(merged.compute()[name], whole[name]), `${name} merged (${options.input}, ${options.marginalBinning})`);
      assert.ok(Object.is(parallel.compute()[name], whole[name]), `${name} parallel (${options.input}, ${options.marginalBinning})`);
    }
  }
});

test('a chunk that fails validation leaves every metric state unchanged', () => {
  const c = 4;
  const { data: values, labels } = data(5, 600, c, false);
  const acc = new CalibrationAccumulator({ input: 'probabilities', marginalBinning: 'equal-mass' }).update({ rows: 300, cols: c, data: values.subarray(0, 1200) }, labels.subarray(0, 300));
  const before = acc.toState();
  const bad = values.slice(1200);
  bad[4 * 250] = -0.5; // row 250 of the second chunk is invalid (a large chunk: validated inside the kernel)
  assert.throws(() => acc.update({ rows: 300, cols: c, data: bad }, labels.subarray(300)), /at row 550/);
  assert.deepEqual(acc.toState(), before);
});

test('the top-label accumulator reports exactly the top-label metrics, equal to the full accumulator', () => {
  const c = 3;
  const { data: values, labels } = data(7, 500, c, false);
  const full = evaluate({ rows: 500, cols: c, data: values }, labels, { input: 'probabilities' });
  const top = new TopLabelAccumulator();
  const confidence = new Float64Array(500);
  const correct = new Uint8Array(500);
  for (let i = 0; i < 500; i++) {
    const row = values.subarray(i * c, (i + 1) * c);
    const arg = row.indexOf(Math.max(...row));
    confidence[i] = row[arg]!;
    correct[i] = arg === labels[i] ? 1 : 0;
  }
  top.update(confidence, correct);
  const metrics = top.compute() as unknown as Record<string, number>;
  for (const m of TOP_LABEL_METRICS) assert.ok(Object.is(metrics[m.key], (full as unknown as Record<string, number>)[m.key]), m.key);
  assert.deepEqual(Object.keys(metrics).sort(), [...TOP_LABEL_METRICS.map((m) => m.key), 'n', 'ece_lb_p', 'adaptive_binning', 'sweep_bins'].sort());
});
