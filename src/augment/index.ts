/** Public API of the host-side augmentation: mixup family draws and label smoothing targets. */
export * from './mixup.js';
export * from './label-smoothing.js';
export * from './manifold-mixup.js';
export * from './secondary-placement.js';
export * from './interleaved.js';
export * from './cutmix.js';
