import type { Tensor } from '../engine/index.js';
import { describe, invalidArgument } from '../util/errors.js';
import { didYouMean } from '../util/typo-hint.js';
import { acls } from './combined/acls.js';
import { arc } from './terms/arc.js';
import { avuc } from './terms/avuc.js';
import { avucGs } from './terms/avuc-gs.js';
import { ce } from './primary/ce.js';
import { cpc } from './combined/cpc.js';
import { crl } from './combined/crl.js';
import { dca } from './terms/dca.js';
import type { LossDefinition } from './define-loss.js';
import { ecp } from './combined/ecp.js';
import { erl } from './combined/erl.js';
import { flsd53 } from './primary/flsd53.js';
import { focal } from './primary/focal.js';
import { ls } from './primary/ls.js';
import { mbls } from './combined/mbls.js';
import { mdca } from './terms/mdca.js';
import { mmce } from './terms/mmce.js';
import { mmceWeighted } from './terms/mmce-weighted.js';
import { mse } from './primary/mse.js';
import type { LossOptions, OptionsSchema } from './options.js';
import { sAvuc } from './terms/s-avuc.js';
import { sbEceBin } from './terms/sb-ece-bin.js';
import { sbEceLb } from './terms/sb-ece-lb.js';
import { softCe } from './primary/soft-ce.js';
import type { LossResult, LossTargetsLike } from './types.js';

/**
 * The loss registry: every loss of the five papers by name (the CLI's names), with its typed option schema, defaults
 * and role. A plain constant table (no registration by import side effects).
 */
export const LOSSES = Object.freeze({
  ce,
  'soft-ce': softCe,
  ls,
  focal,
  flsd53,
  ecp,
  erl,
  mse,
  mbls,
  acls,
  cpc,
  crl,
  mmce,
  'mmce-weighted': mmceWeighted,
  mdca,
  dca,
  arc,
  'sb-ece-bin': sbEceBin,
  'sb-ece-lb': sbEceLb,
  avuc,
  'avuc-gs': avucGs,
  's-avuc': sAvuc,
});

export type LossName = keyof typeof LOSSES;

/** Every loss name, in table order. */
export const LOSS_NAMES = Object.freeze(Object.keys(LOSSES) as LossName[]);

/** Options accepted by loss `N`. */
export type LossOptionsOf<N extends LossName> = (typeof LOSSES)[N] extends LossDefinition<infer S> ? LossOptions<S> : never;

/** The definition of `name`; an unknown name is an `InvalidArgumentError` listing the known ones. */
export function lossDefinition(name: string, argument = 'loss'): LossDefinition<OptionsSchema> {
  if (typeof name !== 'string' || !Object.prototype.hasOwnProperty.call(LOSSES, name)) {
    invalidArgument(argument, `one of ${LOSS_NAMES.join(', ')}${didYouMean(name, LOSS_NAMES)}`, describe(name));
  }
  return LOSSES[name as LossName] as unknown as LossDefinition<OptionsSchema>;
}

/** Compute loss `name` of `logits` against `targets` with `options` (validated). */
export function computeLoss<N extends LossName>(name: N, logits: Tensor, targets: LossTargetsLike, options?: LossOptionsOf<N>): LossResult;
export function computeLoss(name: string, logits: Tensor, targets: LossTargetsLike, options?: Readonly<Record<string, unknown>>): LossResult;
export function computeLoss(name: string, logits: Tensor, targets: LossTargetsLike, options?: Readonly<Record<string, unknown>>): LossResult {
  return lossDefinition(name).apply(logits, targets, options as never);
}
