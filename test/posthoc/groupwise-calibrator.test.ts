import { test } from 'node:test';
import assert from 'node:assert/strict';
import { syntheticOverconfident } from '../../src/data/synthetic.js';
import { calibratorFromJSON, fitCalibrator, fitGroupwise, groupwiseFromJSON, predictionRows, type Calibrator, type CalibratorKind, type Predictions } from '../../src/posthoc/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';

// 3 classes, 240 rows; groups by row: 'a' (i % 4 = 0, 1: 120 rows), 'b' (i % 4 = 2: 60), 'c' (i % 4 = 3 and i < 40: 10),
// 'd' (i % 4 = 3 and i ≥ 40: 50). The logits of group 'b' are scaled by 3 so that its temperature differs.
const N = 240;
const C = 3;
const set = syntheticOverconfident({ n: N, classes: C, seed: 7 });
const groupOf = (i: number): string => (i % 4 < 2 ? 'a' : i % 4 === 2 ? 'b' : i < 40 ? 'c' : 'd');
const GROUPS = Array.from({ length: N }, (_, i) => groupOf(i));
const logits = Float64Array.from(set.logits, (v, j) => (groupOf(Math.floor(j / C)) === 'b' ? 3 * v : v));
const input: Predictions = { logits: { rows: N, cols: C, data: logits } };
const labels = Int32Array.from(set.labels);
const rowsOf = (id: string): number[] => GROUPS.flatMap((g, i) => (g === id ? [i] : []));

function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  assert.equal(a.length, b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}

for (const method of ['temperature', 'vector', 'histogram'] as CalibratorKind[]) {
  test(`fitGroupwise(${method}): each group's calibrator and its rows' output equal a plain fit on the group's rows; small groups use the pooled fit`, () => {
    const gw = fitGroupwise(method, input, labels, GROUPS);
    assert.deepEqual(
      gw.groups.map((g) => [g.id, g.rows, g.calibrator !== null]),
      [
        ['a', 120, true],
        ['b', 60, true],
        ['c', 10, false],
        ['d', 50, true],
      ],
    );
    const out = gw.apply(input, GROUPS);
    const pooled = fitCalibrator(method, input, labels);
    assert.deepEqual(gw.pooled.toJSON(), pooled.toJSON());
    for (const id of ['a', 'b', 'c', 'd']) {
      const rows = rowsOf(id);
      const own: Calibrator =
        id === 'c'
          ? pooled
          : fitCalibrator(
              method,
              predictionRows(input, rows),
              Int32Array.from(rows, (i) => labels[i]!),
            );
      const member = gw.groups.find((g) => g.id === id)!.calibrator;
      if (member) assert.deepEqual(member.toJSON(), own.toJSON(), id);
      const expected = own.apply(predictionRows(input, rows)).data;
      const got = rows.flatMap((i) => Array.from(out.data.subarray(i * C, (i + 1) * C)));
      assert.ok(maxAbsDiff(got, expected) <= 1e-12, `${method} group ${id}`);
    }
  });
}

test('fitGroupwise: the temperature of a group with scaled logits is the plain fit on that group (and differs from the pooled one)', () => {
  const gw = fitGroupwise('temperature', input, labels, GROUPS);
  const tB = gw.groups.find((g) => g.id === 'b')!.calibrator!.toJSON()['temperature'] as number;
  const rows = rowsOf('b');
  const plain = fitCalibrator(
    'temperature',
    predictionRows(input, rows),
    Int32Array.from(rows, (i) => labels[i]!),
  ).toJSON()['temperature'] as number;
  assert.ok(Math.abs(tB - plain) <= 1e-12 * plain);
  assert.ok(Math.abs(tB - (gw.pooled.toJSON()['temperature'] as number)) > 0.1);
});

