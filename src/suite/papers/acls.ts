/**
 * ACLS (Park et al., ICCV 2023, "ACLS: Adaptive and Conditional Label Smoothing"): CE (and CE + TS), MMCE, ECP, LS,
 * FL, FLSD-53, MDCA, CPC, CRL, MbLS and ACLS, with the AR-only / CR-only ablations, the λ grid and ECE against the margin M (supplement Fig. A), and the MC-dropout
 * (p = 0.3, 10 passes; train/run-predictor.ts) and CutMix (α = 1, Yun et al. 2019; augment/cutmix.ts) baselines.
 * CutMix pastes boxes into the NCHW images on the host before the model sees them, so it applies at every scale (the
 * MLP of quick and machine flattens the cut images itself). Claim: ACLS has the lowest ECE; both of its parts are
 * needed (ACLS < AR-only and ACLS < CR-only on ECE). The report adds Fig. 3, the histogram of ACLS's per-sample
 * regulariser over each method's test samples.
 */
import { BASE, CIFAR_RECIPE, MACHINE, QUICK } from './scales.js';

export const ACLS_SUITE = {
  summary: 'ACLS (Park et al. 2023): 11 losses, the AR-only/CR-only ablations, the λ1 grid, MC-dropout and CutMix baselines, before/after TS',
  suite: {
    name: 'acls',
    description:
      'Park et al. 2023, Tables 1–3: does ACLS give lower ECE than CE, the regularised losses (MMCE, ECP, LS, FL, FLSD, MDCA, CPC, CRL), MbLS and the MC-dropout (p = 0.3, 10 passes) and CutMix (α = 1, every batch) baselines, and are both its adaptive and conditional parts needed? quick: MNIST MLP smoke test; machine: a 512-unit MLP on 10,000 Fashion-MNIST images, 30 epochs, no weight decay, last epoch (CE ends overconfident there), 3 seeds (15 methods + λ1 grid); paper: CIFAR-10 ResNet-50 (with dropout 0.3 before the classifier for MC dropout), 200 epochs, η ÷10 at 100 and 150.',
    base: BASE,
    scales: {
      quick: QUICK,
      machine: MACHINE,
      paper: { ...CIFAR_RECIPE, model: 'resnet50', epochs: 200, schedule: 'multistep:0.5,0.75' },
    },
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'mmce', label: 'MMCE', loss: 'ce', secondary: 'mmce' },
      { name: 'ecp', label: 'ECP', loss: 'ecp' },
      { name: 'ls', label: 'LS', loss: 'ls', lossOptions: { epsilon: 0.05 } },
      { name: 'focal', label: 'FL', loss: 'focal', lossOptions: { gamma: 3 } },
      { name: 'flsd', label: 'FLSD-53', loss: 'flsd53' },
      { name: 'mdca', label: 'MDCA', loss: 'ce', secondary: 'mdca', weight: 1 },
      { name: 'cpc', label: 'CPC', loss: 'cpc' },
      { name: 'crl', label: 'CRL', loss: 'crl' },
      { name: 'mbls', label: 'MbLS', loss: 'mbls' },
      { name: 'acls', label: 'ACLS', loss: 'acls' },
      { name: 'acls-ar', label: 'ACLS AR-only', loss: 'acls', lossOptions: { variant: 'ar-only' } },
      { name: 'acls-cr', label: 'ACLS CR-only', loss: 'acls', lossOptions: { variant: 'cr-only' } },
      // Baselines: MC dropout (trained with dropout 0.3, evaluated by the mean softmax of 10 passes) and CutMix.
      { name: 'mc-dropout', label: 'MC dropout p=0.3, 10 passes', loss: 'ce', modelOptions: { dropout: 0.3 }, mcDropout: { passes: 10 } },
      { name: 'cutmix', label: 'CutMix α=1', loss: 'ce', mixup: 1, mixupKind: 'cutmix' },
      // Supplement Fig. A: ECE against the margin M (ACLS with its default λ1, λ2; M chosen by validation NLL for the table).
      { name: 'acls-margin', label: 'ACLS, M swept', loss: 'acls' },
    ],
    sweeps: [
      { key: 'lossOptions.lambda1', values: [0.1, 0.5, 1, 2], methods: ['acls'], label: 'λ1' },
      { key: 'lossOptions.margin', values: [2, 4, 6, 10, 15], methods: ['acls-margin'], label: 'margin M' },
    ],
    seeds: [0, 1, 2],
    posthoc: ['temperature'],
    select: 'nll',
    compare: [
      'acls < ce on ece',
      'acls < mbls on ece',
      'acls < ls on ece',
      'acls < focal on ece',
      'acls < mdca on ece',
      'acls < acls-ar on ece',
      'acls < acls-cr on ece',
      'acls < mc-dropout on ece',
      'acls < cutmix on ece',
      'acls < ce on ece after temperature',
    ],
    // Fig. 3: per-sample L_REG = α·reg of ACLS (default options, as the acls method) on every method's test logits, 20 bins over [0, 0.1].
    regulariserHistogram: { loss: 'acls', bins: 20, min: 0, max: 0.1 },
  },
};
