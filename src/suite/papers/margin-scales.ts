/**
 * Settings shared by the MbLS (Liu et al. 2022) and ACLS (Park et al. 2023) image suites (mbls.ts, acls.ts): both
 * papers train CIFAR-10 with the same recipe and the same official code base (github.com/by-liu/MbLS, of which
 * github.com/cvlab-yonsei/ACLS is a fork), so their machine scale follows the same rules.
 */
import { BASE, CIFAR_RECIPE, MACHINE, QUICK } from './scales.js';
import type { ScheduleText } from '../../train/lr-schedule-spec.js';
import type { SettingsInput } from '../suite-schema.js';

/** The papers' CIFAR-10 schedule as fractions of the epochs (η ÷ 10 at epochs 150 and 250 of 350). */
export const CIFAR_MILESTONES: ScheduleText = 'multistep:0.428571,0.714286';

/**
 * The machine scale of the MbLS and ACLS suites: the shared MACHINE recipe (scales.ts; its 5,000-image validation
 * split is what every checkpoint selection and TS fit uses) with the checkpoint of best validation accuracy (both
 * codes' trainer keeps `best.pth` by validation `acc`) instead of the last epoch, and η ÷ 10 at 150/350 and 250/350
 * of the epochs (both papers' CIFAR-10 milestones, 150 and 250 of 350 epochs, as fractions).
 */
export const MARGIN_MACHINE: SettingsInput = { ...MACHINE, select: 'accuracy', schedule: CIFAR_MILESTONES };

/** Seeds of the MbLS and ACLS suites (issue #22: at least 5 at machine scale; one list for every scale). */
export const MARGIN_SEEDS = [0, 1, 2, 3, 4];

/**
 * The training settings of the MbLS and ACLS image suites, as their suite JSON states them: the shared BASE, the
 * QUICK smoke test, MARGIN_MACHINE, and the papers' CIFAR-10 recipe (ResNet-50, 350 epochs, η ÷ 10 at 150 and 250).
 */
export const MARGIN_TRAINING = {
  base: BASE,
  scales: {
    quick: QUICK,
    machine: MARGIN_MACHINE,
    paper: { ...CIFAR_RECIPE, model: 'resnet50', epochs: 350, schedule: CIFAR_MILESTONES } satisfies SettingsInput,
  },
};

/**
 * The evaluation settings of the MbLS and ACLS image suites: MARGIN_SEEDS; temperature scaling as both codes fit it
 * (`ts-grid-ece`: T from 0.1, 0.2, …, 10 by validation ECE, the MbLS code's `set_temperature`) with Guo et al.'s NLL
 * fit (`temperature`) beside it; a swept method's value chosen by validation ECE.
 */
export const MARGIN_EVALUATION = {
  seeds: MARGIN_SEEDS,
  posthoc: ['ts-grid-ece', 'temperature'] as const,
  select: 'ece' as const,
};

/**
 * The description's sentences on the scales of MARGIN_TRAINING and on what is not reproduced from the code, shared
 * by both suites; `paperModel` and `paperSource` complete the paper scale's "CIFAR-10 ResNet-50…, 350 epochs, η ÷10
 * at 150 and 250…".
 */
export function marginScalesDescription(paperModel: string, paperSource: string): string {
  return (
    "quick: MNIST MLP smoke test; machine: a 512-unit MLP on 10,000 Fashion-MNIST images (5,000 more validate), 30 epochs without weight decay (so that CE ends overconfident, the paper's premise; the paper uses 5e-4 on ResNets), η ÷10 at 150/350 and 250/350 of the epochs as the paper, the epoch of best validation accuracy and TS by validation ECE on the grid 0.1…10 as the official code, 5 seeds; " +
    `paper: CIFAR-10 ResNet-50${paperModel}, 350 epochs, η ÷10 at 150 and 250${paperSource}. ` +
    "Not reproduced from the code: its gradient-norm clipping at 2 (the toolkit's trainer has none)."
  );
}

/**
 * The margin of MbLS and ACLS on a 10-class task: MbLS §5 "Our method" (m = 6 on CIFAR-10 and 20 Newsgroups, 10 on
 * Tiny-ImageNet, CUB-200-2011 and Pascal VOC, chosen on validation), ACLS §4.1 ("We set the margin M to 6 for
 * CIFAR10, and 10 for other datasets, following [MbLS]").
 */
export const TEN_CLASS_MARGIN = 6;

/** The margin both papers use on Tiny-ImageNet, CUB-200-2011 and PASCAL VOC (MbLS App. B: VOC takes Tiny-ImageNet's). */
export const TINY_IMAGENET_MARGIN = 10;
