/**
 * The claims of Maroñas, Ramos, Paredes, "On Calibration of Mixup Training for Deep Neural Networks" (2021;
 * ../shared/papers/000_63b05af529dff522.txt, with the per-model tables of its GitHub appendix, SSPR_appendix_Github.pdf
 * in github.com/jmaronas/calibration_MixupDNN_ARCLoss.pytorch), read claim by claim (CLAIMS-SPEC.md). Each
 * `paper.text` quotes the paper's CIFAR-10 numbers (Table 1: average over its eight CIFAR-10 models; Table 2: the
 * best model per technique); `paper.difference` is left − right of Table 1 in percentage points (NLL in nats).
 * The paper has no temperature scaling: a comparison after TS is the suite's own check.
 *
 * Method names (maronas.ts): b = B (CE), bm = B+M (mixup α = 1), mmce / mmce-m = MMCE without / with mixup,
 * arc = A (CE + β·ARC, V1, M = 1), arc-m = A+M (V1, M = 1, ARC on the two source images x1, x2 — every CIFAR-10 A+M
 * model of the appendix), arc-m-mixed (ARC on the mixup image x̃), arc-m-v2 (V2 on the sources); every ARC method's β
 * is searched on validation (maronas.ts).
 */
import type { SuiteClaimInput } from '../claims/claim-schema.js';
import { deepRunsCost } from './deep-grids.js';

