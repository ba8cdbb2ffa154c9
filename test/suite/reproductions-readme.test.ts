import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as cli } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';
import { proseBlocks, reproductionsReadme } from '../../src/suite/report/reproductions-readme.js';

const DOCS = new URL('../../../docs/reproductions/', import.meta.url).pathname;

test('docs/reproductions/README.md is what `calib suite readme docs/reproductions` writes for the committed reports', async () => {
  const committed = readFileSync(join(DOCS, 'README.md'), 'utf8');
  assert.equal(await reproductionsReadme(DOCS, committed), committed, 'regenerate with: calib suite readme docs/reproductions (or npm run docs)');
  // Every committed report has its section, with its settings and coverage.
  for (const name of ['acls', 'karandikar', 'maronas', 'mbls', 'mbls-segmentation', 'mbls-text', 'thulasidasan', 'thulasidasan-text']) {
    assert.match(committed, new RegExp(`## \`${name}\`\\n\\n[^]*?\\*\\*Settings:\\*\\* scale machine; [^]*?\\*\\*Coverage:\\*\\*`), name);
  }
});

/** A report.json in the claims layout: two claims of the paper (one untested) and one check of the suite. */
function claimsReport(): Record<string, unknown> {
  const base = {
    difference: null,
    lower: null,
    upper: null,
    interval_level: null,
    test: 'none',
    n: 0,
    mde: null,
    p: null,
    p_holm: null,
    outcome_holm: null,
    holm_note: 'no test',
    criterion: null,
    note: null,
    paper_value: null,
    paper_text: null,
    reason: null,
    headline: false,
    metric: null,
    direction: null,
  };
  return {
    suite: 'toy',
    scale: 'machine',
    description: 'A toy suite.',
    settings: 'scale machine; 10 runs (10 finished); seeds 0, 1, 2, 3, 4',
    runs: [0, 1, 2, 3, 4].map((seed) => ({ seed, config: { dataset: 'mnist' } })),
    missing: [],
    verdicts: [
      { ...base, id: 'untested', statement: 'Works on ImageNet.', source: '§5', origin: 'paper', claim: null, outcome: 'not tested', reason: 'no ImageNet offline' },
      {
        ...base,
        id: 'beats-ce-ts',
        statement: 'MbLS alone beats CE + TS.',
        source: 'Table 7',
        origin: 'paper',
        headline: true,
        paper_text: 'CIFAR-10 R-50: 1.16 vs 1.60 % (PosT)',
        paper_value: -0.44,
        claim: 'mbls < ce+temperature on ece',
        metric: 'ece',
        direction: '<',
        outcome: 'contradicted',
        difference: 0.0059,
        lower: 0.0024,
        upper: 0.0094,
        interval_level: 0.95,
        test: 'paired t over seeds',
        n: 5,
        mde: 0.003,
        p: 0.01,
        p_holm: 0.02,
        outcome_holm: 'contradicted',
        holm_note: null,
      },
      {
        ...base,
        id: null,
        statement: 'mbls > ce on accuracy',
        source: null,
        origin: 'suite',
        claim: 'mbls > ce on accuracy',
        metric: 'accuracy',
        direction: '>',
        outcome: 'inconclusive',
        difference: 0.001,
        lower: -0.002,
        upper: 0.004,
        interval_level: 0.95,
        test: 'paired t over seeds',
        n: 5,
        mde: 0.004,
        p: 0.4,
        p_holm: 0.4,
        outcome_holm: 'inconclusive',
        holm_note: null,
      },
    ],
  };
}

