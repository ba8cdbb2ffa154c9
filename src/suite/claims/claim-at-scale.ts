/**
 * A claim as tested at one scale (claim-schema.ts `atScale`): the claim's own test, or the test it gives for that
 * scale — its test key (and margin) and, when it gives one, its note in place of the claim's. The result carries no
 * `atScale` (a suite run at a scale records the claims as tested there: scale-grid.ts `scaledSuite`), and no key
 * left undefined (it reads back from suite.json as it was written).
 */
import type { SuiteScale } from '../suite-scales.js';
import type { ClaimAtScale, SuiteClaim } from './claim-schema.js';

export function claimAtScale(claim: SuiteClaim, scale: SuiteScale): SuiteClaim {
  const { atScale, compare, equivalent, margin, qualitative, notTested, note, ...rest } = claim;
  const test: ClaimAtScale = atScale?.[scale] ?? { compare, equivalent, margin, qualitative, notTested, note: undefined };
  const fields = { ...rest, note: test.note ?? note, compare: test.compare, equivalent: test.equivalent, margin: test.margin, qualitative: test.qualitative, notTested: test.notTested };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as SuiteClaim;
}
