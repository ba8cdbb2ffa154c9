import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUILTIN_SUITES } from '../../src/suite/builtin-suites.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite, SUITE_SCALES } from '../../src/suite/suite-schema.js';
import { imageDataset } from '../../src/data/dataset.js';
import { McDropoutStep } from '../../src/train/mc-dropout.js';
import { createRunModel } from '../../src/train/trainer-model.js';

/** Runs per suite: (unswept methods + swept values) × seeds, counted by hand from the suite files. */
const RUNS: Record<string, number> = { maronas: 10 * 3, thulasidasan: (6 + 4) * 3, mbls: (7 + 6) * 5, acls: (15 + 6 + 4 + 4) * 5, karandikar: (3 + 15 * 3) * 3 };
const PAPERS = Object.keys(RUNS);

test('the five paper suites are built in, parse, and expand at every scale', () => {
  for (const paper of PAPERS) {
    const entry = BUILTIN_SUITES[paper];
    assert.ok(entry, `${paper} is a built-in suite`);
    const suite = parseSuite(entry.suite, paper);
    for (const scale of SUITE_SCALES) {
      const runs = expandSuite(suite, scale, paper);
      assert.equal(runs.length, RUNS[paper], `${paper}/${scale} run count`);
      const datasets = new Set(runs.map((r) => r.config.dataset));
      assert.deepEqual([...datasets], [scale === 'quick' ? 'mnist' : scale === 'machine' ? 'fashion-mnist' : 'cifar10'], `${paper}/${scale} dataset`);
    }
  }
});

test('thulasidasan and acls have an MC-dropout row (dropout 0.3, 10 passes) and acls a CutMix row, at every scale', () => {
  for (const paper of ['thulasidasan', 'acls']) {
    const suite = parseSuite(structuredClone(BUILTIN_SUITES[paper]!.suite), paper);
    const claims = [...suite.compare, ...suite.claims.map((c) => c.compare ?? '')];
    assert.ok(claims.some((c) => /< mc-dropout on ece/.test(c)), `${paper}: a comparison against MC dropout`);
    for (const scale of SUITE_SCALES) {
      const runs = expandSuite(suite, scale, paper);
      const mc = runs.filter((r) => r.method === 'mc-dropout');
      assert.deepEqual(mc.map((r) => r.id), suite.seeds.map((s) => `mc-dropout-seed${s}`), `${paper}/${scale}`);
      for (const r of mc) {
        assert.deepEqual(r.config.mcDropout, { passes: 10 });
        assert.equal(r.config.modelOptions['dropout'], 0.3);
        assert.equal(r.config.loss, 'ce');
        if (paper === 'thulasidasan') assert.equal(r.config.ood, true, 'its OOD rows use the MC-dropout predictor');
      }
      // the scale's model options stay (merged key by key), and no other row evaluates by MC dropout
      if (scale !== 'paper') assert.deepEqual(mc[0]!.config.modelOptions['hidden'], scale === 'quick' ? [64] : [512]);
      assert.ok(runs.filter((r) => r.method !== 'mc-dropout').every((r) => r.config.mcDropout === undefined));
      if (scale === 'paper') {
        // the paper's model (VGG-16 / ResNet-50 on CIFAR-10 shapes) has a dropout layer at rate 0.3 for the passes
        const cifar = imageDataset({ name: 'cifar-shaped', images: new Float32Array(3 * 32 * 32), labels: new Int32Array(1), shape: [3, 32, 32], classes: 10 });
        const step = new McDropoutStep(createRunModel(mc[0]!.config.model, mc[0]!.config.modelOptions, cifar));
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

test('karandikar evaluates corruptions on the runs of its three primaries only (NLL, focal, MSE), on a test subset at quick and machine scale, with the TS variants post hoc', () => {
  const suite = parseSuite(structuredClone(BUILTIN_SUITES['karandikar']!.suite), 'karandikar');
  assert.deepEqual(suite.posthoc, ['temperature', 'ts-sb-ece', 'ts-hb-ece']);
  for (const [scale, subset] of [['quick', 500], ['machine', 2000]] as const) {
    const runs = expandSuite(suite, scale, 'karandikar');
    assert.deepEqual(runs.filter((r) => r.config.ood).map((r) => r.id), ['nll-seed0', 'nll-seed1', 'nll-seed2', 'focal-seed0', 'focal-seed1', 'focal-seed2', 'mse-seed0', 'mse-seed1', 'mse-seed2'], scale);
    assert.ok(runs.filter((r) => r.config.ood).every((r) => r.config.oodSubset === subset), scale);
  }
});
