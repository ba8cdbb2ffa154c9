/**
 * Validation and test logits of a run's LAST epoch (checkpoint-last.ckpt), beside the best-epoch ones the trainer
 * writes: RUN/last/{val,test}-{logits,labels}.npy, for `calib eval` / `calib fit` (used by fashion-mnist-resnet20.sh).
 *
 * Run: node dist/bench/last-epoch-logits.js RUN_DIR
 */
import { readFile, mkdir } from 'node:fs/promises';
import { writeNpy } from '../src/io/npy.js';
import { loadCheckpoint } from '../src/train/artefacts/checkpoint.js';
import { EvalStep } from '../src/train/steps/compile-eval-step.js';
import { datasetInputs, predictLogits } from '../src/train/evaluation/predict.js';
import { resolveTrainConfig } from '../src/train/train-config.js';
import { loadRunData } from '../src/train/run/trainer-data.js';
import { createRunModel } from '../src/train/run/trainer-model.js';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node dist/bench/last-epoch-logits.js RUN_DIR');
  process.exit(2);
}
const config = resolveTrainConfig({ ...JSON.parse(await readFile(`${dir}/config.json`, 'utf8')), out: dir }, `${dir}/config.json`);
const data = await loadRunData(config);
const model = createRunModel(config.model, config.modelOptions, data.train);
const { header, state } = await loadCheckpoint(`${dir}/checkpoint-last.ckpt`, { model });
const step = new EvalStep(model, { threads: 2 });
await mkdir(`${dir}/last`, { recursive: true });
for (const [name, split] of [
  ['val', data.validation],
  ['test', data.test],
] as const) {
  const logits = predictLogits(step, state, datasetInputs(split), config.evalBatch);
  await writeNpy(`${dir}/last/${name}-logits.npy`, logits, [split.labels.length, data.classes]);
  await writeNpy(`${dir}/last/${name}-labels.npy`, split.labels, [split.labels.length]);
}
console.log(JSON.stringify({ run: dir, step: header.step, epoch: header.metadata['epoch'], out: `${dir}/last` }));
