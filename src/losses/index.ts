/**
 * Calibration losses on engine tensors (METHODS.md § Primary losses, § Secondary terms): one file per loss, each a
 * `defineLoss` declaration (typed option schema, defaults, role, per-example vs batch scope) plus a plain function.
 * `LOSSES` is the registry; `calibrationObjective` builds primary + β·secondary.
 */
export type { LossTargets, LossTargetsLike, LossResult, CommonLossOptions, CorrectnessHistoryInput, LossRole, LossScope } from './types.js';
export {
  type LossOption,
  type OptionsSchema,
  type LossOptions,
  type ResolvedOptions,
  resolveOptions,
  describeOptions,
} from './options.js';
export { LossInput, rowCount, type FloatDType } from './loss-input.js';
export {
  defineLoss,
  reducePerExample,
  termWeight,
  type LossDefinition,
  type LossSpec,
  type LossSpecBase,
  type PerExampleLossSpec,
  type BatchLossSpec,
  type PerExampleRows,
} from './define-loss.js';
export { LOSSES, LOSS_NAMES, lossDefinition, computeLoss, type LossName, type LossOptionsOf } from './registry.js';
export { calibrationObjective, combineLosses, type ObjectiveSpec, type LossSpecifier } from './objective.js';
export { CorrectnessHistory, CRL_HOST_STATE } from './crl-history.js';
export type { HostStateDeclaration, LossHostState, HostInputSpec, HostFeed } from './host-state.js';
export { ce, crossEntropyLoss } from './ce.js';
export { softCe, softLabelCrossEntropy } from './soft-ce.js';
export { ls, labelSmoothingLoss } from './ls.js';
export { focal, focalLoss, focalRows, FOCAL_BASE_FLOOR } from './focal.js';
export { flsd53, flsd53Loss } from './flsd53.js';
export { ecp, confidencePenaltyLoss, ECP_EPS } from './ecp.js';
export { erl, entropyRegularizedLoss } from './erl.js';
export { mse, brierLoss } from './mse.js';
export { mbls, marginLabelSmoothingLoss } from './mbls.js';
export { acls, aclsLoss } from './acls.js';
export { cpc, pairwiseConstraintsLoss, softplus } from './cpc.js';
export { crl, correctnessRankingLoss } from './crl.js';
export { mmce, mmceLoss, mmceKernel, MMCE_KERNEL_WIDTH, MMCE_MAX_ROWS } from './mmce.js';
export { mmceWeighted, mmceWeightedLoss, MMCE_KUMAR_EPS, MMCE_WEIGHTED_EPS } from './mmce-weighted.js';
export { mdca, mdcaLoss } from './mdca.js';
export { dca, dcaLoss } from './dca.js';
export { arc, arcLoss, hardBinMembership } from './arc.js';
export { sbEceBin, softBinnedEceLoss } from './sb-ece-bin.js';
export { SB_ECE_ROOT_FLOOR } from './soft-bins.js';
export { sbEceLb, softBinnedLabelEceLoss, labelBinnedCodeCenters } from './sb-ece-lb.js';
export { softBinMembership } from './soft-bins.js';
export { avuc, avucLoss, avucTerm, AVUC_OPTIONS } from './avuc.js';
export { avucGs, avucGsLoss } from './avuc-gs.js';
export { sAvuc, softAvucLoss, S_AVUC_ENTROPY_CLAMP } from './s-avuc.js';
export { avucEntropy, avucRatio, AVUC_EPS } from './avuc-ratio.js';
export { evaluateLoss, type HostArray, type HostLossInputs, type HostLossSpec, type HostLossResult } from './evaluate-loss.js';
