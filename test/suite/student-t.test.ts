import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { regularizedIncompleteBeta, studentTCdf, studentTQuantile, studentTTwoSided } from '../../src/suite/report/student-t.js';
import { minimumDetectableEffect, outsideMarginP, tInterval, tostP, tTestP } from '../../src/suite/report/statistics.js';

/** SciPy's values (test/fixtures/scripts/make-student-t-fixtures.py). */
const REF = JSON.parse(readFileSync(new URL('../../../test/fixtures/statistics/student-t-reference.json', import.meta.url), 'utf8')) as {
  cdf: { df: number; t: number; cdf: number }[];
  ppf: { df: number; p: number; ppf: number }[];
  tests: { values: number[]; margin: number; p_two_sided: number; p_tost: number; ci95: [number, number]; ci90: [number, number]; mde: number }[];
};

const close = (got: number, want: number, rel: number, what: string): void => assert.ok(Math.abs(got - want) <= rel * Math.max(Math.abs(want), 1e-300), `${what}: ${got} vs ${want}`);

test('the Student-t CDF matches SciPy to 1e-12 relative (both tails, 1 to 1000 degrees of freedom)', () => {
  assert.ok(REF.cdf.length > 100);
  for (const r of REF.cdf) close(studentTCdf(r.t, r.df), r.cdf, 1e-12, `cdf(${r.t}, ${r.df})`);
});

// SciPy's t.ppf is itself accurate to about 1e-9 (its CDF at its ppf(0.8, 3) is 0.79999999989), while the CDF above
// agrees with SciPy's to 1e-12: quantiles (and the intervals built on them) are compared at 1e-8 relative, and each
// quantile is checked to invert the CDF to 1e-12.
test('the Student-t quantile matches SciPy to 1e-8 relative and inverts the CDF', () => {
  for (const r of REF.ppf) {
    const q = studentTQuantile(r.p, r.df);
    close(q, r.ppf, 1e-8, `ppf(${r.p}, ${r.df})`);
    close(studentTCdf(q, r.df), r.p, 1e-12, `cdf(ppf(${r.p}, ${r.df}))`);
  }
  assert.ok(Number.isNaN(studentTQuantile(0, 3)) && Number.isNaN(studentTQuantile(0.5, 0)));
});

test('the incomplete beta function by hand: I_x(1, 1) = x, I_x(a, 1) = x^a, I_½(a, a) = ½, edges', () => {
  for (const x of [0.01, 0.3, 0.77]) {
    close(regularizedIncompleteBeta(x, 1, 1), x, 1e-14, 'I_x(1,1)');
    close(regularizedIncompleteBeta(x, 3.5, 1), x ** 3.5, 1e-13, 'I_x(3.5,1)');
  }
  close(regularizedIncompleteBeta(0.5, 7.25, 7.25), 0.5, 1e-13, 'I_½(a,a)');
  assert.equal(regularizedIncompleteBeta(0, 2, 3), 0);
  assert.equal(regularizedIncompleteBeta(1, 2, 3), 1);
  assert.ok(Number.isNaN(regularizedIncompleteBeta(1.5, 2, 3)));
  // t(1) is the Cauchy distribution: P(|T| ≥ t) = 1 − (2/π) atan t.
  close(studentTTwoSided(3, 1), 1 - (2 / Math.PI) * Math.atan(3), 1e-13, 'Cauchy tail');
  assert.equal(studentTTwoSided(Number.POSITIVE_INFINITY, 4), 0);
});

test('paired t: two-sided p, TOST p, 95 % / 90 % intervals and MDE match SciPy on sampled differences', () => {
  for (const r of REF.tests) {
    close(tTestP(r.values), r.p_two_sided, 1e-10, 'p');
    close(tostP(r.values, r.margin), r.p_tost, 1e-10, 'TOST p');
    const ci95 = tInterval(r.values);
    const ci90 = tInterval(r.values, 0.9);
    // Interval ends relative to the interval's width (an end near 0 is a difference of two larger numbers).
    const width = r.ci95[1] - r.ci95[0];
    for (const [got, want, what] of [
      [ci95.lower, r.ci95[0], 'ci95 lower'],
      [ci95.upper, r.ci95[1], 'ci95 upper'],
      [ci90.lower, r.ci90[0], 'ci90 lower'],
      [ci90.upper, r.ci90[1], 'ci90 upper'],
    ] as const) {
      assert.ok(Math.abs(got - want) <= 1e-8 * width, `${what}: ${got} vs ${want}`);
    }
    close(minimumDetectableEffect(r.values), r.mde, 1e-8, 'mde');
    // The interval and the test agree: 95 % interval excludes 0 ⇔ p < 0.05; 90 % inside ±margin ⇔ TOST p < 0.05;
    // 90 % wholly beyond a margin ⇔ the outside-margin p < 0.05.
    assert.equal(ci95.lower > 0 || ci95.upper < 0, tTestP(r.values) < 0.05);
    assert.equal(ci90.lower > -r.margin && ci90.upper < r.margin, tostP(r.values, r.margin) < 0.05);
    assert.equal(ci90.lower > r.margin || ci90.upper < -r.margin, outsideMarginP(r.values, r.margin) < 0.05);
  }
  // Differences without spread: a nonzero mean is certain (p = 0), a zero mean is not (p = 1).
  assert.equal(tTestP([0.01, 0.01, 0.01]), 0);
  assert.equal(tTestP([0, 0, 0]), 1);
  assert.ok(Number.isNaN(tTestP([0.1])));
});
