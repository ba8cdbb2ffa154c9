/**
 * Raised when a calibrator's fit cannot produce a trustworthy result although its inputs were valid: the
 * optimiser did not converge within its iteration cap, or the objective has no minimum in the allowed range
 * (e.g. temperature scaling on validation predictions that are all correct, where the NLL keeps falling as T → 0).
 * The message names the method, what happened and what to try. (Invalid inputs raise `InvalidArgumentError`.)
 */
export class CalibrationFitError extends Error {
  /** The calibration method whose fit failed. */
  readonly method: string;
  constructor(method: string, message: string) {
    super(`${method}: ${message}`);
    this.name = 'CalibrationFitError';
    this.method = method;
  }
}
