/**
 * MbLS (Liu et al., CVPR 2022, "The devil is in the margins"): CE, ECP, LS, FL, FLSD-53, MbLS with m = 0 and MbLS
 * with the paper's CIFAR-10 margin m = 6, before and after temperature scaling, plus the margin swept for Fig. 2.
 *
 * Hyperparameters by the paper's rules (§5 "Baselines" / "Our method", App. B) and its official code
 * (github.com/by-liu/MbLS, configs/loss/*.yaml):
 * - MbLS: λ (`alpha`) = 0.1 fixed "in all our experiments"; m "chosen based on the validation set of each dataset":
 *   m = 6 on CIFAR-10 and 20 Newsgroups, 10 on Tiny-ImageNet, CUB and VOC. This 10-class task takes CIFAR-10's m = 6
 *   (the margin sweep `mbls-margin` shows whether validation would pick it here).
 * - MbLS m = 0 (Table 1's "Ours (m=0)"): λ = ε = 0.05, "setting equivalent balancing weight of λ in Ours (m=0) to ε"
 *   (§5.1, "Equivalence with Label Smoothing"): with the code's penalty (mean over the C classes), LS with ε is
 *   CE + ε·mean_k(z_y − z_k), i.e. MbLS m = 0 with λ = ε on every correctly classified sample.
 * - LS ε = 0.05, FL γ = 3, FLSD γ = 5 for p < 0.2 and 3 otherwise, ECP weight 0.1 (§5 "Baselines"; the code's configs).
 * - Checkpoint: the epoch of best validation accuracy (the code's trainer, `best.pth` by `acc`).
 * - Temperature scaling: `ts-grid-ece`, T from 0.1, 0.2, …, 10 by validation ECE (the code's `set_temperature`,
 *   `cross_validate='ece'`); Guo et al.'s NLL fit (`temperature`, the paper's reference [9]) is reported beside it.
 *
 * The claims (mbls-claims.ts) are the paper's, each with its table or section, including App. D's comparison of MbLS
 * *without* TS against CE *with* TS.
 */
import { MARGIN_EVALUATION, MARGIN_TRAINING, marginScalesDescription, TEN_CLASS_MARGIN } from './margin-scales.js';
import { MBLS_CLAIMS } from './mbls-claims.js';
import type { BuiltinSuite } from '../suite-schema.js';

export const MBLS_SUITE = {
  summary: 'MbLS (Liu et al. 2022): CE, ECP, LS, FL, FLSD-53, MbLS m=0 and m=6, the margin sweep (Fig. 2), before/after TS',
  suite: {
    name: 'mbls',
    description:
      "Liu et al. 2022, Tables 1, 2, 7 and Fig. 2: does margin-based label smoothing (m = 6, the paper's CIFAR-10 margin; λ = 0.1) give lower ECE than CE, ECP, LS, focal and FLSD-53, does a positive margin beat m = 0, is MbLS without TS better than CE with TS (App. D), and how does ECE depend on m? " +
      marginScalesDescription('', ''),
    ...MARGIN_TRAINING,
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'ecp', label: 'ECP', loss: 'ecp', lossOptions: { alpha: 0.1 } },
      { name: 'ls', label: 'LS ε=0.05', loss: 'ls', lossOptions: { epsilon: 0.05 } },
      { name: 'focal', label: 'FL γ=3', loss: 'focal', lossOptions: { gamma: 3 } },
      { name: 'flsd', label: 'FLSD-53', loss: 'flsd53' },
      { name: 'mbls-m0', label: 'MbLS m=0 (λ=ε=0.05)', loss: 'mbls', lossOptions: { margin: 0, alpha: 0.05 } },
      { name: 'mbls', label: 'MbLS m=6', loss: 'mbls', lossOptions: { margin: TEN_CLASS_MARGIN, alpha: 0.1 } },
      // Fig. 2: ECE against the margin (λ = 0.1); its tables row is the margin chosen by validation ECE.
      { name: 'mbls-margin', label: 'MbLS, m swept', loss: 'mbls', lossOptions: { alpha: 0.1 } },
    ],
    sweeps: [{ key: 'lossOptions.margin', values: [2, 4, 6, 8, 10, 15], methods: ['mbls-margin'], label: 'margin m' }],
    ...MARGIN_EVALUATION,
    claims: MBLS_CLAIMS,
  },
} satisfies BuiltinSuite;
