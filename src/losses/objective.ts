import type { Tensor } from '../engine/index.js';
import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import { LossInput } from './loss-input.js';
import { termWeight } from './define-loss.js';
import { lossDefinition } from './registry.js';
import type { LossResult, LossTargetsLike } from './types.js';

/** One loss of an objective: its registry name and options. */
export interface LossSpecifier {
  readonly name: string;
  readonly options?: Readonly<Record<string, unknown>>;
}

/** A training objective: primary + weight · secondary (METHODS.md § Secondary terms). */
export interface ObjectiveSpec {
  /** The primary loss (default CE). A 'combined' method (MbLS, ACLS, …) may be the primary. */
  readonly primary?: LossSpecifier;
  /** An optional secondary term (role 'term', e.g. sb-ece-bin, mmce, s-avuc) and its weight β ≥ 0 (default: the term's `defaultWeight`, e.g. 2 for MMCE, else 1). */
  readonly secondary?: LossSpecifier & { readonly weight?: number };
  /** Label value to ignore (segmentation), applied to both losses. */
  readonly ignoreIndex?: number;
}

/**
 * loss = primary.loss + β · secondary.loss, with terms { [primary name]: primary loss, [secondary name]: secondary
 * loss } plus each loss's own terms as `name.term` when it has several. β must be a finite number ≥ 0.
 */
export function combineLosses(primary: { readonly name: string; readonly result: LossResult }, secondary: { readonly name: string; readonly result: LossResult }, weight: number): LossResult {
  const beta = requireNumber('weight', weight, { min: 0 });
  const terms: Record<string, Tensor> = {};
  for (const part of [primary, secondary]) {
    terms[part.name] = part.result.loss;
    const inner = Object.entries(part.result.terms);
    if (inner.length > 1) for (const [k, v] of inner) terms[`${part.name}.${k}`] = v;
  }
  return { loss: primary.result.loss.add(secondary.result.loss.mul(beta)), terms };
}

/**
 * Build an objective function `(logits, targets) → LossResult` from names and options, validating everything once,
 * up front: unknown loss or option names, bad values, a secondary that is not a term ('term' role), β < 0.
 * Both losses share one prepared input (one fused CE, one softmax).
 *
 *   const objective = calibrationObjective({ primary: { name: 'focal', options: { gamma: 3 } },
 *                                            secondary: { name: 'sb-ece-lb', options: { temperature: 0.01 }, weight: 1 } });
 *   const { loss, terms } = objective(logits, labels);   // inside a traced train step
 */
export function calibrationObjective(spec: ObjectiveSpec = {}): (logits: Tensor, targets: LossTargetsLike) => LossResult {
  if (typeof spec !== 'object' || spec === null) invalidArgument('objective', '{ primary?, secondary?, ignoreIndex? }', describe(spec));
  const primaryName = spec.primary?.name ?? 'ce';
  const primary = lossDefinition(primaryName, 'primary');
  if (primary.role === 'term') {
    invalidArgument('primary', `a primary loss or combined method (not the term ${JSON.stringify(primaryName)}; give it as secondary)`, describe(primaryName));
  }
  const primaryOptions = primary.resolve(spec.primary?.options);
  const ignoreIndex = spec.ignoreIndex === undefined ? undefined : requireNumber('ignoreIndex', spec.ignoreIndex, { integer: true });
  const secondary = spec.secondary ? lossDefinition(spec.secondary.name, 'secondary') : null;
  if (secondary && secondary.role !== 'term') {
    invalidArgument('secondary', 'a calibration term (sb-ece-bin, sb-ece-lb, avuc, avuc-gs, s-avuc, mmce, mmce-weighted, mdca, dca, arc)', describe(spec.secondary!.name));
  }
  const secondaryOptions = secondary?.resolve(spec.secondary!.options);
  const weight = secondary ? requireNumber('weight', termWeight(secondary, spec.secondary!.weight), { min: 0 }) : 0;
  const needs = primary.targets === 'labels' || secondary?.targets === 'labels' ? 'labels' : 'labels-or-soft';
  return (logits, targets) => {
    const input = LossInput.prepare(primaryName, logits, targets, needs, ignoreIndex);
    const p = primary.compute(input, primaryOptions);
    if (!secondary) return p;
    const s = secondary.compute(input, secondaryOptions!);
    return combineLosses({ name: primaryName, result: p }, { name: secondary.name, result: s }, weight);
  };
}
