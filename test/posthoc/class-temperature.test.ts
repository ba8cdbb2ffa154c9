import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classTemperatureFromJSON, fitClassTemperature } from '../../src/posthoc/temperature/class-temperature.js';
import { calibratorFromJSON, fitCalibrator } from '../../src/posthoc/registry.js';
import { assertClose, assertProbabilityRows, loadCalibrators12Reference, mat, naiveSoftmax, rowsToMatrix } from './helpers.js';

test('class-wise temperature: the temperatures minimise the NLL (scipy L-BFGS-B reference on the same objective)', () => {
  const ref = loadCalibrators12Reference().class_temperature;
  const logits = rowsToMatrix(ref.logits);
  const cal = fitClassTemperature({ logits }, Int32Array.from(ref.labels));
  assertClose(cal.temperatures, ref.temperatures, 0, 1e-6, 'T');
  // apply = softmax(z_k / T_k), computed naively.
  const scaled = logits.data.map((z, i) => z / ref.temperatures[i % 4]);
  assertClose(cal.apply({ logits }).data, naiveSoftmax(scaled, logits.rows, 4), 1e-7, 0, 'apply');
});

test('class-wise temperature with equal per-class structure reduces to one temperature, and round-trips through JSON', () => {
  // Every (row, label) appears with all 3 cyclic shifts of its columns (label shifted too) → all T_k equal.
  const base: [number[], number][] = [
    [[3, 1, -1], 0],
    [[3, 1, -1], 1],
    [[0.5, 2, -2], 0],
    [[0.5, 2, -2], 2],
  ];
  const rows: number[] = [];
  const labels: number[] = [];
  for (let shift = 0; shift < 3; shift++) {
    for (const [row, label] of base) {
      for (let k = 0; k < 3; k++) rows.push(row[(k - shift + 3) % 3]!);
      labels.push((label + shift) % 3);
    }
  }
  const input = { logits: mat(12, 3, rows) };
  const cal = fitCalibrator('class-temperature', input, Int32Array.from(labels));
  const t = cal.toJSON().temperatures as number[];
  assertClose(t, [t[0]!, t[0]!, t[0]!], 1e-7, 0, 'equal T');
  const back = calibratorFromJSON(JSON.parse(JSON.stringify(cal.toJSON())));
  assert.deepEqual(back.apply(input).data, cal.apply(input).data);
  assertProbabilityRows(cal.apply(input));
});

test('class-wise temperature rejects non-positive temperatures in JSON and survives logits of magnitude 1e3', () => {
  const json = { kind: 'class-temperature', version: { format: 1, calibkit: '0.1.0' }, classes: 2, settings: {}, temperatures: [1, -1] };
  assert.throws(() => classTemperatureFromJSON(json), /json\.temperatures\[1\]/);
  const cal = classTemperatureFromJSON({ ...json, temperatures: [2, 0.5] });
  const out = cal.apply({ logits: mat(1, 2, [1000, -1000]) });
  assert.deepEqual(Array.from(out.data), [1, 0]);
});
