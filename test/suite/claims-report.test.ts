import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from './tiny-suite.js';

/**
 * A suite with a claims registry run end to end (one seed: the paired bootstrap decides the comparisons): the
 * report's Markdown, HTML and JSON carry the paper's claims with coverage, the suite's own checks apart, and the
 * vocabulary's definitions.
 */
test('calib suite run with claims: claims table, coverage, checks apart, definitions in md, html and json', async () => {
  const dir = tempDir('claims-report');
  const suite = tinySuite({
    name: 'claims',
    sweeps: [{ key: 'lossOptions.margin', values: [2, 6, 10], methods: ['mbls'] }],
    posthoc: ['temperature'],
    compare: ['mbls < ce on nll'],
    claims: [
      {
        id: 'mbls-beats-ce-ts',
        statement: 'MbLS alone beats CE with TS.',
        source: 'Table 7 (App. D)',
        headline: true,
        paper: { text: 'CIFAR-10 R-50: 1.16 vs 1.60 %', difference: -0.44 },
        compare: 'mbls < ce+temperature on adaece_l2',
      },
      { id: 'on-par', statement: 'MbLS keeps accuracy.', source: 'Table 1', equivalent: 'mbls ~ ce on accuracy', margin: 0.5 },
      {
        id: 'margin-optimum',
        statement: 'ECE is lowest at a moderate margin.',
        source: 'Fig. 3',
        qualitative: { kind: 'argmin', method: 'mbls', sweep: 'lossOptions.margin', metric: 'ece', expect: [6] },
      },
      { id: 'voc', statement: 'MbLS improves pixel ECE on VOC.', source: 'Table 5', notTested: 'VOC is not available offline' },
    ],
  });
  const file = join(dir, 'claims.json');
  writeFileSync(file, JSON.stringify(suite));
  const out = join(dir, 'out');
  const r = await run(['suite', 'run', file, '--out', out, '--jobs', '2', '--threads', '2', '--progress', 'none']);
  assert.equal(r.code, 0, r.stderr + r.stdout);
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
    verdicts: Record<string, unknown>[];
    coverage: Record<string, number>;
    definitions: { outcomes: Record<string, string> };
    settings: string;
  };
  assert.deepEqual(
    report.verdicts.map((v) => [v['id'], v['origin'], v['kind']]),
    [
      ['mbls-beats-ce-ts', 'paper', 'compare'],
      ['on-par', 'paper', 'equivalent'],
      ['margin-optimum', 'paper', 'qualitative'],
      ['voc', 'paper', 'not tested'],
      [null, 'suite', 'compare'],
    ],
  );
  const [ts, par, optimum, voc, check] = report.verdicts as Record<string, unknown>[];
  // One seed: a 95 % (directional) or 90 % (equivalence) bootstrap interval over the test samples, not Holm-adjusted.
  assert.equal(ts!['test'], 'paired bootstrap over test samples');
  assert.equal(ts!['interval_level'], 0.95);
  assert.equal(ts!['paper_value'], -0.44);
  assert.equal(ts!['metric_description'], 'top-label ECE, ℓ2 norm, 15 equal-mass bins');
  assert.equal(ts!['outcome_holm'], null);
  assert.equal(ts!['holm_note'], 'not adjusted (one seed: a bootstrap interval, no p-value)');
  assert.ok(typeof ts!['mde'] === 'number' && ts!['mde'] > 0);
  assert.equal(par!['interval_level'], 0.9);
  assert.equal(par!['margin'], 0.5);
  assert.equal(par!['outcome'], 'equivalent', 'two models of 300 images are within 50 points of accuracy');
  assert.ok((par!['lower'] as number) > -0.5 && (par!['upper'] as number) < 0.5);
  assert.match(String(optimum!['outcome']), /^criterion (not )?met$/);
  assert.match((optimum!['criterion'] as { result: string }).result, /^2: \d+\.\d\d %, 6: \d+\.\d\d %, 10: \d+\.\d\d %; minimum at (2|6|10)( \(the paper's value\))?$/);
  assert.equal(voc!['outcome'], 'not tested');
  assert.equal(voc!['reason'], 'VOC is not available offline');
  assert.equal(check!['claim'], 'mbls < ce on nll');
  assert.deepEqual(report.coverage, { listed: 4, tested: 3, notTested: 1, notEvaluated: 0, suiteChecks: 1 });
  assert.match(report.definitions.outcomes['equivalent']!, /TOST/);
  assert.match(report.settings, /^scale quick; /);
  for (const v of report.verdicts)
    assert.ok(['holds', 'contradicted', 'inconclusive', 'equivalent', 'criterion met', 'criterion not met', 'not tested'].includes(String(v['outcome'])), String(v['outcome']));

  const md = readFileSync(join(out, 'report.md'), 'utf8');
  assert.match(md, /## The paper's claims\n\nCoverage: 3 of the 4 claims listed are tested here/);
  assert.match(
    md,
    /\| mbls-beats-ce-ts \(headline\): MbLS alone beats CE with TS\. \| Table 7 \(App\. D\) \| CIFAR-10 R-50: 1\.16 vs 1\.60 % \(difference -0\.44 pt\) \| mbls &lt; ce\+temperature on adaece\\_l2; adaece\\_l2 = top-label ECE, ℓ2 norm, 15 equal-mass bins \|/,
  );
  assert.match(md, /## The suite's own checks[^]*\| mbls &lt; ce on nll \|/);
  assert.match(md, /### How the verdicts are decided\n\n- \*\*holds\*\*: /);
  const html = readFileSync(join(out, 'report.html'), 'utf8');
  assert.match(html, /<h2 id="claims">The paper&#39;s claims<\/h2>\n<p>Coverage: 3 of the 4 claims/);
  assert.match(html, /<ul class="note definitions"><li><b>holds<\/b>: /);
  assert.equal((html.match(/<tr class="verdict">/g) ?? []).length, 5);
});
