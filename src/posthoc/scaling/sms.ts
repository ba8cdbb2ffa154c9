/**
 * Structured matrix scaling, SMS (probmetrics SMSCalibrator; structured-scaling.ts): q = softmax(W x + b) on
 * x = log ts-mix(z) with a full C × C matrix W, ridge-shrunk toward the identity (diagonal and off-diagonal
 * entries with their own strengths, C / N and C(C − 1) / N), so that it does not collapse at C = 100 as
 * unregularised matrix scaling does.
 */
import type { Predictions } from '../calibrator.js';
import { defineCalibrator } from '../calibrator-definition.js';
import type { FitOptions } from '../fit-progress.js';
import { enumOption, numberOption, parseOptions, type OptionsOf } from '../options.js';
import { fitStructured, structuredFromJSON, type StructuredMethod, type StructuredScalingCalibrator } from './structured-scaling.js';
import { structuredCommonOptions } from './svs.js';
import { smsToOnnx } from '../onnx/structured-scaling.js';

export const smsOptions = {
  lambdaIntercept: structuredCommonOptions.lambdaIntercept,
  lambdaDiagonal: structuredCommonOptions.lambdaDiagonal,
  lambdaOffDiagonal: numberOption(1, { min: 0 }, 'Ridge weight of Σ_{k≠j} W_kj², times (C(C − 1))^ρ / N^τ (probmetrics: 1).'),
  rho: structuredCommonOptions.rho,
  tau: structuredCommonOptions.tau,
  mixtureConstant: structuredCommonOptions.mixtureConstant,
  maxIterations: structuredCommonOptions.maxIterations,
  tolerance: structuredCommonOptions.tolerance,
  objectiveTolerance: structuredCommonOptions.objectiveTolerance,
  start: enumOption(
    ['svs', 'identity'] as const,
    'svs',
    "Where L-BFGS starts: 'svs' fits SVS on the same features first and starts from W = diag(w), its b (fewer evaluations at C = 100); 'identity': W = I, b = 0, as probmetrics.",
  ),
};
export type SmsOptions = OptionsOf<typeof smsOptions>;

const SMS_METHOD: StructuredMethod = { kind: 'sms', structure: 'full' };

/** Fit SMS on validation predictions (N × C) and labels (N). */
export function fitSms(input: Predictions, labels: Int32Array, options?: SmsOptions, fit: FitOptions = {}): StructuredScalingCalibrator {
  const settings = parseOptions('sms options', options, smsOptions);
  return fitStructured(SMS_METHOD, input, labels, settings, fit);
}

/** Rebuild an SMS calibrator from its JSON. */
export function smsFromJSON(json: unknown): StructuredScalingCalibrator {
  return structuredFromJSON(SMS_METHOD, json, smsOptions);
}

/** The declaration of sms (calibrators.ts). */
export const smsDefinition = defineCalibrator({
  kind: 'sms',
  summary: 'softmax(W log ts-mix(z) + b), a full C × C map ridge-shrunk toward the identity: structured matrix scaling (probmetrics code; LogisticCalibrationBenchmark of E. Berta)',
  input: 'logits',
  classes: 'any',
  keepsArgmax: 'no',
  options: smsOptions,
  fit: fitSms,
  weights: 'accepted',
  checkedAgainst: "probmetrics' SMSCalibrator (its objective, BFGS replaced by scipy L-BFGS-B in float64) on small and real data (fixture)",
  fromJSON: smsFromJSON,
  onnx: smsToOnnx,
});
