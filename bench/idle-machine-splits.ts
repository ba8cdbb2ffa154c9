/**
 * The deep scale's data splits as .npy files for the PyTorch side of bench/idle-machine.sh: calibkit's own
 * class-stratified subset of TRAIN + 5,000 images and its 5,000-image validation hold-out (src/train/run/trainer-data.ts,
 * fixed split seed), and the test split, loaded from a Fashion-MNIST directory — so that bench/deep_scale_pilot_torch.py
 * trains on exactly the images `calib train` does. (bench/deep-scale-pilot.ts writes the same files, from the default
 * data location only.) A directory that already holds test-labels.npy is left as it is.
 *
 * Run: node dist/bench/idle-machine-splits.js --data DIR --train N --out DIR
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { writeNpy } from '../src/io/npy.js';
import { resolveTrainConfig } from '../src/train/train-config.js';
import { loadRunData } from '../src/train/run/trainer-data.js';

/** The deep scale's validation images (src/suite/papers/scales.ts DEEP). */
const VALIDATION = 5000;

const { values } = parseArgs({ options: { data: { type: 'string' }, train: { type: 'string' }, out: { type: 'string' } } });
if (!values.data || !values.train || !values.out) {
  process.stderr.write('usage: node dist/bench/idle-machine-splits.js --data DIR --train N --out DIR\n');
  process.exit(2);
}
if (!existsSync(join(values.out, 'test-labels.npy'))) {
  mkdirSync(values.out, { recursive: true });
  const train = Number(values.train);
  const config = resolveTrainConfig({ dataset: 'fashion-mnist', datasetOptions: { directory: values.data }, subset: train + VALIDATION, validation: VALIDATION, out: values.out });
  const data = await loadRunData(config);
  for (const [name, d] of [
    ['train', data.train],
    ['val', data.validation],
    ['test', data.test],
  ] as const) {
    if (d.kind !== 'image') throw new Error('image data expected');
    await writeNpy(join(values.out, `${name}-images.npy`), d.images, [d.labels.length, ...d.shape]);
    await writeNpy(join(values.out, `${name}-labels.npy`), d.labels, [d.labels.length]);
  }
}
process.stdout.write(`${JSON.stringify({ splits: values.out })}\n`);
