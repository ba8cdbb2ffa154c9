/**
 * Calibration losses on engine tensors (METHODS.md § Primary losses, § Secondary terms): one file per loss, each a
 * `defineLoss` declaration (typed option schema, defaults, role, per-example vs batch scope) plus a plain function.
 * `LOSSES` is the registry; `calibrationObjective` builds primary + β·secondary.
 */
export type { LossTargets, LossTargetsLike, LossResult, CommonLossOptions, CorrectnessHistoryInput, LossRole, LossScope } from './types.js';
export { type LossOption, type OptionsSchema, type LossOptions, type ResolvedOptions, resolveOptions, describeOptions } from './options.js';
export { LossInput, rowCount, type FloatDType } from './loss-input.js';
export { defineLoss, reducePerExample, termWeight, type LossDefinition, type LossSpec, type LossSpecBase, type PerExampleLossSpec, type BatchLossSpec, type PerExampleRows } from './define-loss.js';
export { LOSSES, LOSS_NAMES, lossDefinition, computeLoss, type LossName, type LossOptionsOf } from './registry.js';
export { calibrationObjective, combineLosses, type ObjectiveSpec, type LossSpecifier } from './objective.js';
export { CorrectnessHistory, CRL_HOST_STATE } from './combined/crl-history.js';
export type { HostStateDeclaration, LossHostState, HostInputSpec, HostFeed } from './host-state.js';
export { ce, crossEntropyLoss } from './primary/ce.js';
export { softCe, softLabelCrossEntropy } from './primary/soft-ce.js';
export { ls, labelSmoothingLoss } from './primary/ls.js';
export { focal, focalLoss, focalRows, FOCAL_BASE_FLOOR } from './primary/focal.js';
export { flsd53, flsd53Loss } from './primary/flsd53.js';
export { ecp, confidencePenaltyLoss, ECP_EPS } from './combined/ecp.js';
export { erl, entropyRegularizedLoss } from './combined/erl.js';
export { mse, brierLoss } from './primary/mse.js';
export { mbls, marginLabelSmoothingLoss } from './combined/mbls.js';
export { acls, aclsLoss } from './combined/acls.js';
export { cpc, pairwiseConstraintsLoss, softplus } from './combined/cpc.js';
export { crl, correctnessRankingLoss } from './combined/crl.js';
export { mmce, mmceLoss, mmceKernel, MMCE_KERNEL_WIDTH, MMCE_MAX_ROWS } from './terms/mmce.js';
export { mmceWeighted, mmceWeightedLoss, MMCE_KUMAR_EPS, MMCE_WEIGHTED_EPS } from './terms/mmce-weighted.js';
export { mdca, mdcaLoss } from './terms/mdca.js';
export { dca, dcaLoss } from './terms/dca.js';
export { arc, arcLoss, hardBinMembership } from './terms/arc.js';
export { sbEceBin, softBinnedEceLoss } from './terms/sb-ece-bin.js';
export { SB_ECE_ROOT_FLOOR } from './terms/soft-bins.js';
export { sbEceLb, softBinnedLabelEceLoss, labelBinnedCodeCenters } from './terms/sb-ece-lb.js';
export { softBinMembership } from './terms/soft-bins.js';
export { avuc, avucLoss, avucTerm, AVUC_OPTIONS } from './terms/avuc.js';
export { avucGs, avucGsLoss } from './terms/avuc-gs.js';
export { sAvuc, softAvucLoss, S_AVUC_ENTROPY_CLAMP } from './terms/s-avuc.js';
export { avucEntropy, avucRatio, AVUC_EPS } from './terms/avuc-ratio.js';
export { evaluateLoss, type HostArray, type HostLossInputs, type HostLossSpec, type HostLossResult } from './evaluate-loss.js';
