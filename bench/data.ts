/**
 * Data-layer throughput, printed as JSON: loader times (embedded MNIST; Debian Fashion-MNIST when installed),
 * batch gathering + CIFAR augmentation (crop 4, flip, normalise) per 128-image batch, and the cost of each
 * corruption on 1,000 CIFAR-sized images. Run: node dist/bench/data.js
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { batchPositions, gatherBatch } from '../src/data/batching.js';
import { CORRUPTIONS, corrupt } from '../src/data/corruptions/corruptions.js';
import { imageDataset } from '../src/data/dataset.js';
import { DEBIAN_FASHION_MNIST_DIRECTORY, loadFashionMnist } from '../src/data/datasets/fashion-mnist.js';
import { loadMnist } from '../src/data/datasets/mnist.js';
import { augmentBatch } from '../src/data/transforms.js';
import { Random } from '../src/util/random.js';

async function time<T>(body: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await body();
  return { ms: performance.now() - t0, value };
}

const result: Record<string, unknown> = {};
result['mnistLoadMs'] = Math.round((await time(() => loadMnist())).ms);
if (existsSync(join(DEBIAN_FASHION_MNIST_DIRECTORY, 'train-images-idx3-ubyte.gz')))
  result['fashionMnistLoadMs'] = Math.round((await time(() => loadFashionMnist({ directory: DEBIAN_FASHION_MNIST_DIRECTORY }))).ms);

const n = 10000;
const rng = new Random(0);
const cifarLike = imageDataset({
  name: 'bench',
  images: Float32Array.from({ length: n * 3072 }, () => rng.uniform()),
  labels: Int32Array.from({ length: n }, () => rng.int(10)),
  shape: [3, 32, 32],
  classes: 10,
});
const aug = new Random(1);
const epoch = await time(() => {
  let batches = 0;
  for (const position of batchPositions(n, { batchSize: 128, seed: 0, endEpoch: 1 })) {
    const batch = gatherBatch(cifarLike, position);
    augmentBatch(batch.images, batch.shape, aug, { mean: [0.49, 0.48, 0.45], std: [0.25, 0.24, 0.26] });
    batches++;
  }
  return batches;
});
result['cifarBatch128GatherAugmentMs'] = +(epoch.ms / epoch.value).toFixed(3);

const thousand = cifarLike.images.subarray(0, 1000 * 3072);
const perCorruption: Record<string, number> = {};
for (const c of CORRUPTIONS) perCorruption[c] = Math.round((await time(() => corrupt(thousand, [1000, 3, 32, 32], c, 5, { rng: new Random(2) }))).ms);
result['corrupt1000CifarImagesSeverity5Ms'] = perCorruption;
process.stdout.write(JSON.stringify(result, null, 2) + '\n');
