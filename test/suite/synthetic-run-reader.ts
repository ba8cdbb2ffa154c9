/**
 * A run reader for tests that decide claims registries on synthetic suite directories: a run is finished when its
 * summary.json and posthoc.json exist, and is read from those two files alone. The real reader (readRecordedRun)
 * also checks each run's config.json, identity and training files (test/cli/hardness-suite-identity.test.ts tests
 * that), which hand-written numbers do not have.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SuiteRun } from '../../src/suite/expand-suite.js';
import type { PosthocResult } from '../../src/suite/posthoc-step.js';
import type { RecordedRun } from '../../src/suite/report/run-records.js';
import { runDirectory } from '../../src/suite/suite-directory.js';

export async function readSyntheticRun(dir: string, run: SuiteRun): Promise<RecordedRun | null> {
  const rd = runDirectory(dir, run.id);
  const summary = join(rd, 'summary.json');
  const posthoc = join(rd, 'posthoc.json');
  if (!existsSync(summary) || !existsSync(posthoc)) return null;
  return {
    run,
    summary: JSON.parse(readFileSync(summary, 'utf8')) as Record<string, unknown>,
    posthoc: JSON.parse(readFileSync(posthoc, 'utf8')) as PosthocResult,
  };
}
