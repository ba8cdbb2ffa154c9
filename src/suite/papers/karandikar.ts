/**
 * Karandikar et al. (NeurIPS 2021, "Soft calibration objectives for neural networks"): primary {NLL, focal, MSE} ×
 * secondary {none, MMCE, AvUC, AvUC-GS, SB-ECE, S-AvUC}, and post-hoc TS vs TS-SB-ECE vs TS-HB-ECE, on clean test data
 * and under corruption severities 1–5 (the NLL model's runs evaluate the corruptions; the report's "ECE vs
 * corruption severity" table and figure). Claims: the soft objectives (SB-ECE, S-AvUC) lower ECE relative to the
 * primary alone and relative to MMCE/AvUC; TS-SB-ECE reduces ECE more than TS, particularly under shift (Fig. 2;
 * decided by the report's TS-SB-ECE − TS and TS-HB-ECE − TS table: the paired difference over seeds at each severity
 * with its 95 % t-interval). The shift numbers are the paper's ECE: equal-mass bins, ℓ2 norm (`shiftMetric`
 * 'adaece_l2').
 */
import { BASE, CIFAR_RECIPE, MACHINE, QUICK } from './scales.js';

const SECONDARIES: readonly (readonly [string, string | undefined])[] = [
  ['', undefined],
  ['-mmce', 'mmce'],
  ['-avuc', 'avuc'],
  ['-avucgs', 'avuc-gs'],
  // The label-binned SB-ECE, as the paper's experiments use (App. G: SB-ECE_lb,p).
  ['-sbece', 'sb-ece-lb'],
  ['-savuc', 's-avuc'],
];
const PRIMARIES: readonly (readonly [string, string, string])[] = [
  ['nll', 'ce', 'NLL'],
  ['focal', 'focal', 'Focal'],
  ['mse', 'mse', 'MSE'],
];

const METHODS = PRIMARIES.flatMap(([name, loss, label]) =>
  SECONDARIES.map(([suffix, secondary]) => ({
    name: `${name}${suffix}`,
    label: secondary === undefined ? label : `${label} + ${secondary}`,
    loss,
    ...(secondary === undefined ? {} : { secondary }),
    // Post-hoc TS vs TS-SB-ECE vs TS-HB-ECE under shift (the paper's Fig. 2) is on the NLL-trained model, and §5.3 /
    // Fig. 7 compare the primaries under shift (focal beats NLL + TS on CIFAR-10-C): only the three primaries' runs
    // take the OOD / corruption passes (9 corruptions × 5 severities; calibrators fitted on the clean validation split
    // and applied to the saved shift logits by the post-hoc step).
    ...(secondary === undefined ? { ood: true } : {}),
  })),
);

export const KARANDIKAR_SUITE = {
  summary: 'Karandikar et al. 2021: {NLL, focal, MSE} × {none, MMCE, AvUC, AvUC-GS, SB-ECE, S-AvUC}, TS vs TS-SB-ECE vs TS-HB-ECE',
  suite: {
    name: 'karandikar',
    description:
      'Karandikar et al. 2021, Tables 1–2 and the dataset-shift figure: do the soft calibration objectives (SB-ECE, S-AvUC) added to NLL, focal or MSE lower ECE relative to the primary alone and to MMCE/AvUC, and how do TS, TS-SB-ECE and TS-HB-ECE compare, on clean test data and under corruption severities 1–5 (the NLL model; calibrators fitted on clean validation; machine scale: 2,000 test images per corruption set), and does focal loss beat NLL + TS under shift (§5.3; the three primaries are evaluated under corruption)? Every secondary\'s weight β ∈ {0.3, 1, 3} is chosen by the paper\'s rule: the lowest validation ECE within 1 % of the best validation accuracy. quick: MNIST MLP smoke test; machine: a 512-unit MLP on 10,000 Fashion-MNIST images, 20 epochs (18 methods), no weight decay, last epoch (CE ends overconfident there), 3 seeds (mean ± SEM); paper: CIFAR-10 wide ResNet-28-10, 200 epochs.',
    // Train-split metrics beside test (Karandikar et al. §5.1: NLL can overfit the train ECE to ≈ 0).
    base: { ...BASE, evaluateTrain: true },
    scales: {
      // OOD / corruption evaluation (the three primaries' runs only) on a test subset: the 45 corruption passes dominate otherwise.
      quick: { ...QUICK, oodSubset: 500 },
      machine: { ...MACHINE, epochs: 20, oodSubset: 2000 },
      paper: { ...CIFAR_RECIPE, model: 'wrn-28-10', epochs: 200, schedule: 'multistep:0.3,0.6,0.8' },
    },
    methods: METHODS,
    // β of every secondary term, chosen per method by the paper's rule (select below).
    sweeps: [{ key: 'weight', values: [0.3, 1, 3], methods: METHODS.filter((m) => 'secondary' in m).map((m) => m.name), label: 'β' }],
    seeds: [0, 1, 2],
    posthoc: ['temperature', 'ts-sb-ece', 'ts-hb-ece'],
    // The paper's tuning rule (App. G) and its ± (SEM over trials).
    select: 'ece-near-best-accuracy',
    spread: 'sem',
    // The paper's ECE under shift (Fig. 2): equal-mass bins, ℓ2 norm.
    shiftMetric: 'adaece_l2',
    compare: [
      'nll-sbece < nll on ece',
      'nll-savuc < nll on ece',
      'nll-sbece < nll-mmce on ece',
      'nll-savuc < nll-avuc on ece',
      'focal-sbece < focal on ece',
      'mse-sbece < mse on ece',
      'nll-sbece < nll on ece after temperature',
      // §5.3 / Fig. 7: training for calibration beats NLL + TS under shift (ECE ℓ2 equal-mass, mean over corruptions × severities).
      'focal < nll+temperature on shift_adaece_l2',
      'focal < nll on shift_adaece_l2',
    ],
  },
};
