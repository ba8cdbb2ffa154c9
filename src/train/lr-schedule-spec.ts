/**
 * Learning-rate schedules written as strings (the CLI's `--schedule`), turned into the optimizer package's
 * closed-form schedules (src/optim/schedule.ts, PyTorch semantics), stepped once per epoch as PyTorch's
 * `scheduler.step()` after each epoch, with an optional linear warm-up stepped per update:
 *
 *   constant                 η₀
 *   cosine                   CosineAnnealingLR(T_max = epochs, η_min = 0): η₀ (1 + cos(π e / E)) / 2
 *   step:S[,γ]               StepLR(step_size = S epochs, γ = 0.1 by default)
 *   multistep:m1,m2,…[:γ]    MultiStepLR(milestones, γ = 0.1 by default); a milestone < 1 is a fraction of the
 *                            epochs (0.5 → epoch round(0.5 E)), e.g. the papers' ÷10 at 50 % and 75 %; fractions
 *                            that round onto the epoch of the previous milestone are dropped (short runs)
 *
 *   lr(step t in epoch e) = schedule(e) · w(t),  w(t) = min(1, (t + 1) / (W · steps per epoch)) for W warm-up
 *   epochs (w ≡ 1 without warm-up; the first update already uses a non-zero rate).
 */
import { describe, invalidArgument, requireNumber } from '../util/errors.js';
import { constantLr, cosineLr, type LrSchedule, multiStepLr, stepLr } from '../optim/schedule.js';
import type { Schema } from '../util/schema.js';
import { didYouMean } from '../util/typo-hint.js';

/** The schedule kinds, the part of a schedule string before its first ':'. */
export const SCHEDULE_KINDS = ['constant', 'cosine', 'step', 'multistep'] as const;

/** A schedule string as the type checker sees it: a known kind, with the parameters of the kinds that take them. */
export type ScheduleText = 'constant' | 'cosine' | `step:${string}` | `multistep:${string}`;

const SCHEDULE_USAGE = 'constant, cosine, step:S[,γ] or multistep:m1,m2,…[:γ]';

/**
 * The option schema of a schedule string: its kind is checked where it is read (a typo hint names the closest
 * kind); the parameters need the run's epochs and are checked by `parseSchedule` with the whole configuration.
 */
export function scheduleText(): Schema<ScheduleText> {
  return {
    type: 'string',
    expected: SCHEDULE_USAGE,
    parse(value, path) {
      if (typeof value !== 'string') return invalidArgument(path, SCHEDULE_USAGE, describe(value));
      const kind = value.trim().split(':')[0]!;
      if (!(SCHEDULE_KINDS as readonly string[]).includes(kind)) invalidArgument(path, `${SCHEDULE_USAGE}${didYouMean(kind, SCHEDULE_KINDS)}`, describe(value));
      return value as ScheduleText;
    },
  };
}

/** A parsed schedule string. */
export type ScheduleSpec =
  | { readonly kind: 'constant' }
  | { readonly kind: 'cosine' }
  | { readonly kind: 'step'; readonly stepSize: number; readonly gamma: number }
  | { readonly kind: 'multistep'; readonly milestones: readonly number[]; readonly gamma: number };

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

function num(text: string, argument: string): number {
  if (!NUMBER.test(text.trim())) invalidArgument(argument, 'a number', describe(text));
  return Number(text);
}

/**
 * Parse a schedule string for a run of `epochs` epochs (milestone fractions become epoch numbers). Errors name
 * `argument`.
 */
export function parseSchedule(text: string, epochs: number, argument = 'schedule'): ScheduleSpec {
  if (typeof text !== 'string') invalidArgument(argument, 'a schedule string', describe(text));
  requireNumber('epochs', epochs, { integer: true, min: 1 });
  const usage = SCHEDULE_USAGE;
  const [kind, ...rest] = text.trim().split(':');
  switch (kind) {
    case 'constant':
    case 'cosine':
      if (rest.length) invalidArgument(argument, `'${kind}' without parameters`, describe(text));
      return { kind };
    case 'step': {
      if (rest.length !== 1) invalidArgument(argument, 'step:S[,γ] (S epochs between decays)', describe(text));
      const [s, g, ...more] = rest[0]!.split(',');
      if (more.length) invalidArgument(argument, 'step:S[,γ]', describe(text));
      const stepSize = requireNumber(`${argument} step size`, num(s!, argument), { integer: true, min: 1 });
      const gamma = g === undefined ? 0.1 : requireNumber(`${argument} γ`, num(g, argument), { min: 0 });
      return { kind, stepSize, gamma };
    }
    case 'multistep': {
      if (rest.length < 1 || rest.length > 2 || rest[0] === '') invalidArgument(argument, 'multistep:m1,m2,…[:γ]', describe(text));
      const raw = rest[0]!.split(',').map((m) => num(m, argument));
      const converted = raw.map((m, i) => {
        const e = m < 1 ? Math.round(m * epochs) : m;
        requireNumber(`${argument} milestone ${i + 1}`, e, { integer: true, min: 0 });
        return e;
      });
      // Fractions of a short run may round onto the same epoch: keep one decay there.
      const milestones = converted.filter((e, i) => !(raw[i]! < 1 && i > 0 && e === converted[i - 1]));
      milestones.forEach((m, i) => {
        if (i > 0 && m <= milestones[i - 1]!) invalidArgument(argument, 'strictly increasing milestones (after turning fractions into epochs)', `[${milestones.join(', ')}] for ${epochs} epochs`);
      });
      const gamma = rest[1] === undefined ? 0.1 : requireNumber(`${argument} γ`, num(rest[1], argument), { min: 0 });
      return { kind, milestones, gamma };
    }
    default:
      return invalidArgument(argument, usage, describe(text));
  }
}

/** The per-epoch schedule of a spec with base rate `lr` over `epochs` epochs. */
export function epochSchedule(spec: ScheduleSpec, lr: number, epochs: number): LrSchedule {
  switch (spec.kind) {
    case 'constant':
      return constantLr(lr);
    case 'cosine':
      return cosineLr(lr, epochs);
    case 'step':
      return stepLr(lr, spec.stepSize, spec.gamma);
    case 'multistep':
      return multiStepLr(lr, spec.milestones, spec.gamma);
  }
}

/** Learning rate of every update: per-epoch schedule times the per-step warm-up factor. */
export class LearningRate {
  private readonly perEpoch: LrSchedule;
  private readonly warmupSteps: number;

  constructor(
    spec: ScheduleSpec,
    readonly base: number,
    readonly epochs: number,
    readonly stepsPerEpoch: number,
    warmupEpochs = 0,
  ) {
    requireNumber('stepsPerEpoch', stepsPerEpoch, { integer: true, min: 1 });
    requireNumber('warmupEpochs', warmupEpochs, { min: 0 });
    this.perEpoch = epochSchedule(spec, base, epochs);
    this.warmupSteps = Math.round(warmupEpochs * stepsPerEpoch);
  }

  /** Rate of update `stepInEpoch` (0-based) of `epoch` (0-based). */
  at(epoch: number, stepInEpoch: number): number {
    const t = epoch * this.stepsPerEpoch + stepInEpoch;
    const w = this.warmupSteps === 0 ? 1 : Math.min(1, (t + 1) / this.warmupSteps);
    return this.perEpoch(epoch) * w;
  }

  /** Rate at the start of `epoch` (after warm-up), for logs. */
  ofEpoch(epoch: number): number {
    return this.perEpoch(epoch);
  }
}
