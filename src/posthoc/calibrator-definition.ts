/**
 * What a post-hoc calibrator declares about itself, once, in its own file: `defineCalibrator({...})`. The
 * `CALIBRATORS` record (calibrators.ts) lists the declarations; from it come the method names (`CalibratorKind`),
 * `fitCalibrator` / `calibratorFromJSON`, the input each method works on, `calib fit --method` and its `--help`,
 * the two-class check, the ONNX exporter of `calib export`, and the README's calibrator table (`npm run docs`).
 */
import type { Calibrator, Predictions } from './calibrator.js';
import type { FitOptions } from './fit-progress.js';
import type { CalibratorToOnnx } from './onnx/snippet.js';
import type { OptionsOf, OptionSpecs } from './options.js';

/** What a method fits on; predictions of the other kind are converted (predictions.ts). */
export type CalibratorInput = 'logits' | 'log-probabilities' | 'probabilities';

/** The declaration of one calibrator method. */
export interface CalibratorDefinition<K extends string = string, S extends OptionSpecs = OptionSpecs> {
  /** The method name (`calib fit --method`, `fitCalibrator`) and the `kind` of its JSON. */
  readonly kind: K;
  /** One line for `--help` and the README: what it fits, and its source (authors, year). */
  readonly summary: string;
  /** What it works on. */
  readonly input: CalibratorInput;
  /** 'any' number of classes C ≥ 2, or 'two' (binary methods). */
  readonly classes: 'any' | 'two';
  /** Whether the calibrated probabilities keep every row's argmax (so accuracy is unchanged). */
  readonly keepsArgmax: 'yes' | 'no' | 'not in general';
  /** Its options (posthoc/options.ts), with defaults and descriptions. */
  readonly options: S;
  /** Fit on validation predictions and labels; options validated against `options`. */
  readonly fit: (input: Predictions, labels: Int32Array, options?: OptionsOf<S>, fit?: FitOptions) => Calibrator;
  /** Rebuild a fitted calibrator from its `toJSON()` object (validated). */
  readonly fromJSON: (json: unknown) => Calibrator;
  /** The independent reference its tests compare against (reference code, a library, a hand derivation). */
  readonly checkedAgainst: string;
  /**
   * Whether the fit takes per-row sample weights (`FitOptions.sampleWeights`, `calib fit --weights`,
   * `--class-weight balanced`): 'accepted', or why its objective has no weighted form here.
   */
  readonly weights: 'accepted' | { readonly refused: string };
  /** Its ONNX emitter (posthoc/onnx/), or why ONNX operators cannot express it (`calib export` says so). */
  readonly onnx: CalibratorToOnnx | { readonly notExpressible: string };
}

/** Declare a calibrator (frozen; the summary and every option description must be non-empty). */
export function defineCalibrator<const K extends string, S extends OptionSpecs>(definition: CalibratorDefinition<K, S>): CalibratorDefinition<K, S> {
  if (definition.summary.trim() === '') throw new Error(`calibrator ${definition.kind}: empty summary`);
  for (const [name, spec] of Object.entries(definition.options)) {
    if (spec.description.trim() === '') throw new Error(`calibrator ${definition.kind}: option ${name} has no description`);
  }
  return Object.freeze({ ...definition });
}
