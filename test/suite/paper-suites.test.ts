import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite, SUITE_SCALES } from '../../src/suite/suite-schema.js';
import { imageDataset } from '../../src/data/dataset.js';
import { McDropoutStep } from '../../src/train/evaluation/mc-dropout.js';
import { createRunModel } from '../../src/train/run/trainer-model.js';

/**
 * Runs per suite: (unswept methods + swept values) × seeds, counted by hand from the suite files. Karandikar's
 * interleaved NLL + SB-ECE (3 β values) runs at every scale but machine (its machine grid drops it).
 */
const RUNS: Record<string, number> = { maronas: (4 + 4 * 4) * 5, thulasidasan: (6 + 4 + 2) * 5, mbls: (7 + 6) * 5, acls: (15 + 6 + 4 + 4) * 5, karandikar: (3 + 14 * 3) * 5 };
const MACHINE_RUNS: Record<string, number> = { ...RUNS, karandikar: (3 + 13 * 3) * 5 };
const PAPERS = Object.keys(RUNS);
/**
 * Runs at the deep scale: the trimmed grids of papers/deep-grids.ts (docs/reproductions/deep-budget.md); Karandikar's
 * 25 and App. B's NLL + SB-ECE, plain and interleaved, 3 seeds each.
 */
const DEEP_RUNS: Record<string, number> = { maronas: 30, thulasidasan: 44, mbls: 44, acls: 74, karandikar: 25 + 6 };

test('the five paper suites are built in, parse, and expand at every scale', () => {
  for (const paper of PAPERS) {
    const entry = BUILTIN_SUITES[paper];
    assert.ok(entry, `${paper} is a built-in suite`);
    const suite = parseSuite(entry.suite, paper);
    for (const scale of SUITE_SCALES) {
      const runs = expandSuite(suite, scale, paper);
      assert.equal(runs.length, scale === 'deep' ? DEEP_RUNS[paper] : scale === 'machine' ? MACHINE_RUNS[paper] : RUNS[paper], `${paper}/${scale} run count`);
      const datasets = new Set(runs.map((r) => r.config.dataset));
      assert.deepEqual([...datasets], [scale === 'quick' ? 'mnist' : scale === 'machine' || scale === 'deep' ? 'fashion-mnist' : 'cifar10'], `${paper}/${scale} dataset`);
    }
  }
});

test('thulasidasan and acls have an MC-dropout row (dropout 0.3, 10 passes) and acls a CutMix row, at every scale', () => {
  for (const paper of ['thulasidasan', 'acls']) {
    const suite = parseSuite(structuredClone(BUILTIN_SUITES[paper]!.suite), paper);
    const comparisons = [...suite.compare, ...suite.claims.map((c) => c.compare ?? '')];
    assert.ok(
      comparisons.some((c) => /< mc-dropout on ece|mc-dropout on (ood|noise)_/.test(c)),
      `${paper}: a comparison against MC dropout`,
    );
    for (const scale of SUITE_SCALES) {
      const runs = expandSuite(suite, scale, paper);
      const mc = runs.filter((r) => r.method === 'mc-dropout');
      // The deep grids (papers/deep-grids.ts) keep thulasidasan's MC-dropout row at 3 seeds and drop acls's MC-dropout
      // and CutMix rows (not headline claims).
      const mcSeeds = scale === 'deep' ? (paper === 'thulasidasan' ? [0, 1, 2] : []) : suite.seeds;
      assert.deepEqual(
        mc.map((r) => r.id),
        mcSeeds.map((s) => `mc-dropout-seed${s}`),
        `${paper}/${scale}`,
      );
      if (mc.length === 0) {
        assert.equal(runs.filter((r) => r.method === 'cutmix').length, 0, `${paper}/${scale}: no CutMix row either`);
        continue;
      }
      for (const r of mc) {
        assert.deepEqual(r.config.mcDropout, { passes: 10 });
        assert.equal(r.config.modelOptions['dropout'], 0.3);
        assert.equal(r.config.loss, 'ce');
        if (paper === 'thulasidasan') assert.equal(r.config.ood, true, 'its OOD rows use the MC-dropout predictor');
      }
      // the scale's model options stay (merged key by key), and no other row evaluates by MC dropout
      if (scale === 'quick' || scale === 'machine') assert.deepEqual(mc[0]!.config.modelOptions['hidden'], scale === 'quick' ? [64] : [512]);
      if (scale === 'deep') assert.deepEqual(mc[0]!.config.modelOptions, { width: 16, dropout: 0.3 });
      assert.ok(runs.filter((r) => r.method !== 'mc-dropout').every((r) => r.config.mcDropout === undefined));
      if (scale === 'paper' || scale === 'deep') {
        // the paper's model (VGG-16 / ResNet-50 on CIFAR-10 shapes) and the deep scale's ResNet-8 (Fashion-MNIST
        // shapes) have a dropout layer at rate 0.3 for the passes
        const shape: [number, number, number] = scale === 'paper' ? [3, 32, 32] : [1, 28, 28];
        const images = imageDataset({ name: 'shaped', images: new Float32Array(shape[0] * shape[1] * shape[2]), labels: new Int32Array(1), shape, classes: 10 });
        const step = new McDropoutStep(createRunModel(mc[0]!.config.model, mc[0]!.config.modelOptions, images));
        assert.deepEqual([...new Set(step.masks(1).map((m) => m.rate))], [0.3], `${paper}: ${mc[0]!.config.model}`);
        step.dispose();
      }
      if (paper === 'acls') {
        const cut = runs.filter((r) => r.method === 'cutmix');
        assert.equal(cut.length, suite.seeds.length, `acls/${scale}`);
        for (const r of cut) assert.deepEqual([r.config.mixup, r.config.mixupKind, r.config.loss], [1, 'cutmix', 'ce']);
      }
    }
  }
});

test("karandikar evaluates corruptions on the runs of the methods its shift claims compare (Fig. 7: Table 1's rows; Fig. 9: the primaries), on a test subset at quick and machine scale, with the TS variants and Dirichlet post hoc", () => {
  const suite = parseSuite(structuredClone(BUILTIN_SUITES['karandikar']!.suite), 'karandikar');
  assert.deepEqual(suite.posthoc, ['temperature', 'ts-sb-ece', 'ts-hb-ece', 'dirichlet']);
  for (const [scale, subset] of [
    ['quick', 500],
    ['machine', 2000],
  ] as const) {
    const runs = expandSuite(suite, scale, 'karandikar');
    const ood = runs.filter((r) => r.config.ood);
    assert.deepEqual([...new Set(ood.map((r) => r.method))], ['nll', 'nll-mmce', 'focal', 'focal-sbece', 'focal-savuc', 'mse'], scale);
    // 3 primaries + 3 secondary-loss methods at 3 values of β, 5 seeds each.
    assert.equal(ood.length, (3 + 3 * 3) * 5, scale);
    assert.ok(
      ood.every((r) => r.config.oodSubset === subset),
      scale,
    );
  }
});
