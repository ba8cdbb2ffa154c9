/**
 * The claims a suite report decides, in one shape: the suite's `claims` (claim-schema.ts; the paper's claims and the
 * suite's own checks), then its plain `compare` strings (the suite's own checks, as user suites write them).
 */
import { claimTestKey, type SuiteClaim } from '../claims/claim-schema.js';
import { parseComparison, parseEquivalence, type Comparison, type Equivalence } from '../claims/comparison.js';
import type { QualitativeClaim } from '../claims/qualitative-claim.js';
import type { Suite } from '../suite-schema.js';

/** What a claim is decided by. */
export type ClaimTest =
  | { readonly kind: 'compare'; readonly comparison: Comparison }
  | { readonly kind: 'equivalent'; readonly comparison: Equivalence; readonly margin: number }
  | { readonly kind: 'qualitative'; readonly qualitative: QualitativeClaim }
  | { readonly kind: 'not tested'; readonly reason: string };

export interface ClaimEntry {
  /** The claim's id; null for a `compare` string. */
  readonly id: string | null;
  readonly statement: string;
  /** Where the paper makes it (null for the suite's own checks without one). */
  readonly source: string | null;
  readonly origin: 'paper' | 'suite';
  readonly headline: boolean;
  readonly paper: { readonly text: string; readonly difference?: number } | null;
  readonly note: string | null;
  readonly test: ClaimTest;
}

function testOf(c: SuiteClaim, suite: Suite, path: string): ClaimTest {
  const methods = suite.methods.map((m) => m.name);
  switch (claimTestKey(c)) {
    case 'compare':
      return { kind: 'compare', comparison: parseComparison(c.compare!, methods, suite.posthoc, `${path}.compare`) };
    case 'equivalent':
      return { kind: 'equivalent', comparison: parseEquivalence(c.equivalent!, methods, suite.posthoc, `${path}.equivalent`), margin: c.margin! };
    case 'qualitative':
      return { kind: 'qualitative', qualitative: c.qualitative! };
    case 'notTested':
      return { kind: 'not tested', reason: c.notTested! };
  }
}

/** Every claim of the suite: `claims` in order, then the `compare` strings. */
export function claimEntries(suite: Suite): ClaimEntry[] {
  const methods = suite.methods.map((m) => m.name);
  const claims = (suite.claims ?? []).map((c, i): ClaimEntry => ({
    id: c.id,
    statement: c.statement,
    source: c.source ?? null,
    origin: c.origin,
    headline: c.headline,
    paper: c.paper ?? null,
    note: c.note ?? null,
    test: testOf(c, suite, `claims[${i}]`),
  }));
  const compare = suite.compare.map((text, i): ClaimEntry => {
    const comparison = parseComparison(text, methods, suite.posthoc, `compare[${i}]`);
    return { id: null, statement: comparison.text, source: null, origin: 'suite', headline: false, paper: null, note: null, test: { kind: 'compare', comparison } };
  });
  return [...claims, ...compare];
}
