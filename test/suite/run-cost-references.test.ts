import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { DEEP, DEEP_TRAIN_IMAGES } from '../../src/suite/papers/scales.js';
import { costClass } from '../../src/suite/estimate/run-cost-class.js';
import { RUN_COST_REFERENCES } from '../../src/suite/estimate/run-cost-references.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';

interface PilotCost {
  setting: string;
  model: string;
  width: number;
  train: number;
  validation: number;
  epochs: number;
  batch: number;
  threads: number;
  seconds_per_epoch: number;
  overhead_epochs: number;
}
const pilot = JSON.parse(readFileSync(new URL('../../../docs/reproductions/deep-scale-pilot.json', import.meta.url), 'utf8')) as {
  chosen: string | null;
  provisional: string | null;
  reference_costs: PilotCost[];
};

test('every measured cost reference is a row of the committed pilot (docs/reproductions/deep-scale-pilot.json), to 3 significant digits', () => {
  assert.ok(RUN_COST_REFERENCES.length > 0);
  for (const ref of RUN_COST_REFERENCES) {
    const row = pilot.reference_costs.find(
      (r) =>
        r.model === ref.cost.model &&
        JSON.stringify({ width: r.width }) === ref.cost.modelOptions &&
        r.train === ref.cost.trainImages &&
        r.validation === ref.cost.validation &&
        r.batch === ref.cost.batch &&
        r.threads === ref.cost.threads,
    );
    assert.ok(row, `a pilot row for ${JSON.stringify(ref.cost)}`);
    assert.equal(ref.secondsPerEpoch, Number(row.seconds_per_epoch.toPrecision(3)), `${row.setting}: seconds per epoch`);
    assert.equal(ref.overheadEpochs, Number(row.overhead_epochs.toPrecision(3)), `${row.setting}: overhead epochs`);
    assert.equal(ref.cost.dataset, 'fashion-mnist');
  }
});

test("the deep scale is the pilot's chosen setting (provisional until a second CE seed passes), and a deep run's cost class has a measured reference", () => {
  assert.equal(pilot.chosen ?? pilot.provisional, `resnet8-w${DEEP.modelOptions!['width']}-n${DEEP_TRAIN_IMAGES}-e${DEEP.epochs}`);
  const config = resolveTrainConfig({ ...DEEP, out: 'x' });
  const one = costClass(config, 1);
  assert.ok(
    RUN_COST_REFERENCES.some((r) => JSON.stringify(r.cost) === JSON.stringify(one)),
    'a reference for one thread per run',
  );
});
