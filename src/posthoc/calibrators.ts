/**
 * Every post-hoc calibrator, in the order `calib fit --help` and the README list them. Each entry is the
 * declaration in the method's own file (calibrator-definition.ts): from this list come the method names
 * (`CalibratorKind`, `CALIBRATOR_KINDS`), `fitCalibrator` / `calibratorFromJSON` (registry.ts), the input each
 * method works on, `calib fit --method` with its `--help` and two-class check, suite files' `posthoc` names, the
 * ONNX exporter of `calib export` (onnx/index.ts) and the README's calibrator table (`npm run docs`).
 *
 * ## How to add a calibrator (one file plus one test)
 * 1. Write `src/posthoc/<name>.ts`: its options (posthoc/options.ts: default, bounds, description), the fit
 *    function, the fitted immutable calibrator (`apply`, `toJSON`, optionally `applyLogits`), `fromJSON`, and
 *    `export const <name>Definition = defineCalibrator({ kind, summary, input, classes, keepsArgmax, options,
 *    fit, fromJSON, onnx })` — `onnx` is an emitter from posthoc/onnx/ or `{ notExpressible: 'why' }`.
 * 2. Add the definition to `DEFINITIONS` below, then `npm run docs` to refresh the README table.
 * 3. Write `test/posthoc/<name>.test.ts` against independently computed values. test/posthoc/registry.test.ts
 *    already checks every entry: fit → JSON → fromJSON round trip bit for bit, rows summing to 1, argmax kept
 *    where declared, option validation naming the option, and (test/deploy/export-equivalence.test.ts) the ONNX
 *    export against `apply` in onnxruntime-node and -web.
 */
import { describe, invalidArgument } from '../util/errors.js';
import { didYouMean } from '../util/typo-hint.js';
import type { CalibratorDefinition, CalibratorInput } from './calibrator-definition.js';
import type { OptionsOf } from './options.js';
import { betaDefinition } from './scaling/beta.js';
import { bbqDefinition } from './nonparametric/bbq.js';
import { classTemperatureDefinition } from './temperature/class-temperature.js';
import { dirichletDefinition } from './scaling/dirichlet.js';
import { enirDefinition } from './nonparametric/enir.js';
import { ensembleTemperatureDefinition } from './temperature/ensemble-temperature.js';
import { histogramDefinition } from './nonparametric/histogram.js';
import { isotonicDefinition } from './nonparametric/isotonic.js';
import { matrixDefinition } from './scaling/matrix.js';
import { nearIsotonicDefinition } from './nonparametric/near-isotonic.js';
import { plattDefinition } from './scaling/platt.js';
import { quadraticScalingDefinition } from './scaling/quadratic-scaling.js';
import { smsDefinition } from './scaling/sms.js';
import { svsDefinition } from './scaling/svs.js';
import { tsMixDefinition } from './temperature/ts-mix.js';
import { scalingBinningDefinition } from './nonparametric/scaling-binning.js';
import { splineDefinition } from './nonparametric/spline.js';
import { temperatureDefinition } from './temperature/temperature.js';
import { topLabelDefinition } from './composite/top-label-calibrator.js';
import { topVersusAllDefinition } from './composite/top-versus-all.js';
import { tsGridEceDefinition } from './temperature/ts-grid-ece.js';
import { tsHbEceDefinition } from './temperature/ts-hb-ece.js';
import { tsSbEceDefinition } from './temperature/ts-sb-ece.js';
import { vectorDefinition } from './scaling/vector.js';
import { vennAbersDefinition } from './nonparametric/venn-abers.js';

const DEFINITIONS = [
  temperatureDefinition,
  tsSbEceDefinition,
  tsHbEceDefinition,
  tsGridEceDefinition,
  ensembleTemperatureDefinition,
  tsMixDefinition,
  vectorDefinition,
  matrixDefinition,
  dirichletDefinition,
  svsDefinition,
  smsDefinition,
  histogramDefinition,
  isotonicDefinition,
  plattDefinition,
  betaDefinition,
  quadraticScalingDefinition,
  classTemperatureDefinition,
  topVersusAllDefinition,
  topLabelDefinition,
  scalingBinningDefinition,
  vennAbersDefinition,
  splineDefinition,
  bbqDefinition,
  enirDefinition,
  nearIsotonicDefinition,
] as const;

type Definitions = (typeof DEFINITIONS)[number];

/** A calibration method's name (`fitCalibrator`, `calib fit --method`), also the `kind` of its JSON. */
export type CalibratorKind = Definitions['kind'];

/** The options accepted by each method. */
export type CalibratorOptions = { [D in Definitions as D['kind']]: OptionsOf<D['options']> };

/** Every method name, in the record's order. */
export const CALIBRATOR_KINDS: readonly CalibratorKind[] = Object.freeze(DEFINITIONS.map((d) => d.kind));

/** Every calibrator's declaration by name. */
export const CALIBRATORS: Readonly<Record<CalibratorKind, CalibratorDefinition>> = Object.freeze(
  Object.fromEntries(DEFINITIONS.map((d) => [d.kind, d as CalibratorDefinition])) as Record<CalibratorKind, CalibratorDefinition>,
);

/** What each method works on (other inputs are converted). */
export const CALIBRATOR_INPUTS: Readonly<Record<CalibratorKind, CalibratorInput>> = Object.freeze(
  Object.fromEntries(DEFINITIONS.map((d) => [d.kind, d.input])) as Record<CalibratorKind, CalibratorInput>,
);

/** Whether `value` names a calibrator. */
export function isCalibratorKind(value: unknown): value is CalibratorKind {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(CALIBRATORS, value);
}

/** The declaration of the calibrator `value`, or an `InvalidArgumentError` naming `argument` and the known names. */
export function calibratorDefinition(argument: string, value: unknown): CalibratorDefinition {
  if (!isCalibratorKind(value)) invalidArgument(argument, `one of ${CALIBRATOR_KINDS.join(', ')}${didYouMean(value, CALIBRATOR_KINDS)}`, describe(value));
  return CALIBRATORS[value];
}
