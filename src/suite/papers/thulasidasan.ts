/**
 * Thulasidasan et al. (NeurIPS 2019, "On mixup training: improved calibration and predictive uncertainty"): CE
 * against input mixup over α, label smoothing (ε on the other classes), the entropy-regularised loss (ERL), feature-only
 * mixup (inputs mixed, label of the nearer sample), manifold mixup and the MC-dropout baseline (dropout p = 0.3, the
 * mean softmax of 10 stochastic passes at test time, also on the OOD sets; train/run/run-predictor.ts). The claims, read
 * from the paper claim by claim, are thulasidasan-claims.ts.
 *
 * Hyperparameters by the paper's rules (every machine-scale run):
 * - checkpoint: the best validation-accuracy epoch (§3.1: "calibration results are reported for the best performing
 *   epoch on the validation set"), on a 5,000-image validation split (10,000 images train);
 * - SGD with Nesterov momentum, η₀ = 0.1 halved at 60, 120 and 160 of 200 epochs (§3.1), as fractions of the 30;
 * - mixup α ∈ {0.1, 0.2, 0.4, 1} (Fig. 2h–j) and LS ε ∈ {0.05, 0.1} (§3.4: "an ε ∈ [0.05, 0.1] performed best"),
 *   each chosen by mean validation accuracy (§3.4: "We report the calibration error for the best performing model
 *   (in terms of validation accuracy)"); ERL κ = 0.1 (§3.4: "the best-performing confidence penalty");
 * - `mixup-04`: α = 0.4 fixed, the OOD table's model (Table 1: "Mixup (α = 0.4)"), also the mixup that feature-only
 *   and manifold mixup (α = 0.4) are compared with; its runs repeat the α = 0.4 runs of the sweep (same settings and
 *   seeds, so the same numbers), since a claim names a method, not a swept value;
 * - MC dropout p = 0.3 with 10 test passes, TS fitted on validation by NLL (Table 1, §7; Guo et al.);
 * - OOD: the Table 1 rows (CE and CE + TS, mixup α = 0.4, MC dropout) and feature-only mixup, on 2,000 test images
 *   against 2,000 Gaussian-noise images (the training set's mean and variance) and 2,000 MNIST digits.
 * Deviations: the machine scale's model and data (a 512-unit MLP on Fashion-MNIST, 30 epochs, no weight decay;
 * the paper: VGG-16 / ResNets, 200 epochs); OOD in Fashion-MNIST / out MNIST (the paper: STL-10 / unseen ImageNet
 * classes).
 */
import { BASE, CIFAR_RECIPE, MACHINE, QUICK } from './scales.js';
import { THULASIDASAN_CLAIMS } from './thulasidasan-claims.js';
import type { ScheduleText } from '../../train/lr-schedule-spec.js';
import type { BuiltinSuite } from '../suite-schema.js';

/** §3.1: SGD with Nesterov momentum, η₀ = 0.1 halved at epochs 60, 120 and 160 of 200 (as fractions of the epochs). */
export const THULASIDASAN_SCHEDULE: ScheduleText = 'multistep:0.3,0.6,0.8:0.5';

/** The α of the paper's OOD experiment (Table 1) and best CIFAR-10 model (App. A Table 2). */
export const THULASIDASAN_OOD_ALPHA = 0.4;

export const THULASIDASAN_SUITE = {
  summary: 'Thulasidasan et al. 2019: CE vs mixup (α by validation accuracy; α = 0.4 for OOD), LS, ERL, feature-only and manifold mixup, MC dropout',
  suite: {
    name: 'thulasidasan',
    description:
      'Thulasidasan et al. 2019, Figs. 2, 6, 8–9, Tables 1–3: does mixup lower ECE and overconfidence relative to CE, LS and ERL (α and ε chosen by validation accuracy, §3.4), how do ECE, OE and accuracy vary with α (Fig. 2h–j), does mixing the labels matter (feature-only mixup, Fig. 6), is manifold mixup worse than mixup at equal epochs (App. C), and on OOD digits and Gaussian noise is mixup (α = 0.4, Table 1) less confident and a better detector than CE, CE + TS and MC dropout (p = 0.3, 10 passes)? Every run at its best validation-accuracy epoch (§3.1). quick: MNIST MLP smoke test; machine: a 512-unit MLP on 10,000 Fashion-MNIST images (5,000 more validate), 30 epochs of Nesterov SGD halving η at 30/60/80 % (§3.1), no weight decay (so that CE ends overconfident; the paper: 5e-4), 5 seeds (60 runs); paper: CIFAR-10 VGG-16, 200 epochs.',
    base: BASE,
    scales: {
      quick: { ...QUICK, oodSubset: 500, select: 'accuracy' },
      // MACHINE's 10,000 training images and 5,000-image validation split (α, ε and the epoch are chosen on it, TS is
      // fitted on it); OOD / corruption evaluation on 2,000 test images per set (the 45 corruption passes dominate otherwise).
      machine: { ...MACHINE, oodSubset: 2000, select: 'accuracy', schedule: THULASIDASAN_SCHEDULE, nesterov: true },
      paper: { ...CIFAR_RECIPE, model: 'vgg16', epochs: 200, schedule: THULASIDASAN_SCHEDULE, nesterov: true },
    },
    methods: [
      // CE and the two mixups keep every epoch's validation logits, for the accuracy–confidence joint density per epoch (Fig. 1).
      { name: 'ce', label: 'CE', loss: 'ce', ood: true, epochLogits: true },
      { name: 'mixup', label: 'Mixup (α by validation accuracy)', loss: 'ce', mixup: 0.2, epochLogits: true },
      { name: 'mixup-04', label: 'Mixup α=0.4', loss: 'ce', mixup: THULASIDASAN_OOD_ALPHA, ood: true, epochLogits: true },
      { name: 'ls', label: 'LS (ε by validation accuracy, others)', loss: 'ls', lossOptions: { epsilon: 0.1, variant: 'others' } },
      { name: 'erl', label: 'ERL κ=0.1', loss: 'erl', lossOptions: { kappa: 0.1 } },
      { name: 'mixup-feature', label: 'Feature-only mixup α=0.4', loss: 'ce', mixup: THULASIDASAN_OOD_ALPHA, mixupKind: 'feature', ood: true },
      { name: 'mixup-manifold', label: 'Manifold mixup α=0.4', loss: 'ce', mixup: THULASIDASAN_OOD_ALPHA, mixupKind: 'manifold' },
      // Trained with dropout 0.3 (the MLP's hidden layers; VGG-16 before its classifier at paper scale), evaluated by
      // the mean softmax of 10 passes with dropout on (per-epoch validation and best-epoch selection stay deterministic).
      { name: 'mc-dropout', label: 'MC dropout p=0.3, 10 passes', loss: 'ce', modelOptions: { dropout: 0.3 }, mcDropout: { passes: 10 }, ood: true },
    ],
    sweeps: [
      { key: 'mixup', values: [0.1, 0.2, 0.4, 1], methods: ['mixup'], label: 'mixup α' },
      { key: 'lossOptions.epsilon', values: [0.05, 0.1], methods: ['ls'], label: 'LS ε' },
    ],
    seeds: [0, 1, 2, 3, 4],
    posthoc: ['temperature'],
    // Swept values by mean validation accuracy (§3.4).
    select: 'accuracy',
    claims: THULASIDASAN_CLAIMS,
  },
} satisfies BuiltinSuite;
