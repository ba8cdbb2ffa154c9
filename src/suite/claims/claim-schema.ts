/**
 * A paper's claims as data, beside its suite's methods (issue #22, /work/coord/CLAIMS-SPEC.md): every quantitative
 * claim of the paper with where the paper makes it, the comparison exactly as the paper makes it, and — for claims
 * this machine cannot test — the reason. The report decides each one (report/verdicts.ts) in one vocabulary:
 * holds / contradicted / inconclusive (directional), equivalent (TOST within the margin), criterion met / not met
 * (shape claims), not tested, not evaluated. Checks a suite adds that the paper does not make have origin 'suite'
 * and are reported apart.
 *
 * Each claim has exactly one test key:
 * - `compare`: "A < B on METRIC" (comparison.ts grammar, with `after CALIBRATOR` or per-side `+CALIBRATOR`);
 * - `equivalent` + `margin`: "A ~ B on METRIC" (same sides), the margin in the metric's own units (> 0);
 * - `qualitative`: a shape claim { kind: argmin | argmax | u-shape | monotone | order, … } (qualitative-claim.ts);
 * - `notTested`: the reason the suite cannot test it.
 *
 * `atScale` gives a claim another test at one scale (one test key, its margin, and a note replacing the claim's):
 * a claim that rests on memorisation (Karandikar et al. App. B: NLL fits its training set) is not tested at the
 * machine scale, where cross-entropy does not memorise, and is compared at the deep scale, where it does. The suite
 * run at a scale carries each claim's test for that scale (claim-at-scale.ts).
 */
import { describe, invalidArgument } from '../../util/errors.js';
import { boolean, number, object, optional, string, type Infer, type Schema } from '../../util/schema.js';
import { parseComparison, parseEquivalence } from './comparison.js';
import { checkQualitative, qualitativeSchema, type ClaimContext } from './qualitative-claim.js';
import { SUITE_SCALES, type SuiteScale } from '../suite-scales.js';

/** A claim's test: exactly one of `compare`, `equivalent` (with `margin`), `qualitative`, `notTested`. */
export interface ClaimTestInput {
  /** Directional: "mbls < ce+temperature on ece" (comparison.ts). */
  readonly compare?: string;
  /** Equivalence: "A ~ B on METRIC" … */
  readonly equivalent?: string;
  /** … with its margin in the metric's own units (fractions for ECE/accuracy: 0.005 = 0.5 pt). Required with `equivalent`. */
  readonly margin?: number;
  /** A shape claim with a numeric criterion computed from the runs (qualitative-claim.ts). */
  readonly qualitative?: { readonly kind: string; readonly [key: string]: unknown };
  /** A claim this machine/suite cannot test: the reason. */
  readonly notTested?: string;
}

/** A claim's test at one scale (`atScale`), with the note a reader needs there (it replaces the claim's `note`). */
export interface ClaimAtScaleInput extends ClaimTestInput {
  readonly note?: string;
}

/** One claim of a paper (or a check the suite adds), as written in the suite file. Exactly one test key. */
export interface SuiteClaimInput extends ClaimTestInput {
  /** kebab-case, unique within the suite, stable across sessions: e.g. 'mbls-beats-ce-ts'. */
  readonly id: string;
  /** The claim as the paper makes it, close to its words (one sentence). */
  readonly statement: string;
  /** Where the paper makes it: 'Table 1', 'Table 7 (App. D)', 'Fig. 2h–j', '§5.1'. Required for origin 'paper'. */
  readonly source?: string;
  /** 'paper' (default): a claim of the paper. 'suite': a check the suite adds; reported in a separate table. */
  readonly origin?: 'paper' | 'suite';
  /** A headline claim (the suite runs ≥ 5 seeds for these; reports list them first). */
  readonly headline?: boolean;
  /**
   * The paper's own number(s), when it gives them: `text` as the paper reports them (with setting), and `difference`
   * in the same units and direction as the verdict's difference (left − right, in points of % for metrics shown in %).
   */
  readonly paper?: { readonly text: string; readonly difference?: number };
  /** Notes a reader needs: hyperparameter rule used, deviation from the paper and why. */
  readonly note?: string;
  /** The claim's test at a scale where it differs (see the module comment). */
  readonly atScale?: { readonly [S in SuiteScale]?: ClaimAtScaleInput };
}

/** Claim ids: lower-case letters, digits and dashes. */
const ID = /^[a-z0-9][a-z0-9-]*$/;