test('a claims-layout report: coverage, the paper’s claims (headline first) with their numbers, the suite’s checks apart; prose blocks survive', async () => {
  const dir = tempDir('readme');
  mkdirSync(join(dir, 'toy'));
  writeFileSync(join(dir, 'toy', 'report.json'), JSON.stringify(claimsReport()));
  const first = await reproductionsReadme(dir);
  assert.match(first, /\| `toy` \| machine \| 5 \| 5 \| 1 \/ 2 \| 1 \|/);
  assert.match(first, /\*\*Coverage:\*\* 1 of the 2 claims of the paper listed are tested \(1 not tested on this machine, 0 not evaluated\); 1 checks of the suite's own\./);
  const rows = first.split('\n').filter((l) => l.startsWith('| beats-ce-ts') || l.startsWith('| untested'));
  assert.deepEqual(rows, [
    '| beats-ce-ts (headline): mbls &lt; ce+temperature on ece | Table 7 | MbLS alone beats CE + TS. | CIFAR-10 R-50: 1.16 vs 1.60 % (PosT) (difference -0.44 pt) | 0.59 pt \\[0.24, 0.94\\] (95 %, paired t, n = 5; MDE 0.30 pt; p = 0.0100) | **contradicted** | contradicted (p = 0.0200) |',
    '| untested: — | §5 | Works on ImageNet. | — | no ImageNet offline | **not tested** | no test |',
  ]);
  assert.match(
    first,
    /### The suite's own checks\n\n\| Check \| Ours \\\[interval\\\] \| Outcome \| Holm \|\n\| --- \| --- \| --- \| --- \|\n\| mbls &gt; ce on accuracy \| 0\.10 pt \\\[-0\.20, 0\.40\\\]/,
  );
  // Hand-written text inside a block is kept; a block whose report is gone moves to the end; text outside is rewritten.
  const edited =
    first.replace('<!-- prose:toy -->\n', '<!-- prose:toy -->\nWhat the toy suite means.\n').replace('<!-- prose:intro -->\n', '<!-- prose:intro -->\nIntro text.\n') +
    'stray text\n<!-- prose:gone -->\nold notes\n<!-- /prose:gone -->\n';
  const second = await reproductionsReadme(dir, edited);
  assert.match(second, /<!-- prose:intro -->\nIntro text\.\n<!-- \/prose:intro -->/);
  assert.match(second, /<!-- prose:toy -->\nWhat the toy suite means\.\n<!-- \/prose:toy -->/);
  assert.match(second, /## Notes without a report\n\n<!-- prose:gone -->\nold notes\n<!-- \/prose:gone -->\n$/);
  assert.doesNotMatch(second, /stray text/);
  assert.deepEqual([...proseBlocks(second).keys()], ['intro', 'toy', 'gone']);
  // A partial report (runs still missing) says so in the overview and beside its settings.
  const partial = tempDir('readme-partial');
  mkdirSync(join(partial, 'toy'));
  writeFileSync(join(partial, 'toy', 'report.json'), JSON.stringify({ ...claimsReport(), missing: ['ce-seed3', 'ce-seed4', 'mbls-seed4'] }));
  const p = await reproductionsReadme(partial);
  assert.match(p, /\| `toy` \| machine \| 5 of 8 \| 5 \| 1 \/ 2 \| 1 \|/);
  assert.match(p, /\*\*Incomplete:\*\* 3 run\(s\) not finished\./);
  assert.doesNotMatch(first, /Incomplete/);
  assert.throws(() => proseBlocks('<!-- prose:x -->\nno end\n', 'R.md'), /^InvalidArgumentError: R\.md: expected a closing <!-- \/prose:x --> for the block opened on line 1, got none$/);

  // The CLI: --check fails on a stale README and writes nothing; without it the README is written.
  writeFileSync(join(dir, 'README.md'), edited);
  const check = await cli(['suite', 'readme', dir, '--check']);
  assert.equal(check.code, 1, check.stdout);
  assert.match(check.stdout, /README\.md: differs from what the reports give \(run calib suite readme /);
  assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), edited);
  const write = await cli(['suite', 'readme', dir]);
  assert.equal(write.code, 0, write.stderr);
  assert.equal(readFileSync(join(dir, 'README.md'), 'utf8'), second);
  assert.equal((await cli(['suite', 'readme', dir, '--check'])).code, 0);
  const missing = await cli(['suite', 'readme', join(dir, 'nope')]);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^calib: error: DIR: expected a folder of suite reports \(DIR\/NAME\/report\.json\), got ".*nope" \(not found\)\n$/);
});