export const MARONAS_CLAIMS: readonly SuiteClaimInput[] = [
  {
    id: 'mixup-degrades-calibration',
    statement: 'Mixup does not necessarily improve calibration: it degrades it (B+M has a higher ECE than B) in every dataset except CIFAR-100.',
    source: 'Abstract; §5, Tables 1–2 (rows B, B+M)',
    headline: true,
    paper: { text: 'CIFAR-10, ECE average over 8 models (Table 1): 4.35 % (B+M) vs 3.41 % (B); best model (Table 2): 4.65 vs 2.97 %', difference: 0.94 },
    compare: 'bm > b on ece',
    note: 'Mixup α = 1, the paper\'s CIFAR-10 value ("taken from the original work", GitHub appendix). For a dataset the mixup paper did not evaluate (Fashion-MNIST is one) the paper searches α on validation and fixes it for every mixup model; a suite cannot carry a value chosen for B+M into the other methods\' runs, so the machine scale keeps the CIFAR-10 value.',
  },
  {
    id: 'mixup-improves-accuracy',
    statement: 'Mixup improves accuracy (the benefit ARC is meant to keep).',
    source: '§1, §4; Table 1',
    paper: { text: 'CIFAR-10 average (Table 1): 96.01 % (B+M) vs 94.76 % (B)', difference: 1.25 },
    compare: 'bm > b on accuracy',
  },
  {
    id: 'arc-m-beats-bm',
    statement: 'The ARC loss corrects the miscalibration introduced by mixup training: A+M has a lower ECE than B+M.',
    source: 'Abstract; §5, Tables 1–2',
    headline: true,
    paper: { text: 'CIFAR-10 (Table 1): ECE 1.62 % (A+M) vs 4.35 % (B+M); best model (Table 2): 1.03 vs 4.65 %', difference: -2.73 },
    compare: 'arc-m < bm on ece',
    note: 'β searched on validation over {1, 4, 16, 42} by "good accuracy with low calibration error" (App. D): the lowest validation ECE among the values within 1 % (relative) of the best validation accuracy; V1, M = 1, ARC on x1 and x2 (App. D: "V1 and bins M = 1 are a reliable choice"; every CIFAR-10 A+M model of the GitHub appendix).',
  },
  {
    id: 'arc-m-beats-b',
    statement: 'In CIFAR-10 (and CIFAR-100) A+M is the best performing approach: lower ECE than the baseline B.',
    source: '§5, Tables 1–2',
    headline: true,
    paper: { text: 'CIFAR-10 (Table 1): ECE 1.62 % (A+M) vs 3.41 % (B); Table 2: 1.03 vs 2.97 %', difference: -1.79 },
    compare: 'arc-m < b on ece',
  },
  {
    id: 'arc-m-beats-arc',
    statement: '… lower ECE than ARC without mixup (A).',
    source: '§5, Tables 1–2',
    paper: { text: 'CIFAR-10 (Table 1): ECE 1.62 % (A+M) vs 3.37 % (A); Table 2: 1.03 vs 2.01 %', difference: -1.75 },
    compare: 'arc-m < arc on ece',
  },
  {
    id: 'arc-m-beats-mmce',
    statement: 'Our method is better than the recently proposed MMCE: A+M has a lower ECE than MMCE.',
    source: '§5, Tables 1–2',
    paper: { text: 'CIFAR-10 (Table 1): ECE 1.62 % (A+M) vs 2.17 % (MMCE); Table 2: 1.03 vs 1.21 %', difference: -0.55 },
    compare: 'arc-m < mmce on ece',
    note: "MMCE as the paper's code computes it (Kumar et al.'s weighted MMCE, each block normalised once, with a square root), λ = 0.5, the paper's CIFAR-10 value (GitHub appendix; not searched per model there).",
  },
  {
    id: 'arc-m-beats-mmce-m',
    statement: '… and than MMCE added to mixup (M+M).',
    source: '§5, Tables 1–2',
    paper: { text: 'CIFAR-10 (Table 1): ECE 1.62 % (A+M) vs 5.69 % (M+M); Table 2: 1.03 vs 1.11 %', difference: -4.07 },
    compare: 'arc-m < mmce-m on ece',
    note: "M+M: MMCE on x1 and x2 with λ = 0.4, the paper's CIFAR-10 setting (GitHub appendix).",
  },
  {
    id: 'mmce-m-degrades-accuracy',
    statement: 'MMCE is unstable in some cases: some models saturated during training or tended to degrade the accuracy.',
    source: '§5, Tables 1–2',
    paper: { text: 'CIFAR-10 (Table 1): accuracy 91.90 % (M+M) vs 96.01 % (B+M)', difference: -4.11 },
    compare: 'mmce-m < bm on accuracy',
    note: '"In some cases": tested on M+M, where the paper\'s CIFAR-10 average shows it.',
  },
  {
    id: 'arc-m-keeps-accuracy',
    statement: 'The proposed loss improves the calibration, and also sometimes the accuracy: A+M keeps the accuracy of B+M.',
    source: 'Abstract; §4; §5, Table 1',
    paper: { text: 'CIFAR-10 (Table 1): 95.90 % (A+M) vs 96.01 % (B+M); Cars: 89.63 vs 86.67 %', difference: -0.11 },
    equivalent: 'arc-m ~ bm on accuracy',
    margin: 0.005,
    note: "Read as accuracy within ±0.5 point of B+M (the suite's margin; the paper's Table 1 differences A+M − B+M are −0.39 … −0.11 points on CIFAR-10/100 and SVHN, +0.11 on Birds, +2.96 on Cars).",
  },
  {
    id: 'arc-alone-no-significant-gain',
    statement: 'Applying the ARC loss over the baseline model (A) gives improvements in calibration that are not significant, or at least not as when combined with mixup.',
    source: '§5 (last paragraph), Tables 1–2 (rows A, B)',
    headline: true,
    paper: { text: 'CIFAR-10 (Table 1): ECE 3.37 % (A) vs 3.41 % (B); Table 2: 2.01 vs 2.97 %', difference: -0.04 },
    equivalent: 'arc ~ b on ece',
    margin: 0.005,
    note: "An equivalence claim: A − B within ±0.5 point of ECE (the suite's margin; the paper's Table 1 differences A − B are −0.26 … +0.70 points over its five datasets). §4 gives the reason: on a training set fitted to ≈ 100 % accuracy ARC pushes confidences to 1, as CE does. β searched as for A+M.",
  },
  {
    id: 'arc-sources-beat-mixed',
    statement: 'Only in Birds and some CIFAR-100 models did the ARC loss computed over the mixup image x̃ work better than when computed over x1 and x2: on the sources it calibrates better.',
    source: '§5 (Regarding the parameterization …); GitHub appendix (every CIFAR-10 A+M model uses x1, x2)',
    compare: 'arc-m < arc-m-mixed on ece',
    note: '§4 says the opposite ("In general, all datasets benefit more from the latter", x̃); §5 and the appendix tables are tested. Both placements with β searched on the same grid.',
  },
  {
    id: 'arc-v1-beats-v2',
    statement: 'Most of the times the best configuration of the hyperparameters was with V1 of the loss.',
    source: '§5 (Regarding the parameterization …); App. C',
    compare: 'arc-m < arc-m-v2 on ece',
    note: 'Tested as V1 against V2 (both M = 1, on the sources, β searched on the same grid) on test ECE.',
  },
  {
    id: 'arc-m-lower-mce',
    statement: 'The results extrapolate to the other calibration metrics, showing the improvement achieved by A+M: lower MCE than B+M.',
    source: 'App. D.1, Tables 3–4',
    paper: { text: 'CIFAR-10 (Table 3): MCE 0.78 % (A+M) vs 2.88 % (B+M)', difference: -2.1 },
    compare: 'arc-m < bm on mce',
  },
  {
    id: 'arc-m-lower-brier',
    statement: '… lower Brier score than B+M.',
    source: 'App. D.1, Tables 3–4',
    paper: { text: "CIFAR-10 (Table 3): BS×100 0.67 (A+M) vs 0.65 (B+M) — on CIFAR-10 the paper's own average is slightly higher for A+M" },
    compare: 'arc-m < bm on brier',
  },
  {
    id: 'arc-m-lower-nll',
    statement: '… lower NLL than B+M.',
    source: 'App. D.1, Tables 3–4',
    paper: { text: 'CIFAR-10 (Table 3): NLL 0.17 (A+M) vs 0.18 (B+M)', difference: -0.01 },
    compare: 'arc-m < bm on nll',
  },
  // ---- claims this machine does not test ----
  {
    id: 'v1-m1-reliable',
    statement: 'The hyperparameter search (V1/V2, M ∈ {1, 15, {5, 15, 30}}, on x̃ or on x1, x2) concludes that V1 and M = 1 are a reliable choice.',
    source: 'App. D (ARC Hyperparameters)',
    notTested:
      'the M = 15 and M = {5, 15, 30} variants are not run: each ARC variant costs 4 β values × 5 seeds = 20 runs; the suite runs M = 1 (the conclusion) and tests V1 against V2 (arc-v1-beats-v2).',
  },
  {
    id: 'large-beta-prior-solution',
    statement:
      'A pathological solution of the ARC loss is a classifier that outputs the data prior (ARC = 0): β = 42, optimal on ResNet-18, degraded the training accuracy of a DenseNet-121 "at the cost of providing perfect calibration", and the next-best β was taken instead.',
    source: 'App. D (ARC Hyperparameters)',
    paper: { text: "CIFAR-10: β = 42 optimal for ResNet-18, degrading DenseNet-121's training accuracy (no number given)" },
    notTested:
      "a transfer of β between two architectures: the machine scale trains one model, and the training-set accuracy per β is not a claim metric; the report's β sweep gives test accuracy and ECE at every β of the grid {1, 4, 16, 42}",
  },
  {
    id: 'arc-on-validation-split',
    statement:
      "Applying the ARC loss only on a held-out, over-confident validation split, the DNN minimises it by raising that split's accuracy rather than by relaxing its confidences, and test ECE stays high.",
    source: '§5 (last paragraph); App. D.1, Table 5',
    paper: { text: 'CIFAR-100 DenseNet-121: validation accuracy 82.74 → 96.26 % as β goes 0.5 → 8, test ECE 9.48 → 9.73 %' },
    notTested: 'needs the accuracy of the held-out ARC split per β, which no run reports; the placement exists (`arcPlacement: "holdout"`), its β sweep is not in this suite (run count).',
    atScale: {
      deep: {
        notTested: `not tested at deep scale, although B fits its training set there (the premise of the variant, §4: "near 100% accuracy on the training dataset"): it needs an ARC-on-held-out method swept over Table 5's β ∈ {0.5, 1, 2, 4, 8} at 3 seeds — ${deepRunsCost(15)} — and the held-out ARC split's accuracy at the end of training, which no run reports (a training-side record to add).`,
      },
    },
  },
  {
    id: 'mixup-calibrates-cifar100',
    statement: 'Mixup behaves particularly well in CIFAR-100, where it improves calibration.',
    source: '§5, Tables 1–2',
    paper: { text: 'CIFAR-100 (Table 1): ECE 3.71 % (B+M) vs 11.57 % (B)', difference: -7.86 },
    notTested: 'CIFAR-100 is not available offline.',
  },
  {
    id: 'pretrained-birds-cars',
    statement:
      "Mixup degrades calibration in Birds and Cars even though their DNNs are ImageNet pre-trained; A+M corrects most of it (without reaching the baseline's ECE) at higher accuracy (over 3 points on Cars).",
    source: '§5, Tables 1–2',
    paper: { text: 'Table 1: ECE Birds 14.22 % (B+M) vs 2.39 % (B), 4.95 % (A+M); Cars 18.13 vs 2.06 %, 2.84 % (A+M); Cars accuracy 89.63 % (A+M) vs 86.74 % (B)' },
    notTested: 'Caltech-Birds, Stanford-Cars and ImageNet pre-trained networks are not available offline.',
  },
  {
    id: 'svhn-arc-corrects-mixup',
    statement: 'In SVHN A+M corrects the calibration error introduced by B+M but behaves similarly to the other methods.',
    source: '§5, Tables 1–2',
    paper: { text: 'SVHN (Table 1): ECE 2.17 % (A+M) vs 5.00 % (B+M), 1.90 % (B)' },
    notTested: 'SVHN is not available offline.',
  },
  {
    id: 'cifar10-state-of-the-art',
    statement: 'On CIFAR-10 A+M is at the state of the art (≈ 97 % accuracy) and much better calibrated (1.03 % top ECE, 1.62 % average) than the 2.00 % reported by Thulasidasan et al.',
    source: '§5, Tables 1–2',
    paper: { text: 'CIFAR-10 WRN-28-10 (Table 2): 97.09 % accuracy, ECE 1.03 %' },
    notTested: 'absolute CIFAR-10 numbers need the paper scale (WRN-28-10, 200 epochs on a GPU; `calib suite run maronas --scale paper`).',
  },
  // ---- the suite's own check ----
  {
    id: 'suite-arc-m-beats-b-after-ts',
    origin: 'suite',
    statement: 'A+M stays better calibrated than B when both are temperature-scaled.',
    compare: 'arc-m < b on ece after temperature',
    note: "Not the paper's (it has no temperature scaling); an earlier version of this suite listed it as the paper's claim.",
  },
];
