/**
 * Data of a reliability diagram: one entry per confidence bin. Produced by the metrics layer,
 * drawn by the report layer (which never recomputes it).
 */
export type BinConvention = '(l,u]' | '[l,u)';

export interface ReliabilityBin {
  /** Lower and upper edge of the bin. */
  readonly lower: number;
  readonly upper: number;
  /** Number of samples whose confidence falls in the bin. */
  readonly count: number;
  /** Mean confidence of those samples (NaN for an empty bin). */
  readonly meanConfidence: number;
  /** Fraction of them predicted correctly (NaN for an empty bin). */
  readonly accuracy: number;
  /** accuracy − meanConfidence (negative = overconfident; NaN for an empty bin). */
  readonly gap: number;
}

export interface ReliabilityData {
  readonly bins: readonly ReliabilityBin[];
  /** Total number of samples. */
  readonly total: number;
  /** Equal-width ECE (ℓ1) over these bins, as a fraction. */
  readonly ece: number;
  /** Overall accuracy and mean confidence, as fractions. */
  readonly accuracy: number;
  readonly meanConfidence: number;
  /** Which side of each bin is closed. */
  readonly convention: BinConvention;
}
