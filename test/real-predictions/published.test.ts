import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clippedLogLoss, evaluate, expectedCalibrationError, maximumCalibrationError, separateOneClasswiseEce, smoothEce } from '../../src/metrics/index.js';
import { fitCalibrator } from '../../src/posthoc/index.js';
import { run as runCli } from '../cli/capture.js';
import { PUBLISHED, readLabels, readMatrix, readVector, REAL_PREDICTIONS, sharedDataOrSkip } from './shared-data.js';

/** |ours − published| within half a unit of the last published digit (plus float noise). */
function assertRounded(ours: number, published: number, decimals: number, what: string): void {
  const tol = 0.5 * 10 ** -decimals + 1e-12;
  assert.ok(Math.abs(ours - published) <= tol, `${what}: ours ${ours} vs published ${published} (± ${tol})`);
}

test('Kull et al. 2019 DenseNet-40 (CIFAR-10), uncalibrated: error, ECE, MCE, log-loss, classwise ECE and Brier as published', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const pub = PUBLISHED.kull2019_densenet40_c10.uncalibrated;
  const z = await readMatrix('densenet40-cifar10/test-logits.npy');
  const y = await readLabels('densenet40-cifar10/test-labels.npy');
  const m = evaluate(z, y, { input: 'logits' });
  assertRounded(100 * (1 - m.accuracy), pub.Error, 2, 'error %');
  assertRounded(m.ece, pub.ECE, 6, 'ECE');
  assertRounded(m.mce, pub.MCE, 6, 'MCE');
  assertRounded(m.brier / z.cols, pub.Brier, 6, 'Brier / C');
  // The published log-loss clips p at 1e-15 (sklearn): our exact log-softmax NLL is larger (underflowed p_y).
  assertRounded(clippedLogLoss(z, y, { input: 'logits', eps: 1e-15 }), pub.Loss, 6, 'clipped log-loss');
  assert.ok(m.nll > pub.Loss + 1e-3, `exact NLL ${m.nll} exceeds the clipped one`);
  // ECE_CW: 14 bins [l,u) plus a bin for p = 1, summed over the classes.
  assertRounded(separateOneClasswiseEce(z, y, { input: 'logits', bins: 14, reduction: 'sum' }), pub.ECE_CW, 6, 'ECE_CW');
});

test('Kull et al. 2019 DenseNet-40, temperature scaling fitted on the validation split: the published test values', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const pub = PUBLISHED.kull2019_densenet40_c10.temperature;
  const zv = await readMatrix('densenet40-cifar10/val-logits.npy');
  const yv = await readLabels('densenet40-cifar10/val-labels.npy');
  const z = await readMatrix('densenet40-cifar10/test-logits.npy');
  const y = await readLabels('densenet40-cifar10/test-labels.npy');
  const cal = fitCalibrator('temperature', { logits: zv }, yv);
  // Kull et al.'s TemperatureScaling (scipy BFGS on the clipped log-loss, 8 iterations) stops at T = 2.882549;
  // our NLL optimum is T = 2.882561. The test ECE and MCE move by ~1e-6 between the two, hence 2e-6 there.
  assert.ok(Math.abs((cal.toJSON().temperature as number) - 2.882549) < 2e-5);
  const p = cal.apply({ logits: z });
  const m = evaluate(p, y, { input: 'probabilities' });
  assertRounded(100 * (1 - m.accuracy), pub.Error, 2, 'error %');
  assert.ok(Math.abs(m.ece - pub.ECE) <= 2e-6, `ECE ${m.ece} vs ${pub.ECE}`);
  assert.ok(Math.abs(m.mce - pub.MCE) <= 2e-6, `MCE ${m.mce} vs ${pub.MCE}`);
  assertRounded(clippedLogLoss(p, y, { eps: 1e-15 }), pub.Loss, 6, 'log-loss');
  assert.ok(Math.abs(m.brier / 10 - pub.Brier) <= 1e-6, `Brier ${m.brier / 10} vs ${pub.Brier}`);
  assert.ok(Math.abs(separateOneClasswiseEce(p, y, { bins: 14, reduction: 'sum' }) - pub.ECE_CW) <= 1e-5, 'ECE_CW');
});

test('hollance/reliability-diagrams: all 20 figure ECEs (10 bins) and the notebook 20-bin ECE / MCE / accuracy', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const pub = PUBLISHED.hollance;
  for (const [name, ecePercent] of Object.entries(pub.figure_ece_percent_10bins) as [string, number][]) {
    const c = await readVector(`top-label/${name}/confidence.npy`);
    const predicted = await readLabels(`top-label/${name}/predicted.npy`);
    const labels = await readLabels(`top-label/${name}/labels.npy`);
    const correct = Uint8Array.from(labels, (v, i) => (v === predicted[i] ? 1 : 0));
    assertRounded(100 * expectedCalibrationError(c, correct, { bins: 10 }), ecePercent, 2, name);
    if (name === 'imagenet-torchvision-resnext101_32x8d') {
      const nb = pub.notebook_resnext101_32x8d_20bins;
      assert.ok(Math.abs(expectedCalibrationError(c, correct, { bins: 20 }) - nb.ece) < 1e-12, 'notebook ECE');
      assert.ok(Math.abs(maximumCalibrationError(c, correct, { bins: 20 }) - nb.mce) < 1e-12, 'notebook MCE');
      assert.equal(correct.reduce((a, b) => a + b, 0) / c.length, nb.accuracy);
    }
  }
});

