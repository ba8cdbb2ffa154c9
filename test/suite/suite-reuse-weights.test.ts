import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from './tiny-suite.js';
import { evaluationHash, trainingHash } from '../../src/suite/identity/run-identity.js';
import { planReuse, reuseSummary } from '../../src/suite/identity/reuse-plan.js';
import { expandSuite } from '../../src/suite/expand-suite.js';
import { parseSuite } from '../../src/suite/suite-schema.js';

const dir = tempDir('suite-reuse-weights');
const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** Two methods with the same training settings; `shifted` also evaluates OOD / shift (a small subset). */
function twinSuite(): Record<string, unknown> {
  return tinySuite({
    name: 'weights',
    methods: [
      { name: 'plain', label: 'Plain' },
      { name: 'shifted', label: 'Shifted', ood: true, oodSubset: 20 },
    ],
    compare: [],
  });
}

test('a run of the same training identity but other evaluation settings is copied and re-evaluated, not trained (within a suite)', async () => {
  const file = join(dir, 'twins.json');
  writeFileSync(file, JSON.stringify(twinSuite()));
  const out = join(dir, 'a');
  const dry = await run(['suite', 'run', file, '--out', out, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /1 reused, not trained: 1 twins of runs within the suite \(1 of them re-evaluated from their final checkpoint/);
  assert.match(dry.stdout, /left: 2 of 2 runs \(0 started, 2 epochs to train; 1 to re-evaluate from their final checkpoint, finishing only\)/);

  const r = await run(['suite', 'run', file, '--out', out, '--jobs', '1', '--progress', 'lines', '--report=false']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /reuse {3}shifted-seed0: copied from .*plain-seed0 \(the same training identity; its final evaluation is redone with this suite's settings\)/);
  assert.match(r.stdout, /2\/2 runs done \(1 trained now, 1 reused, 1 re-evaluated from their final checkpoint/);
  const a = join(out, 'runs', 'plain-seed0');
  const b = join(out, 'runs', 'shifted-seed0');
  assert.deepEqual(readFileSync(join(b, 'log.jsonl')), readFileSync(join(a, 'log.jsonl')), 'the same epochs: nothing trained twice');
  assert.deepEqual(readFileSync(join(b, 'checkpoint-last.ckpt')), readFileSync(join(a, 'checkpoint-last.ckpt')));
  assert.ok(!existsSync(join(a, 'ood.json')) && existsSync(join(b, 'ood.json')), 'only the run that asks for it has its OOD evaluation');
  const config = json(join(b, 'config.json'));
  assert.equal(config['ood'], true);
  assert.equal(config['out'], b);
  const identity = json(join(b, 'identity.json'));
  assert.equal(identity['run'], 'shifted-seed0');
  assert.equal(identity['training'], evaluationHash(config));
  assert.equal(trainingHash(config), trainingHash(json(join(a, 'config.json'))));

  const again = await run(['suite', 'run', file, '--out', out, '--progress', 'none', '--report=false']);
  assert.match(again.stdout, /2\/2 runs done \(0 trained now, [\d.]+ s\)/, 'both runs are the suite’s now');
});

test('across suites: --reuse-from copies a run of the same weights and re-evaluates it', async () => {
  const suite = twinSuite();
  const plainOnly = { ...suite, name: 'source', methods: [(suite['methods'] as unknown[])[0]] };
  const shiftedOnly = { ...suite, name: 'target', methods: [(suite['methods'] as unknown[])[1]] };
  const src = join(dir, 'source.json');
  const dst = join(dir, 'target.json');
  writeFileSync(src, JSON.stringify(plainOnly));
  writeFileSync(dst, JSON.stringify(shiftedOnly));
  const from = join(dir, 'from');
  const to = join(dir, 'to');
  assert.equal((await run(['suite', 'run', src, '--out', from, '--progress', 'none', '--report=false'])).code, 0);
  const r = await run(['suite', 'run', dst, '--out', to, '--reuse-from', from, '--progress', 'lines', '--report=false']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /reuse {3}shifted-seed0: copied from .*from\/runs\/plain-seed0 \(the same training identity/);
  assert.match(r.stdout, /1\/1 runs done \(0 trained now, 1 reused, 1 re-evaluated from their final checkpoint/);
  assert.ok(existsSync(join(to, 'runs', 'shifted-seed0', 'ood.json')));
  assert.ok(!existsSync(join(from, 'runs', 'plain-seed0', 'ood.json')), 'the source is untouched');
});

test('the reuse plan: a same-training run is reused for re-evaluation only when no run of the same files is', () => {
  const suite = parseSuite(twinSuite());
  const runs = expandSuite(suite, 'quick', 'suite');
  const [plain, shifted] = runs;
  const none = new Map<string, string>();
  const withWeights = planReuse(runs, none, none, { finished: new Map(), planned: new Map() });
  assert.deepEqual(withWeights.reused.get(shifted!.id), { source: 'twin', from: plain!.id, reevaluate: true });
  assert.equal(withWeights.reused.has(plain!.id), false);
  assert.equal(planReuse(runs, none, none).reused.size, 0, 'without weight sources: evaluation identity only, as before');
  const exact = planReuse(runs, new Map([[evaluationHash(shifted!.config), 'DIR']]), none, { finished: new Map([[trainingHash(plain!.config), 'OTHER']]), planned: new Map() });
  assert.deepEqual(exact.reused.get(shifted!.id), { source: 'finished', from: 'DIR' }, 'the same files first');
  assert.deepEqual(exact.reused.get(plain!.id), { source: 'finished', from: 'OTHER', reevaluate: true });
  assert.match(reuseSummary(exact), /2 reused, not trained: 1 finished in OTHER, 1 finished in DIR \(1 of them re-evaluated/);
});
