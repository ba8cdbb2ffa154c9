/**
 * Thulasidasan et al. (NeurIPS 2019, "On mixup training: improved calibration and predictive uncertainty"): CE
 * against input mixup over α, label smoothing (ε on the other classes), the entropy-regularised loss (ERL), feature-only
 * mixup (inputs mixed, label of the nearer sample), manifold mixup and the MC-dropout baseline (dropout p = 0.3, the
 * mean softmax of 10 stochastic passes at test time, also on the OOD sets; train/run-predictor.ts). Claims: mixup
 * lowers ECE and overconfidence relative to CE and MC dropout; mixing the labels matters (full mixup < feature-only
 * mixup on ECE); on OOD inputs mixup has the higher AUROC and the lower confidence, and under corruption the lower
 * ECE (claim metrics: suite/claim-metric.ts), also against CE + temperature scaling.
 */
import { BASE, CIFAR_RECIPE, MACHINE, QUICK } from './scales.js';

export const THULASIDASAN_SUITE = {
  summary: 'Thulasidasan et al. 2019: CE vs mixup (α sweep), LS, ERL, feature-only and manifold mixup, MC dropout',
  suite: {
    name: 'thulasidasan',
    description:
      'Thulasidasan et al. 2019, Figs. 2–3 and Tables 1–2: does mixup lower ECE relative to CE and to MC dropout (p = 0.3, 10 passes, as the paper\'s baseline; its OOD rows use the same 10-pass predictor), how do ECE and accuracy vary with α, and does mixing the labels matter (feature-only mixup)? quick: MNIST MLP smoke test; machine: a 512-unit MLP on 10,000 Fashion-MNIST images, 30 epochs, no weight decay, last epoch (CE ends overconfident there), 3 seeds; paper: CIFAR-10 VGG-16, 200 epochs.',
    // Every epoch's validation logits, for the accuracy–confidence joint density per epoch (Fig. 1).
    base: { ...BASE, epochLogits: true },
    scales: {
      quick: { ...QUICK, oodSubset: 500 },
      // OOD / corruption evaluation on 2,000 test images per set (the 45 corruption passes dominate otherwise).
      machine: { ...MACHINE, oodSubset: 2000 },
      paper: { ...CIFAR_RECIPE, model: 'vgg16', epochs: 200, schedule: 'multistep:0.5,0.75' },
    },
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'mixup', label: 'Mixup', loss: 'ce', mixup: 0.2 },
      { name: 'ls', label: 'LS ε=0.1 (others)', loss: 'ls', lossOptions: { epsilon: 0.1, variant: 'others' } },
      { name: 'erl', label: 'ERL', loss: 'erl' },
      { name: 'mixup-feature', label: 'Feature-only mixup α=0.4', loss: 'ce', mixup: 0.4, mixupKind: 'feature' },
      { name: 'mixup-manifold', label: 'Manifold mixup α=0.4', loss: 'ce', mixup: 0.4, mixupKind: 'manifold' },
      // Trained with dropout 0.3 (the MLP's hidden layers; VGG-16 before its classifier at paper scale), evaluated by
      // the mean softmax of 10 passes with dropout on (per-epoch validation and best-epoch selection stay deterministic).
      { name: 'mc-dropout', label: 'MC dropout p=0.3, 10 passes', loss: 'ce', modelOptions: { dropout: 0.3 }, mcDropout: { passes: 10 } },
    ],
    sweeps: [{ key: 'mixup', values: [0.1, 0.2, 0.4, 1], methods: ['mixup'], label: 'mixup α' }],
    seeds: [0, 1, 2],
    posthoc: ['temperature'],
    // Table 2 / Fig. 5: OOD detection (Gaussian noise, a second dataset) and behaviour under corruptions.
    ood: true,
    select: 'nll',
    compare: [
      'mixup < ce on ece', 'mixup < ls on ece', 'mixup < erl on ece', 'mixup < mixup-feature on ece', 'mixup < mc-dropout on ece', 'mixup < ce on ece after temperature',
      // Table 2: mixup separates in- from out-of-distribution inputs better (higher AUROC) and is less confident on them,
      // and mixing the labels matters there too; Fig. 5: lower ECE under corruption (mean over kinds × severities).
      'mixup > ce on noise_auroc', 'mixup < ce on noise_confidence', 'mixup > ce on ood_auroc', 'mixup < ce on ood_confidence',
      'mixup > mixup-feature on noise_auroc', 'mixup > mixup-feature on ood_auroc', 'mixup < ce on shift_ece', 'mixup > mc-dropout on noise_auroc',
      // Mixup alone against CE with temperature scaling (fitted on clean validation).
      'mixup > ce+temperature on noise_auroc', 'mixup < ce+temperature on shift_ece',
    ],
  },
};
