/**
 * Learning-rate schedules, computed on the host and fed to the compiled step as a scalar input (one compiled
 * step serves the whole run). A schedule maps t — the 0-based index of the step (or of the epoch: wrap with
 * `perEpoch`) — to a learning rate, with PyTorch's closed forms:
 *   constant:   η₀
 *   step:       η₀ · γ^⌊t / s⌋                                   (StepLR)
 *   multi-step: η₀ · γ^{#milestones ≤ t}                          (MultiStepLR)
 *   cosine:     η_min + (η₀ − η_min) · (1 + cos(π · min(t, T) / T)) / 2   (CosineAnnealingLR, closed form)
 *   warm-up:    inner(t) · (f₀ + (1 − f₀) · min(t, W) / W)       (LinearLR(start_factor f₀, total_iters W)
 *                                                                  chained multiplicatively with `inner`)
 */
import { describe, InvalidArgumentError, requireNumber } from '../util/errors.js';

/** t (0-based step or epoch index) → learning rate. */
export type LrSchedule = (t: number) => number;

function checkT(t: number): number {
  return requireNumber('t', t, { min: 0, integer: true });
}

/** η₀ at every t. */
export function constantLr(lr: number): LrSchedule {
  requireNumber('lr', lr, { min: 0 });
  return (t) => (checkT(t), lr);
}

/** η₀ · γ^⌊t / stepSize⌋. */
export function stepLr(lr: number, stepSize: number, gamma = 0.1): LrSchedule {
  requireNumber('lr', lr, { min: 0 });
  requireNumber('stepSize', stepSize, { min: 1, integer: true });
  requireNumber('gamma', gamma, { min: 0 });
  return (t) => lr * gamma ** Math.floor(checkT(t) / stepSize);
}

/** η₀ · γ^k where k is the number of milestones ≤ t (milestones strictly increasing). */
export function multiStepLr(lr: number, milestones: readonly number[], gamma = 0.1): LrSchedule {
  requireNumber('lr', lr, { min: 0 });
  requireNumber('gamma', gamma, { min: 0 });
  const ok = Array.isArray(milestones) && milestones.every((m, i) => Number.isInteger(m) && m >= 0 && (i === 0 || m > milestones[i - 1]!));
  if (!ok) throw new InvalidArgumentError('milestones', 'strictly increasing non-negative integers', describe(milestones));
  const ms = [...milestones];
  return (t) => {
    checkT(t);
    let k = 0;
    while (k < ms.length && ms[k]! <= t) k++;
    return lr * gamma ** k;
  };
}

/** Cosine annealing from η₀ to `minLr` over `total` steps, then `minLr`. */
export function cosineLr(lr: number, total: number, minLr = 0): LrSchedule {
  requireNumber('lr', lr, { min: 0 });
  requireNumber('total', total, { min: 1, integer: true });
  requireNumber('minLr', minLr, { min: 0 });
  return (t) => minLr + ((lr - minLr) * (1 + Math.cos((Math.PI * Math.min(checkT(t), total)) / total))) / 2;
}

/** Linear warm-up over `warmup` steps from `startFactor` · inner(t) to inner(t), multiplied into `inner`. */
export function linearWarmup(inner: LrSchedule, warmup: number, startFactor = 0): LrSchedule {
  if (typeof inner !== 'function') throw new InvalidArgumentError('inner', 'a schedule function', describe(inner));
  requireNumber('warmup', warmup, { min: 0, integer: true });
  requireNumber('startFactor', startFactor, { min: 0, max: 1 });
  return (t) => {
    const f = warmup === 0 ? 1 : startFactor + ((1 - startFactor) * Math.min(checkT(t), warmup)) / warmup;
    return inner(t) * f;
  };
}

/** A per-epoch schedule driven by a step counter: t ↦ schedule(⌊t / stepsPerEpoch⌋). */
export function perEpoch(schedule: LrSchedule, stepsPerEpoch: number): LrSchedule {
  if (typeof schedule !== 'function') throw new InvalidArgumentError('schedule', 'a schedule function', describe(schedule));
  requireNumber('stepsPerEpoch', stepsPerEpoch, { min: 1, integer: true });
  return (t) => schedule(Math.floor(checkT(t) / stepsPerEpoch));
}
