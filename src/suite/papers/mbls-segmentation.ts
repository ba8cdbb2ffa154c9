/**
 * MbLS on segmentation (Liu et al., CVPR 2022, Table 5: PASCAL VOC 2012 with DeepLabV3, ResNet-34 and ResNet-50
 * backbones): CE, ECP, LS, FL and MbLS trained on pixels, compared by pixel ECE / AECE and mIoU, plus ECE without
 * background and temperature scaling fitted on validation pixels (both the suite's own additions: Table 5 has
 * neither). Toolkit scale: the `mnist-seg` masks (MNIST digits, background / digit + 1 / 255 void band) and the
 * `seg-net` encoder–decoder (train/tasks/segmentation-task.ts).
 *
 * Hyperparameters by the paper's rule (App. B): VOC takes "the best hyper-parameters found on the Tiny-ImageNet
 * classification benchmark for all the methods, without any further tuning": MbLS m = 10, λ = 0.1; ECP 0.1,
 * LS ε = 0.05, FL γ = 3. The official code's segmentation trainer keeps the epoch of best validation mIoU; the
 * toolkit's segmentation runs select by validation pixel accuracy (the nearest criterion they offer), at every scale.
 *
 * machine: width 8, 2,000 images (200 validate, 1,800 train), Adam η = 3e-3 without weight decay, 40 epochs —
 * measured for CE (last epoch) on the 2-core machine: 47 s per run (31 s of training), test pixel accuracy 97.5 %, mIoU
 * 72.6 %, overconfident on the foreground pixels (mean confidence 89.4 % vs accuracy 81.8 %, ECE 7.5 %; all pixels
 * 98.4 % vs 97.5 %, ECE 0.9 %), as CE is on VOC. 5 methods × 5 seeds. Test metrics: the pixels of a seeded sample of
 * 300 test images (the dense logits a run keeps); summary.json has every test image's. quick: width 4, 250 training
 * images, 6 epochs at η = 0.01 (seconds, a smoke test). paper: the paper's SGD recipe (Appendix B) on all mnist-seg
 * images (the data and backbone stay the toolkit's: VOC and DeepLabV3 are not available offline).
 */
import { BASE } from './scales.js';
import { MARGIN_SEEDS, TINY_IMAGENET_MARGIN } from './margin-scales.js';
import { MBLS_SEGMENTATION_CLAIMS } from './mbls-claims.js';
import type { BuiltinSuite, SettingsInput } from '../suite-schema.js';

const SEG: SettingsInput = { dataset: 'mnist-seg', model: 'seg-net', batch: 50, optimizer: 'adam', weightDecay: 0, schedule: 'constant', select: 'accuracy' };

export const MBLS_SEGMENTATION_SUITE = {
  summary: 'MbLS Table 5 at toolkit scale: CE, ECP, LS, FL, MbLS m=10 on mnist-seg pixels (ECE, AECE, mIoU; w/o background and TS added)',
  suite: {
    name: 'mbls-segmentation',
    description:
      "Liu et al. 2022, Table 5 (PASCAL VOC, DeepLabV3) at toolkit scale: does margin-based label smoothing (m = 10, VOC's margin: the paper reuses Tiny-ImageNet's hyperparameters) give lower pixel ECE and AECE and at least the mIoU of CE, ECP, LS and focal loss? Segmentation of MNIST digits (mnist-seg: background, digit + 1, 255 void band ignored) with a small encoder-decoder (seg-net). " +
      "machine: width 8, 1,800 training images, 200 validation images, Adam 3e-3, 40 epochs, the epoch of best validation pixel accuracy (the paper's code: best validation mIoU), 5 seeds.",
    base: { ...BASE, ...SEG },
    scales: {
      quick: { subset: 300, validation: 50, testSubset: 60, modelOptions: { width: 4 }, epochs: 6, lr: 0.01 },
      machine: { subset: 2000, validation: 200, modelOptions: { width: 8 }, epochs: 40, lr: 0.003 },
      // The paper's optimisation recipe (Appendix B) on all 8,000 mnist-seg training images: SGD, momentum 0.9, batch 8,
      // η₀ = 0.01 ÷ 10 every 40 epochs, 100 epochs, best epoch by validation pixel accuracy.
      paper: { validation: 800, modelOptions: { width: 16 }, optimizer: 'sgd', momentum: 0.9, batch: 8, lr: 0.01, schedule: 'step:40,0.1', epochs: 100 },
    },
    methods: [
      { name: 'ce', label: 'CE', loss: 'ce' },
      { name: 'ecp', label: 'ECP', loss: 'ecp', lossOptions: { alpha: 0.1 } },
      { name: 'ls', label: 'LS ε=0.05', loss: 'ls', lossOptions: { epsilon: 0.05 } },
      { name: 'focal', label: 'FL γ=3', loss: 'focal', lossOptions: { gamma: 3 } },
      { name: 'mbls', label: 'MbLS m=10', loss: 'mbls', lossOptions: { margin: TINY_IMAGENET_MARGIN, alpha: 0.1 } },
    ],
    seeds: MARGIN_SEEDS,
    posthoc: ['temperature'],
    claims: MBLS_SEGMENTATION_CLAIMS,
  },
} satisfies BuiltinSuite;
