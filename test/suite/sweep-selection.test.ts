import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseSweepValue, selectionRuleText } from '../../src/suite/report/sweep-selection.js';
import { sampleStd, spreadOf, standardError } from '../../src/suite/report/statistics.js';
import { parseSuite } from '../../src/suite/suite-schema.js';

const c = (accuracy: number, ece: number, nll: number) => ({ accuracy, ece, nll });

test('sweep values are chosen by lowest validation NLL, lowest ECE, highest accuracy, or lowest ECE within 1 % of the best accuracy', () => {
  const values = [c(0.90, 0.050, 0.40), c(0.895, 0.020, 0.45), c(0.85, 0.005, 0.30), c(0.80, 0.001, 0.60)];
  assert.equal(chooseSweepValue(values, 'nll'), 2);
  assert.equal(chooseSweepValue(values, 'ece'), 3);
  assert.equal(chooseSweepValue(values, 'accuracy'), 0);
  assert.equal(chooseSweepValue([c(0.8, 0, 0), c(0.9, 1, 1), c(Number.NaN, 0, 0), c(0.9, 0, 0)], 'accuracy'), 1, 'highest accuracy; ties keep the first; NaN never wins');
  // Best accuracy 0.90: 0.99 × 0.90 = 0.891, so values 0 and 1 are eligible; value 1 has the lower ECE.
  assert.equal(chooseSweepValue(values, 'ece-near-best-accuracy'), 1);
  // Exactly at the boundary is eligible; just below is not.
  assert.equal(chooseSweepValue([c(1, 0.5, 1), c(0.99, 0.1, 1)], 'ece-near-best-accuracy'), 1);
  assert.equal(chooseSweepValue([c(1, 0.5, 1), c(0.9899, 0.1, 1)], 'ece-near-best-accuracy'), 0);
  // Ties keep the first value; NaN never wins over a number.
  assert.equal(chooseSweepValue([c(0.9, 0.1, 1), c(0.9, 0.1, 1)], 'ece'), 0);
  assert.equal(chooseSweepValue([c(0.9, Number.NaN, 1), c(0.9, 0.3, 1)], 'ece'), 1);
  assert.equal(chooseSweepValue([], 'nll'), -1);
  assert.match(selectionRuleText('ece-near-best-accuracy'), /within 1 % \(relative\) of the best mean validation accuracy/);
  assert.equal(selectionRuleText('nll'), 'lowest mean validation NLL');
  assert.equal(selectionRuleText('accuracy'), 'highest mean validation accuracy');
});

test('spread over seeds: std (n − 1) or its standard error std/√n', () => {
  const v = [1, 2, 4];
  // mean 7/3; squared deviations 16/9 + 1/9 + 25/9 = 42/9; / (n − 1) = 7/3.
  assert.ok(Math.abs(sampleStd(v) - Math.sqrt(7 / 3)) < 1e-15);
  assert.ok(Math.abs(standardError(v) - Math.sqrt(7 / 3) / Math.sqrt(3)) < 1e-15);
  assert.equal(spreadOf(v, 'sem'), standardError(v));
  assert.equal(spreadOf(v, 'std'), sampleStd(v));
  assert.ok(Number.isNaN(spreadOf([1], 'sem')));
  const suite = { name: 's', base: { dataset: 'mnist' }, methods: [{ name: 'ce' }] };
  assert.equal(parseSuite(structuredClone(suite), 's').spread, 'std');
  assert.equal(parseSuite({ ...structuredClone(suite), spread: 'sem', select: 'ece-near-best-accuracy' }, 's').spread, 'sem');
  assert.throws(() => parseSuite({ ...structuredClone(suite), spread: 'var' }, 's'), /s\.spread: expected one of 'std', 'sem', got "var"/);
});
