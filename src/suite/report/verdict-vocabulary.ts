/**
 * The one vocabulary of a suite report's verdicts (issue #22), with the definitions every report prints (Markdown,
 * HTML and report.json's `definitions`) and the reproductions README repeats.
 */

export const CLAIM_OUTCOMES = ['holds', 'contradicted', 'inconclusive', 'equivalent', 'criterion met', 'criterion not met', 'not tested', 'not evaluated'] as const;
export type ClaimOutcome = (typeof CLAIM_OUTCOMES)[number];

/** Each outcome and how it is decided. */
export const OUTCOME_DEFINITIONS: Readonly<Record<ClaimOutcome, string>> = {
  holds:
    'directional claim "A < B" (or "A > B"): the 95 % interval of metric(A) − metric(B) lies wholly on the claimed side of 0 — over two or more seeds the paired t-interval over seeds, with one seed a paired bootstrap over the test samples',
  contradicted: 'the 95 % interval lies wholly on the other side of 0; for an equivalence claim, the 90 % interval lies wholly outside ±margin',
  inconclusive:
    "neither: the interval contains 0 (equivalence: it straddles a margin); the verdict states the minimum detectable effect (MDE) of the design. For an argmin / argmax claim whose seed-mean minimum (maximum) is not at the paper's value: the paired 95 % interval over seeds of (paper's value − observed minimum) contains 0 (reaches the claim's margin) — the paper's value is consistent with the minimum within seed noise; both the observed argmin and this interval are printed, with the MDE",
  equivalent: 'equivalence claim "A ~ B" within ±margin, by two one-sided t-tests at 5 % (TOST): the 90 % interval of metric(A) − metric(B) lies inside ±margin',
  'criterion met':
    "shape claim (argmin, argmax, u-shape, monotone, order): its numeric criterion, computed from the seed means (and paired intervals where the criterion asks for them), is satisfied; the report prints the criterion and the numbers it used. An argmin / argmax claim is met when the seed-mean minimum (maximum) is at the paper's value (the runner-up's paired interval is printed), or, when the claim gives a margin, the paired 95 % interval of (paper's value − observed minimum) lies within it",
  'criterion not met':
    "shape claim whose criterion is not satisfied by the runs. For an argmin / argmax claim: the paired 95 % interval over seeds of (paper's value − observed minimum) lies wholly on the worse side of 0 (beyond the margin, when the claim gives one) — the paper's value is not the minimum; with one seed, decided on the seed means alone (said in the note)",
  'not tested': 'the suite cannot test the claim on this machine; the reason is given',
  'not evaluated': 'the suite could test the claim but the runs it needs are missing or lack the metric (the note says which)',
};

/** The statistics printed beside each verdict. */
export const STATISTIC_DEFINITIONS: Readonly<Record<string, string>> = {
  MDE: 'minimum detectable effect: the smallest |difference| a two-sided 5 % paired t-test over these seeds detects with 80 % power at the observed spread, (t₀.₉₇₅,ₙ₋₁ + t₀.₈,ₙ₋₁)·s/√n (one seed: the bootstrap interval’s half-width × (1.96 + 0.84)/1.96)',
  p: 'raw p-value of the paired t-test over seeds: two-sided for a directional claim (H0: no difference); for an equivalence claim the TOST p when equivalent, the p of "outside the margin" when contradicted, the smaller of the two otherwise',
  Holm: "Holm-adjusted p over the family of the paper’s claims decided by a paired t-test (the suite’s own checks form a family of their own); the outcome at the adjusted level keeps the raw outcome where the adjusted p < 0.05 and is inconclusive otherwise. An argmin / argmax claim decided by its paired test of the paper's value against the observed minimum is in the family (p of H0: mean difference = margin, 0 without one); bootstrap (one-seed) and the other shape verdicts are not adjusted",
};

/** The definitions as [term, definition] pairs, outcomes then statistics (Markdown / HTML lists and the README). */
export function definitionEntries(): [string, string][] {
  return [...CLAIM_OUTCOMES.map((o): [string, string] => [o, OUTCOME_DEFINITIONS[o]]), ...Object.entries(STATISTIC_DEFINITIONS)];
}