test('SCTL logs: the uncalibrated ECE and accuracy of the CIFAR-10 and CIFAR-10-LT sets as published', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const folders: Record<string, string> = {
    densenet40_c10: 'densenet40-cifar10',
    densenet40_c10_LT: 'sctl-cifar10-lt/densenet40',
    resnet_wide28_c10_LT: 'sctl-cifar10-lt/resnet_wide28',
    resnet110_c10_LT: 'sctl-cifar10-lt/resnet110',
    resnet110_SD_c10_LT: 'sctl-cifar10-lt/resnet110_SD',
  };
  for (const [name, pub] of Object.entries(PUBLISHED.sctl.models) as [string, any][]) {
    const z = await readMatrix(`${folders[name]}/test-logits.npy`);
    const y = await readLabels(`${folders[name]}/test-labels.npy`);
    const m = evaluate(z, y, { input: 'logits' });
    assertRounded(100 * m.ece, pub.uncal_ece, 2, `${name} ECE`);
    assertRounded(100 * m.accuracy, pub.uncal_acc, 2, `${name} accuracy`);
  }
});

test('SCTL logs: temperature and class-wise temperature scaling land within 0.1 points of the published ECE (and CTS accuracy)', async (t) => {
  // SCTL fits with torch LBFGS (lr 0.02, max_iter 1000, from T = 1) and stops before the NLL optimum that we
  // reach; the published post-calibration ECEs are therefore not reproduced digit for digit (README table).
  if (!sharedDataOrSkip(t)) return;
  const folders: Record<string, string> = {
    densenet40_c10: 'densenet40-cifar10',
    densenet40_c10_LT: 'sctl-cifar10-lt/densenet40',
    resnet_wide28_c10_LT: 'sctl-cifar10-lt/resnet_wide28',
    resnet110_c10_LT: 'sctl-cifar10-lt/resnet110',
    resnet110_SD_c10_LT: 'sctl-cifar10-lt/resnet110_SD',
  };
  for (const [name, pub] of Object.entries(PUBLISHED.sctl.models) as [string, any][]) {
    const zv = await readMatrix(`${folders[name]}/val-logits.npy`);
    const yv = await readLabels(`${folders[name]}/val-labels.npy`);
    const z = await readMatrix(`${folders[name]}/test-logits.npy`);
    const y = await readLabels(`${folders[name]}/test-labels.npy`);
    const ts = evaluate(fitCalibrator('temperature', { logits: zv }, yv).apply({ logits: z }), y, { input: 'probabilities' });
    assert.ok(Math.abs(100 * ts.ece - pub.temperature.cal_ece) < 0.1, `${name} TS: ${100 * ts.ece} vs ${pub.temperature.cal_ece}`);
    if (pub['class-temperature']) {
      const cts = evaluate(fitCalibrator('class-temperature', { logits: zv }, yv).apply({ logits: z }), y, { input: 'probabilities' });
      const d = Math.abs(100 * cts.ece - pub['class-temperature'].cal_ece);
      assert.ok(d < 0.1, `${name} CTS: ${100 * cts.ece} vs ${pub['class-temperature'].cal_ece}`);
      // CTS changes the argmax; the published accuracy after CTS is matched to within 0.05 points.
      assert.ok(Math.abs(100 * cts.accuracy - pub['class-temperature'].cal_acc) < 0.05, `${name} CTS accuracy ${100 * cts.accuracy}`);
    }
  }
});

test('Smooth ECE paper (Błasiok & Nakkiran): ImageNet resnet34 / resnext50 and DAFFS solar-flare smECE as published, through the API and calib eval', async (t) => {
  if (!sharedDataOrSkip(t)) return;
  const pub = PUBLISHED.smooth_ece_blasiok2023;
  for (const model of ['imagenet-timm-resnet34', 'imagenet-timm-resnext50_32x4d']) {
    const c = await readVector(`top-label/${model}/confidence.npy`);
    const p = await readLabels(`top-label/${model}/predicted.npy`);
    const y = await readLabels(`top-label/${model}/labels.npy`);
    const correct = Uint8Array.from(c, (_, i) => (p[i] === y[i] ? 1 : 0));
    assertRounded(smoothEce(c, correct).value, pub[model], pub.decimals, `${model} smECE`);
    const dir = `${REAL_PREDICTIONS}top-label/${model}/`;
    const r = await runCli(['eval', '--confidence', `${dir}confidence.npy`, '--predicted', `${dir}predicted.npy`, '--labels', `${dir}labels.npy`, '--json']);
    assert.equal(r.code, 0, r.stderr);
    assertRounded(JSON.parse(r.stdout).smooth_ece, pub[model], pub.decimals, `${model} calib eval smooth_ece`);
  }
  // relplot's smECE(f, y) on the forecast probability of a flare and the 0/1 outcome (not the top label).
  const f = await readVector('solar-flares/DAFFS-probs.npy');
  const outcome = Uint8Array.from(await readLabels('solar-flares/outcomes.npy'));
  assertRounded(smoothEce(f, outcome).value, pub.DAFFS, pub.decimals, 'DAFFS smECE');
});