function claimId(): Schema<string> {
  return {
    expected: 'a kebab-case id (lower-case letters, digits and dashes)',
    parse(value, path) {
      if (typeof value !== 'string' || !ID.test(value) || value.length > 80) invalidArgument(path, 'a kebab-case id of lower-case letters, digits and dashes (at most 80)', describe(value));
      return value;
    },
  };
}

const CLAIM_TEST_SHAPE = {
  compare: optional(string()),
  equivalent: optional(string()),
  margin: optional(number({ min: 0, exclusiveMin: true })),
  qualitative: optional(qualitativeSchema()),
  notTested: optional(string()),
};

const CLAIM_AT_SCALE_SCHEMA = object({ note: optional(string()), ...CLAIM_TEST_SHAPE });
export type ClaimAtScale = Infer<typeof CLAIM_AT_SCALE_SCHEMA>;

export const CLAIM_SCHEMA = object({
  id: claimId(),
  statement: string(),
  source: optional(string()),
  origin: optional(string(['paper', 'suite'] as const), 'paper'),
  headline: optional(boolean(), false),
  paper: optional(object({ text: string(), difference: optional(number()) })),
  note: optional(string()),
  ...CLAIM_TEST_SHAPE,
  atScale: optional(object(Object.fromEntries(SUITE_SCALES.map((s) => [s, optional(CLAIM_AT_SCALE_SCHEMA)])) as Record<SuiteScale, ReturnType<typeof optional<ClaimAtScale>>>)),
});

/** A claim as validated (defaults filled: origin 'paper', headline false). */
export type SuiteClaim = Infer<typeof CLAIM_SCHEMA>;

/** The test keys of a claim, exactly one of which it has. */
export const CLAIM_TEST_KEYS = ['compare', 'equivalent', 'qualitative', 'notTested'] as const;
export type ClaimTestKey = (typeof CLAIM_TEST_KEYS)[number];

/** The test key a validated claim has. */
export function claimTestKey(claim: SuiteClaim | ClaimAtScale): ClaimTestKey {
  return CLAIM_TEST_KEYS.find((k) => claim[k] !== undefined)!;
}

/** Check one test (a claim's, or its test at a scale): exactly one test key, a margin with (and only with) `equivalent`, the grammar. */
function checkTest(c: SuiteClaim | ClaimAtScale, context: ClaimContext, at: string): void {
  const keys = CLAIM_TEST_KEYS.filter((k) => c[k] !== undefined);
  if (keys.length !== 1) invalidArgument(at, `exactly one of ${CLAIM_TEST_KEYS.join(', ')}`, keys.length ? keys.join(' and ') : 'none');
  if (c.equivalent !== undefined && c.margin === undefined) invalidArgument(`${at}.margin`, 'the equivalence margin in the metric’s units (> 0; required with equivalent)', 'nothing');
  if (c.equivalent === undefined && c.margin !== undefined) invalidArgument(`${at}.margin`, 'no margin (a margin belongs to an `equivalent` claim)', describe(c.margin));
  if (c.compare !== undefined) parseComparison(c.compare, context.methods, context.calibrators, `${at}.compare`);
  if (c.equivalent !== undefined) parseEquivalence(c.equivalent, context.methods, context.calibrators, `${at}.equivalent`);
  if (c.qualitative !== undefined) checkQualitative(c.qualitative, context, `${at}.qualitative`);
}

/**
 * Check the suite's claims beyond their shape: unique ids, exactly one test key, a margin with (and only with)
 * `equivalent`, a source for the paper's claims, comparisons in the grammar naming the suite's methods and
 * calibrators, qualitative claims naming its methods and sweeps. Errors name `path[i].key`.
 */
export function checkClaims(claims: readonly SuiteClaim[], context: ClaimContext, path: string): void {
  const seen = new Map<string, number>();
  claims.forEach((c, i) => {
    const at = `${path}[${i}]`;
    const first = seen.get(c.id);
    if (first !== undefined) invalidArgument(`${at}.id`, `an id not used by another claim (${path}[${first}] has it)`, describe(c.id));
    seen.set(c.id, i);
    if (c.origin === 'paper' && c.source === undefined) invalidArgument(`${at}.source`, "where the paper makes the claim ('Table 1', 'Fig. 2h–j', '§5.1'; required for origin 'paper')", 'nothing');
    checkTest(c, context, at);
    for (const scale of SUITE_SCALES) {
      const test = c.atScale?.[scale];
      if (test !== undefined) checkTest(test, context, `${at}.atScale.${scale}`);
    }
  });
}
