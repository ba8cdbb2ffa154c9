/**
 * The loss functions a run traces into its compiled steps, built from the loss registry (src/losses):
 *
 *   'full'       primary + β · secondary on the batch (calibrationObjective; the usual case)
 *   'primary'    the primary loss alone (first pass of an interleaved epoch)
 *   'secondary'  β · secondary alone (second pass of an interleaved epoch, on the held-out part)
 *   placement    primary on rows [0, B) + β · secondary on the extra rows [B, B + B_a) of a concatenated batch
 *                (the 'sources' / 'holdout' secondary placements, see src/augment/secondary-placement.ts)
 *
 * Targets: int32 labels [N] or float32 soft targets [N, C] (mixup). A stateful primary loss (one that declares
 * `hostState`, e.g. CRL) gets its host state through the step's extra inputs it declares (src/losses/host-state.ts).
 */
import type { Tensor } from '../../engine/index.js';
import { splitRows } from '../../augment/secondary-placement.js';
import type { HostStateDeclaration } from '../../losses/host-state.js';
import { calibrationObjective, combineLosses } from '../../losses/objective.js';
import { lossDefinition } from '../../losses/registry.js';
import type { LossResult, LossTargets } from '../../losses/types.js';
import type { TensorTree } from '../../nn/tree.js';
import { requireNumber } from '../../util/errors.js';
import type { LossFn } from '../steps/loss-fn.js';

/** The loss settings of a run (a subset of TrainConfig). */
export interface ObjectiveSettings {
  readonly loss: string;
  readonly lossOptions: Readonly<Record<string, unknown>>;
  readonly secondary?: string | undefined;
  readonly secondaryOptions: Readonly<Record<string, unknown>>;
  readonly weight: number;
  /** Label value of positions left out of the loss (dense targets, e.g. 255 of segmentation masks); default none. */
  readonly ignoreIndex?: number;
}

/** The host-state declaration of the run's primary loss, or null for a stateless loss. */
export function primaryHostState(settings: ObjectiveSettings): HostStateDeclaration | null {
  return lossDefinition(settings.loss).hostState ?? null;
}

/** Turn a step's targets tensor (+ the host state's extra inputs) into the losses' targets record. */
export function lossTargets(targets: Tensor, extras: TensorTree, host: HostStateDeclaration | null): LossTargets {
  const base: LossTargets = targets.dtype === 'float32' || targets.dtype === 'float64' ? { soft: targets } : { labels: targets };
  if (!host) return base;
  const inputs: Record<string, Tensor> = {};
  for (const name of Object.keys(host.inputs)) inputs[name] = extras[name] as Tensor;
  return { ...base, ...host.targets(inputs) };
}

function asOutput(result: LossResult): { loss: Tensor; terms: Record<string, Tensor> } {
  return { loss: result.loss, terms: { ...result.terms } };
}

/** Which loss a step optimises. */
export type ObjectivePart = 'full' | 'primary' | 'secondary';

/** The loss function of `part` (validated up front: unknown names or options throw here, not at trace time). */
export function objectiveLossFn(settings: ObjectiveSettings, part: ObjectivePart = 'full'): LossFn {
  const host = primaryHostState(settings);
  const primary = { name: settings.loss, options: settings.lossOptions };
  if (part === 'secondary') {
    const name = settings.secondary!;
    const def = lossDefinition(name, 'secondary');
    def.resolve(settings.secondaryOptions);
    const beta = requireNumber('weight', settings.weight, { min: 0 });
    return (logits, targets, extras) => {
      const s = def.apply(logits, lossTargets(targets, extras, null), settings.secondaryOptions as never);
      const terms: Record<string, Tensor> = { [name]: s.loss };
      const inner = Object.entries(s.terms);
      if (inner.length > 1) for (const [k, v] of inner) terms[`${name}.${k}`] = v;
      return { loss: s.loss.mul(beta), terms };
    };
  }
  const ignore = settings.ignoreIndex === undefined ? {} : { ignoreIndex: settings.ignoreIndex };
  const objective = calibrationObjective(
    part === 'primary' || settings.secondary === undefined
      ? { primary, ...ignore }
      : { primary, secondary: { name: settings.secondary, options: settings.secondaryOptions, weight: settings.weight }, ...ignore },
  );
  return (logits, targets, extras) => asOutput(objective(logits, lossTargets(targets, extras, host)));
}

/**
 * Primary loss on the first `mainRows` rows and β · secondary on the remaining rows (labels; soft one-hot rows
 * become their argmax) of a concatenated batch.
 */
export function placementLossFn(settings: ObjectiveSettings, mainRows: number): LossFn {
  requireNumber('mainRows', mainRows, { integer: true, min: 1 });
  const name = settings.secondary!;
  const def = lossDefinition(name, 'secondary');
  def.resolve(settings.secondaryOptions);
  const primary = calibrationObjective({ primary: { name: settings.loss, options: settings.lossOptions } });
  const weight = requireNumber('weight', settings.weight, { min: 0 });
  return (logits, targets, extras) => {
    const { main, extra } = splitRows(logits, targets, mainRows);
    const p = primary(main.logits, lossTargets(main.targets, extras, null));
    const s = def.apply(extra.logits, { labels: extra.labels }, settings.secondaryOptions as never);
    return asOutput(combineLosses({ name: settings.loss, result: p }, { name, result: s }, weight));
  };
}
