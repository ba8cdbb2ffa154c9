import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeTar } from '../../src/data/formats/tar.js';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite } from '../../src/suite/suite-schema.js';
import { resolveTrainConfig } from '../../src/train/train-config.js';
import { train } from '../../src/train/run/trainer.js';
import { tempDir } from '../io/temp-dir.js';

const dir = tempDir('paper-scale');

/** A CIFAR-10 binary release in the official layout: 5 × 4 training records and 4 test records of random pixels. */
function writeCifar10(path: string): void {
  let seed = 1;
  const byte = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % 256;
  const batch = (n: number, first: number): Uint8Array => {
    const out = new Uint8Array(n * 3073);
    for (let r = 0; r < n; r++) {
      out[r * 3073] = (first + r) % 10;
      for (let j = 1; j < 3073; j++) out[r * 3073 + j] = byte();
    }
    return out;
  };
  const files = [1, 2, 3, 4, 5].map((b) => ({ name: `cifar-10-batches-bin/data_batch_${b}.bin`, data: batch(4, 4 * b) }));
  files.push({ name: 'cifar-10-batches-bin/test_batch.bin', data: batch(4, 0) });
  writeFileSync(path, gzipSync(writeTar(files)));
}

/**
 * For each paper, the run of its `paper` scale with the most machinery (the paper's model, dataset, schedule and
 * augmentation; mixup, placements and secondary terms where the paper has them), trained for one epoch on a
 * generated CIFAR-10 release with the validation split, batch and epochs cut down: every setting the paper scale
 * declares is accepted, builds and trains end to end.
 */
const EXERCISED: Record<string, string> = {
  maronas: 'arc-m-weight=4-seed0',
  thulasidasan: 'mixup-manifold-seed0',
  mbls: 'mbls-margin-margin=10-seed0',
  acls: 'acls-lambda1-lambda1=1-seed0',
  karandikar: 'nll-savuc-weight=1-seed0',
};

test("each paper suite's paper scale trains its own model on CIFAR-10-format data", { timeout: 900_000 }, async () => {
  const cifar = join(dir, 'cifar-10-binary.tar.gz');
  writeCifar10(cifar);
  for (const [paper, id] of Object.entries(EXERCISED)) {
    const runs = expandSuite(parseSuite(structuredClone(BUILTIN_SUITES[paper]!.suite), paper), 'paper', paper);
    const run = runs.find((r) => r.id === id);
    assert.ok(
      run,
      `${paper}: run ${id} among ${runs
        .map((r) => r.id)
        .slice(0, 5)
        .join(', ')}, …`,
    );
    const paperConfig = run.config;
    assert.equal(paperConfig.dataset, 'cifar10');
    assert.ok(paperConfig.epochs >= 200, `${paper}: the paper's epochs`);
    const config = resolveTrainConfig({ ...paperConfig, datasetOptions: { path: cifar }, validation: 4, epochs: 1, batch: 8, evalBatch: 8, threads: 2, out: join(dir, paper) });
    const result = await train(config);
    assert.equal(result.status, 'completed', paper);
    assert.equal(result.summary!.data.train, 16, paper);
    // The papers' networks: ResNet-50, VGG-16, WRN-28-10 all have over 10 million parameters.
    assert.ok(result.summary!.parameters > 10e6, `${paper}: ${paperConfig.model} has ${result.summary!.parameters} parameters`);
    assert.ok(Number.isFinite(result.summary!.test['nll'] as number), `${paper}: finite test NLL`);
  }
});
