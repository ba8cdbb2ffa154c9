/** Optimizers as traced graph updates with explicit state, and host-side learning-rate schedules. */
export { type Optimizer, type UpdateArgs, type UpdateResult, masked } from './optimizer.js';
export { sgd, SGD_OPTIONS, type SgdOptions } from './sgd.js';
export { adam, adamw, ADAM_OPTIONS, ADAMW_OPTIONS, type AdamOptions } from './adam.js';
export { type LrSchedule, constantLr, stepLr, multiStepLr, cosineLr, linearWarmup, perEpoch } from './schedule.js';
export { createOptimizer, OPTIMIZERS, OPTIMIZER_NAMES, OPTIMIZER_OPTIONS, type OptimizerName, type OptimizerSpec } from './create.js';
export { rmsprop, RMSPROP_OPTIONS, type RmspropOptions } from './rmsprop.js';
export { adagrad, ADAGRAD_OPTIONS, type AdagradOptions } from './adagrad.js';
export { defineOptimizer, type OptimizerDefinition } from './optimizer-definition.js';