test('GroupwiseCalibrator: minGroupSize moves groups to the pooled calibrator; unseen groups are pooled and counted', () => {
  const gw = fitGroupwise('temperature', input, labels, GROUPS, undefined, { minGroupSize: 55 });
  assert.deepEqual(
    gw.groups.map((g) => [g.id, g.calibrator !== null]),
    [
      ['a', true],
      ['b', true],
      ['c', false],
      ['d', false],
    ],
  );
  const test = ['a', 'd', 'zz', 'c', 'zz', 'yy', 'b'];
  const routing = gw.route(test);
  assert.deepEqual(Array.from(routing.member), [0, -1, -1, -1, -1, -1, 1]);
  assert.deepEqual([routing.ownRows, routing.smallGroupRows, routing.unseenRows, routing.unseenGroups], [2, 2, 3, ['zz', 'yy']]);
  const x: Predictions = predictionRows(input, [0, 1, 2, 3, 4, 5, 6]);
  const out = gw.apply(x, test);
  const pooled = gw.pooled.apply(x).data;
  for (const i of [1, 2, 3, 4, 5]) assert.deepEqual(Array.from(out.data.subarray(i * C, (i + 1) * C)), Array.from(pooled.subarray(i * C, (i + 1) * C)));
  // Numeric ids are compared as their decimal strings (as calib eval --groups reads .npy ids).
  const numeric = fitGroupwise(
    'temperature',
    input,
    labels,
    GROUPS.map((g) => 'abcd'.indexOf(g)),
  );
  assert.deepEqual(
    numeric.groups.map((g) => g.id),
    ['0', '1', '2', '3'],
  );
  assert.deepEqual(Array.from(numeric.apply(x, [0, 0, 1, 3, 0, 0, 1]).data), Array.from(numeric.apply(x, ['0', '0', '1', '3', '0', '0', '1']).data));
});

test('GroupwiseCalibrator: JSON round trip bit for bit; unknown keys, mismatched members and plain readers refused', () => {
  const gw = fitGroupwise('vector', input, labels, GROUPS);
  const json = JSON.parse(JSON.stringify(gw.toJSON()));
  const back = groupwiseFromJSON(json);
  assert.deepEqual(back.toJSON(), gw.toJSON());
  assert.deepEqual(Array.from(back.apply(input, GROUPS).data), Array.from(gw.apply(input, GROUPS).data));
  assert.deepEqual(Array.from(back.applyLogits(input, GROUPS).data), Array.from(gw.applyLogits(input, GROUPS).data));
  const refused = (mutate: (j: any) => void, pattern: RegExp) => {
    const j = JSON.parse(JSON.stringify(gw.toJSON()));
    mutate(j);
    assert.throws(
      () => groupwiseFromJSON(j),
      (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message),
    );
  };
  refused((j) => (j.extra = 1), /json\.extra/);
  refused((j) => (j.settings.extra = 1), /json\.settings\.extra/);
  refused((j) => (j.groups[0].extra = 1), /json\.groups\[0\]\.extra/);
  refused((j) => (j.groups[0].calibrator.temprature = 2), /json\.groups\[0\]\.calibrator/);
  refused((j) => (j.groups[2].calibrator = j.pooled), /json\.groups\[2\]\.calibrator.*null/);
  refused((j) => (j.groups[0].calibrator = null), /json\.groups\[0\]\.calibrator/);
  refused((j) => (j.groups[1].id = 'a'), /distinct group ids/);
  refused((j) => (j.settings.method = 'temperature'), /json\.pooled\.kind/);
  refused((j) => (j.groups = []), /json\.groups/);
  refused((j) => (j.classes = 4), /classes/);
  // The plain reader refuses it, naming why (a group id per row is needed).
  assert.throws(() => calibratorFromJSON(gw.toJSON()), /json\.kind.*group id per row/);
});

test('fitGroupwise / apply: bad input names the argument', () => {
  assert.throws(() => fitGroupwise('temperature', input, labels, GROUPS.slice(1)), /groups: expected 240 group ids/);
  assert.throws(() => fitGroupwise('temperature', input, labels, GROUPS, undefined, { minGroupSize: 0 }), /minGroupSize/);
  assert.throws(() => fitGroupwise('nope' as CalibratorKind, input, labels, GROUPS), /method/);
  const gw = fitGroupwise('temperature', input, labels, GROUPS);
  assert.throws(() => gw.apply(input, GROUPS.slice(3), '--groups'), /--groups: expected 240 group ids/);
  assert.throws(() => gw.apply(input, [...GROUPS.slice(1), null as unknown as string], '--groups'), /--groups: expected a group id \(string or number\) per row, got null at row 239/);
  const histogram = fitGroupwise('histogram', input, labels, GROUPS);
  assert.equal(histogram.hasLogits, false);
  assert.throws(() => histogram.applyLogits(input, GROUPS), /calibrated logits/);
});
