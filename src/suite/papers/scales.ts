/**
 * Shared scale settings of the five paper suites (`calib suite run <paper> --scale quick|machine|paper`).
 *
 * - `quick`: the embedded MNIST digits, 2,000 images (500 of them validation), a 64-unit MLP, 3 epochs — a smoke
 *   test of every row of a suite in minutes.
 * - `machine`: Fashion-MNIST (Debian's dataset-fashion-mnist), a 15,000-image stratified subset of the training
 *   split of which 5,000 validate (so 10,000 train, as before: issue #22 — every selection and temperature fit used
 *   1,000 validation images, too few for the effects the papers claim), the full 10,000-image test set, an MLP
 *   with one 512-unit hidden layer, 30 epochs at η₀ = 0.1 without weight decay and the last epoch's weights. Without weight decay and with the last epoch kept, the MLP fits its 10,000
 *   images and keeps sharpening its softmax, so cross-entropy ends measurably overconfident — the regime every one
 *   of the five papers starts from (the same reasoning as the `demo` suite, measured there on MNIST: accuracy
 *   90.9 %, mean confidence 95.3 %). Estimated ≈ 2–3 CPU-minutes per run (10× the demo's 18 CPU-seconds per run
 *   for 10× the images·epochs); the run counts of each suite are chosen to stay near 2 hours.
 * - `paper`: the paper's own recipe (dataset, model, epochs, schedule), set per suite.
 */
export const QUICK = { dataset: 'mnist', subset: 2000, validation: 500, model: 'mlp', modelOptions: { hidden: [64] }, epochs: 3, batch: 64, lr: 0.1, weightDecay: 0, select: 'last' };

export const MACHINE = { dataset: 'fashion-mnist', subset: 15000, validation: 5000, model: 'mlp', modelOptions: { hidden: [512] }, epochs: 30, batch: 64, lr: 0.1, weightDecay: 0, select: 'last' };

/** The CIFAR recipe the papers share (SGD, momentum 0.9, weight decay 5e-4, batch 128, η₀ = 0.1, 10 % validation). */
export const CIFAR_RECIPE = { dataset: 'cifar10', validation: 5000, batch: 128, lr: 0.1, momentum: 0.9, weightDecay: 5e-4, select: 'accuracy', augment: 'auto' };

/** Base keys common to every scale. */
export const BASE = { threads: 2 };
