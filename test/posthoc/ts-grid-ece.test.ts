import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { fitTemperature } from '../../src/posthoc/temperature/temperature.js';
import { fitTsGridEce, tsGridEceFromJSON } from '../../src/posthoc/temperature/ts-grid-ece.js';
import { fitCalibrator } from '../../src/posthoc/registry.js';
import { naiveEce, naiveSoftmax, splits } from './helpers.js';

test('ts-grid-ece picks the grid temperature 0.1 … 10 with the lowest validation ECE, computed naively', () => {
  for (const [classes, tau] of [
    [5, 2.3],
    [3, 0.6],
  ] as const) {
    const { val } = splits(classes, 1500, tau);
    const cal = fitTsGridEce(val.input, val.labels);
    let best = Infinity;
    let bestT = NaN;
    for (let i = 1; i <= 100; i++) {
      const ece = naiveEce(naiveSoftmax(val.logits, 1500, classes, i / 10), val.labels, classes);
      if (ece < best - 1e-12) {
        best = ece;
        bestT = i / 10;
      }
    }
    assert.equal(cal.temperature, bestT, `τ = ${tau}`);
    assert.equal(cal.kind, 'ts-grid-ece');
    // the same fit as temperature with objective 'grid-ece'
    assert.equal(cal.temperature, fitTemperature(val.input, val.labels, { objective: 'grid-ece' }).temperature);
  }
});

test('an overconfident model gets T > 1 and an underconfident one T < 1', () => {
  assert.ok(fitTsGridEce(splits(4, 2000, 3).val.input, splits(4, 2000, 3).val.labels).temperature > 1);
  const under = splits(4, 2000, 0.4).val;
  assert.ok(fitTsGridEce(under.input, under.labels).temperature < 1);
});

test('the bins option reaches the ECE, the JSON round trip keeps T, and bad options name the argument', () => {
  const { val } = splits(5, 1500, 2.3);
  const cal = fitCalibrator('ts-grid-ece', val.input, val.labels, { bins: 10 });
  assert.deepEqual(cal.toJSON()['settings'], { bins: 10 });
  assert.equal(tsGridEceFromJSON(JSON.parse(JSON.stringify(cal.toJSON()))).temperature, cal.toJSON()['temperature']);
  assert.throws(() => fitTsGridEce(val.input, val.labels, { bins: 0 }), /ts-grid-ece options\.bins: expected/);
});

test('logits of magnitude 1e3 give a temperature of the grid and finite probabilities', () => {
  const { logits, labels } = syntheticOverconfident({ n: 1000, classes: 4, seed: 2, overconfidence: 150, separation: 2 });
  const cal = fitTsGridEce({ logits: { data: logits, rows: 1000, cols: 4 } }, labels);
  assert.ok(cal.temperature >= 0.1 && cal.temperature <= 10);
  const p = cal.apply({ logits: { data: logits, rows: 1000, cols: 4 } });
  assert.ok(p.data.every((v) => Number.isFinite(v) && v >= 0 && v <= 1));
});
