import { readFileSync } from 'node:fs';

/**
 * The calibkit version: package.json's `version`, read once (dist/src/util/version.js → the package root), so
 * the version is stated in one place. Recorded in every calibrator's JSON and printed by `calib --version`.
 */
export const CALIBKIT_VERSION: string = readPackageVersion();

function readPackageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
}