test("a deep-scale report beside its machine report leads that paper's section, the machine scale second, then the flip table; without one the section says it is not yet produced", async () => {
  const dir = tempDir('readme-deep');
  const machine = claimsReport();
  const verdicts = machine['verdicts'] as Record<string, unknown>[];
  // At deep scale the headline claim holds (it was contradicted at machine scale); the untested claim stays untested.
  const deep = {
    ...machine,
    scale: 'deep',
    settings: 'scale deep; 10 runs (10 finished); seeds 0, 1, 2, 3, 4',
    verdicts: [verdicts[0], { ...verdicts[1], outcome: 'holds', difference: -0.004, lower: -0.006, upper: -0.002, outcome_holm: 'holds' }, verdicts[2]],
  };
  for (const [name, report] of [
    ['toy', machine],
    ['toy-deep', deep],
    ['other', { ...machine, suite: 'other' }],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'report.json'), JSON.stringify(report));
  }
  const hasDeep = (name: string): boolean => name === 'toy' || name === 'other';
  const text = await reproductionsReadme(dir, '', undefined, hasDeep);
  const toy = text.slice(text.indexOf('## `toy`'));
  const at = (s: string): number => toy.indexOf(s);
  // One section for toy (the deep report has none of its own); deep first, machine second, then the flips.
  assert.equal(text.match(/^## `toy-deep`/m), null);
  assert.ok(at('### Deep scale (`toy-deep`)') > 0);
  assert.ok(at('### Deep scale (`toy-deep`)') < at('### Machine scale'));
  assert.ok(at('### Machine scale') < at('### Verdicts at machine vs deep scale'));
  assert.match(
    toy,
    /### Deep scale \(`toy-deep`\)\n\n\*\*Settings:\*\* scale deep;[^]*?Report: \[toy-deep\/report\.md\]\(toy-deep\/report\.md\)[^]*?#### The paper's claims\n\n[^]*?\| beats-ce-ts \(headline\): [^\n]*\| \*\*holds\*\* \|/,
  );
  assert.match(toy, /### Machine scale\n\n\*\*Settings:\*\* scale machine;[^]*?\| beats-ce-ts \(headline\): [^\n]*\| \*\*contradicted\*\* \|/);
  // The flip table of compare-scales, flips first.
  assert.match(toy, /### Verdicts at machine vs deep scale\n\n\(`calib suite compare-scales toy toy-deep`; flips first\.\)\n\n1 flipped, 1 unchanged, 0 decided at one scale only, 1 untested at both/);
  const rows = toy
    .slice(at('| claim | source | machine | deep | state |'))
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| claim') && !l.startsWith('| ---'));
  assert.match(rows[0]!, /^\| \*\*beats-ce-ts\*\* \| Table 7 \| contradicted 0\.59 \\\[0\.24, 0\.94\\\] \| holds -0\.40 \\\[-0\.60, -0\.20\\\] \| flipped \|$/);
  // The overview lists both reports; prose blocks exist for both scales.
  assert.match(text, /\| `toy-deep` \| deep \|/);
  assert.match(toy, /<!-- prose:toy-deep -->\n<!-- \/prose:toy-deep -->[^]*<!-- prose:toy -->\n<!-- \/prose:toy -->/);
  // A suite with a deep scale and no deep report yet says so before its machine-scale tables.
  // (The paper with a deep report comes first: other's section is the last.)
  const other = text.slice(text.indexOf('## `other`'));
  assert.match(other, /\*\*Deep scale:\*\* deep-scale report not yet produced \(runs in progress\)\.\n\n### Machine scale\n\n\*\*Settings:\*\* scale machine/);
  // A suite without a deep scale keeps the plain layout.
  const plain = await reproductionsReadme(dir, '', undefined, (name) => name === 'toy');
  assert.ok(plain.indexOf('## `other`') > plain.indexOf('## `toy`'));
  assert.doesNotMatch(plain.slice(plain.indexOf('## `other`')), /Deep scale|### Machine scale/);
});

test('once a deep-scale report exists the page leads with it: title, a lead table with CE training accuracy, fitted T, flips and measured hours, deep rows and sections first', async () => {
  const dir = tempDir('readme-deep-lead');
  const machine = claimsReport();
  const verdicts = machine['verdicts'] as Record<string, unknown>[];
  const runs = [0, 1].flatMap((seed) => [
    { id: `ce-seed${seed}`, seed, config: { dataset: 'fashion-mnist', loss: 'ce', lossOptions: {} } },
    { id: `mbls-seed${seed}`, seed, config: { dataset: 'fashion-mnist', loss: 'mbls', lossOptions: { margin: 6 } } },
    { id: `mix-seed${seed}`, seed, config: { dataset: 'fashion-mnist', loss: 'ce', lossOptions: {}, mixup: 1 } },
  ]);
  const deep = {
    ...machine,
    scale: 'deep',
    settings: 'scale deep; 8 runs (6 finished); seeds 0, 1',
    runs,
    missing: ['ce-seed2', 'mbls-seed2'],
    // mixup first: a CE loss with mixup is not plain cross-entropy, so the lead reads the row of `ce`.
    methods: ['mix', 'mbls', 'ce'].map((name) => ({ name, label: name, runs: [0, 1].map((s) => `${name}-seed${s}`) })),
    tables: [
      {
        columns: [{ key: 'accuracy' }, { key: 'train:accuracy' }, { key: 'T' }],
        rows: [
          { method: 'mix', cells: [{ mean: 0.9 }, { mean: 0.97 }, { mean: 0.8 }] },
          { method: 'mbls', cells: [{ mean: 0.9 }, { mean: 0.99 }, { mean: 1.1 }] },
          { method: 'ce', cells: [{ mean: 0.88 }, { mean: 0.9999 }, { mean: 2.371 }] },
        ],
      },
    ],
    verdicts: [verdicts[0], { ...verdicts[1], outcome: 'holds', difference: -0.004, lower: -0.006, upper: -0.002, outcome_holm: 'holds' }, verdicts[2]],
    compute: { machine_hours: 8.19, jobs: 2 },
  };
  for (const [name, report] of [
    ['aaa', { ...machine, suite: 'aaa' }],
    ['toy', machine],
    ['toy-deep', deep],
  ] as const) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'report.json'), JSON.stringify(report));
  }
  const text = await reproductionsReadme(dir, '', undefined, (name) => name === 'toy');
  const at = (s: string): number => text.indexOf(s);
  assert.match(text, /^# Reproductions of the papers: the deep scale first, then this machine’s scale\n/);
  assert.ok(at('## Deep scale') > 0 && at('## Deep scale') < at('<!-- prose:intro -->'), 'the lead comes before everything else');
  assert.match(text, /\n\| `toy` \| \[toy-deep\]\(toy-deep\/report\.md\) \| 6 of 8 \| 99\.99 \| 2\.37 \| 1 \/ 2 \| 1 \| 8\.2 \|\n/);
  // The overview lists the deep report first, and the paper with a deep report has the first section.
  assert.ok(at('| `toy-deep` | deep |') < at('| `aaa` | machine |'));
  assert.ok(at('## `toy`') < at('## `aaa`'));
  // Without any deep report the page is as before: no lead, the machine-scale title.
  const plain = tempDir('readme-no-deep');
  mkdirSync(join(plain, 'toy'));
  writeFileSync(join(plain, 'toy', 'report.json'), JSON.stringify(machine));
  const before = await reproductionsReadme(plain, '', undefined, () => false);
  assert.match(before, /^# Reproductions of the papers at this machine’s scale\n/);
  assert.doesNotMatch(before, /## Deep scale/);
});
