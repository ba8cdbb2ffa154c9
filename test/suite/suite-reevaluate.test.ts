import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';
import { tinySuite } from './tiny-suite.js';
import { evaluationHash, trainingHash } from '../../src/suite/identity/run-identity.js';

const dir = tempDir('suite-reevaluate');
const json = (path: string): Record<string, unknown> => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** One CE run of the tiny suite (2 epochs, 300 MNIST images), with `base` merged into its base settings. */
function writeSuite(name: string, base: Record<string, unknown>): string {
  const suite = tinySuite({ name: 'reeval', methods: [{ name: 'ce', label: 'CE' }], compare: [] });
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ ...suite, base: { ...(suite['base'] as object), ...base } }));
  return file;
}

test('a suite whose evaluation settings changed (ood false → true) re-evaluates its runs from their final checkpoint: weights and log.jsonl untouched, ood.json appears', async () => {
  const out = join(dir, 'a');
  const plain = writeSuite('plain', {});
  const first = await run(['suite', 'run', plain, '--out', out, '--progress', 'none', '--report=false']);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  const rd = join(out, 'runs', 'ce-seed0');
  const before = {
    log: readFileSync(join(rd, 'log.jsonl')),
    best: readFileSync(join(rd, 'checkpoint-best.ckpt')),
    last: readFileSync(join(rd, 'checkpoint-last.ckpt')),
    testLogits: readFileSync(join(rd, 'test-logits.npy')),
    config: json(join(rd, 'config.json')),
  };
  assert.ok(!existsSync(join(rd, 'ood.json')));

  // The suite now asks for the OOD / shift evaluation (a small subset: noise and corruptions of 20 test images).
  const shifted = writeSuite('shifted', { ood: true, oodSubset: 20 });
  const status = await run(['suite', 'status', out]);
  assert.equal(status.code, 0, 'suite status reads the suite as last run (suite.json): done');
  const dry = await run(['suite', 'run', shifted, '--out', out, '--dry-run']);
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /left: 1 of 1 runs \(0 started, 0 epochs to train; 1 to re-evaluate from their final checkpoint, finishing only\)/);

  const second = await run(['suite', 'run', shifted, '--out', out, '--progress', 'lines', '--report=false']);
  assert.equal(second.code, 0, second.stdout + second.stderr);
  assert.match(second.stdout, /^re-evaluate ce-seed0: ood false → true, oodSubset unset → 20 \(from its final checkpoint; weights and log\.jsonl kept\)$/m);
  assert.match(second.stdout, /1\/1 runs done \(0 trained now, 1 re-evaluated from their final checkpoint/);
  assert.deepEqual(readFileSync(join(rd, 'log.jsonl')), before.log, 'no epoch trained again');
  assert.deepEqual(readFileSync(join(rd, 'checkpoint-best.ckpt')), before.best, 'the same weights');
  assert.deepEqual(readFileSync(join(rd, 'checkpoint-last.ckpt')), before.last);
  assert.deepEqual(readFileSync(join(rd, 'test-logits.npy')), before.testLogits, 'the same test logits from the same weights');
  assert.ok(existsSync(join(rd, 'ood.json')), 'ood.json appears');
  assert.ok(existsSync(join(rd, 'shift', 'in-logits.npy')));
  const config = json(join(rd, 'config.json'));
  assert.equal(config['ood'], true);
  assert.equal(config['oodSubset'], 20);
  assert.deepEqual({ ...config, ood: undefined, oodSubset: undefined }, { ...before.config, ood: undefined, oodSubset: undefined }, 'only the evaluation keys of config.json changed');
  const identity = json(join(rd, 'identity.json'));
  assert.equal(identity['training'], evaluationHash(config), 'identity.json rewritten for the new files');
  assert.equal((json(join(rd, 'posthoc.json'))['identity'] as Record<string, unknown>)['training'], evaluationHash(config), 'posthoc.json refitted from them');
  const calibrators = json(join(rd, 'posthoc.json'))['calibrators'] as Record<string, { shift?: unknown }>;
  assert.ok(Object.values(calibrators).length > 0 && Object.values(calibrators).every((c) => typeof c.shift === 'object'), 'with the calibrated shift metrics');

  const after = await run(['suite', 'status', out]);
  assert.equal(after.code, 0, after.stdout);
  const third = await run(['suite', 'run', shifted, '--out', out, '--progress', 'none', '--report=false']);
  assert.match(third.stdout, /1\/1 runs done \(0 trained now, [\d.]+ s\)/, 'nothing left to do');

  // Back to the plain suite: the status names the change before anything runs.
  const back = await run(['suite', 'run', plain, '--out', out, '--dry-run']);
  assert.match(back.stdout, /1 to re-evaluate/);
});

test('suite status says "re-evaluate (…)" for a changed evaluation setting, and a changed training setting retrains', async () => {
  const out = join(dir, 'b');
  const plain = writeSuite('b-plain', {});
  assert.equal((await run(['suite', 'run', plain, '--out', out, '--progress', 'none', '--report=false'])).code, 0);
  const rd = join(out, 'runs', 'ce-seed0');
  const log = readFileSync(join(rd, 'log.jsonl'), 'utf8');

  // Status compares with the suite as last run (suite.json): rewrite its runs' evaluation settings as a new suite file would.
  const suiteFile = join(out, 'suite.json');
  const record = json(suiteFile) as { runs: { config: Record<string, unknown> }[] };
  const original = readFileSync(suiteFile, 'utf8');
  for (const r of record.runs) r.config['evaluateTrain'] = true;
  writeFileSync(suiteFile, JSON.stringify(record));
  const status = await run(['suite', 'status', out]);
  assert.equal(status.code, 1);
  assert.match(status.stdout, /1 stale \(1 to re-evaluate\)/);
  assert.match(status.stdout, /stale {4}ce-seed0 .*re-evaluate \(evaluateTrain unset → true\) — calib suite run redoes its final evaluation from its final checkpoint, no epoch retrained/);
  assert.match(status.stdout, /left: 1 of 1 runs \(0 started, 0 epochs to train; 1 to re-evaluate/);

  // Its checkpoints gone, the same change retrains.
  const ckpt = readFileSync(join(rd, 'checkpoint-best.ckpt'));
  rmSync(join(rd, 'checkpoint-best.ckpt'));
  const gone = await run(['suite', 'status', out]);
  assert.match(gone.stdout, /stale {4}ce-seed0 .*evaluation settings changed \(evaluateTrain unset → true\) and .*checkpoint-best\.ckpt is gone — calib suite run retrains it/);
  writeFileSync(join(rd, 'checkpoint-best.ckpt'), ckpt);
  writeFileSync(suiteFile, original);

  // A training key (epochs) changed: retrained from scratch, priced as every epoch.
  const longer = writeSuite('b-longer', { epochs: 3 });
  const dry = await run(['suite', 'run', longer, '--out', out, '--dry-run']);
  assert.match(dry.stdout, /left: 1 of 1 runs \(0 started, 3 epochs to train\)/);
  const r = await run(['suite', 'run', longer, '--out', out, '--progress', 'lines', '--report=false']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^retrain ce-seed0: training settings changed \(epochs 2 → 3\)$/m);
  assert.match(r.stdout, /1\/1 runs done \(1 trained now/);
  const lines = readFileSync(join(rd, 'log.jsonl'), 'utf8').trim().split('\n');
  assert.equal(lines.length, 3);
  assert.notEqual(readFileSync(join(rd, 'log.jsonl'), 'utf8'), log);
});

test('an identity.json of the format before the split (its `training` = the whole-configuration hash) is accepted: done, nothing rewritten', async () => {
  const out = join(dir, 'c');
  const plain = writeSuite('c-plain', { ood: true, oodSubset: 10, evaluateTrain: true });
  assert.equal((await run(['suite', 'run', plain, '--out', out, '--progress', 'none', '--report=false'])).code, 0);
  const rd = join(out, 'runs', 'ce-seed0');
  // The record as builds before the split wrote it (format 1, calibkit 0.1.0, the whole-configuration hash): a copy of a deep run's.
  const config = json(join(rd, 'config.json'));
  const old = { format: 1, suite: 'reeval', run: 'ce-seed0', method: 'ce', sweep: null, seed: 0, training: evaluationHash(config), calibkit: '0.1.0' };
  assert.notEqual(old.training, trainingHash(config), 'the training identity is a new hash');
  const text = `${JSON.stringify(old, null, 2)}\n`;
  writeFileSync(join(rd, 'identity.json'), text);
  const status = await run(['suite', 'status', out]);
  assert.equal(status.code, 0, status.stdout);
  assert.match(status.stdout, /1 done/);
  const again = await run(['suite', 'run', plain, '--out', out, '--progress', 'lines', '--report=false']);
  assert.match(again.stdout, /1\/1 runs done \(0 trained now, /);
  assert.doesNotMatch(again.stdout, /re-evaluate|retrain|adopt/);
  assert.equal(readFileSync(join(rd, 'identity.json'), 'utf8'), text, 'left as it was');
});

test("an interrupted run (a checkpoint, no summary.json) whose evaluation settings changed resumes with the suite's, not from scratch", async () => {
  const out = join(dir, 'd');
  const plain = writeSuite('d-plain', {});
  assert.equal((await run(['suite', 'run', plain, '--out', out, '--progress', 'none', '--report=false'])).code, 0);
  const rd = join(out, 'runs', 'ce-seed0');
  const log = readFileSync(join(rd, 'log.jsonl'));
  rmSync(join(rd, 'summary.json'));
  const suiteFile = join(out, 'suite.json');
  const record = json(suiteFile) as { runs: { config: Record<string, unknown> }[] };
  for (const r of record.runs) Object.assign(r.config, { ood: true, oodSubset: 10 });
  writeFileSync(suiteFile, JSON.stringify(record));
  const status = await run(['suite', 'status', out]);
  assert.match(status.stdout, /partial {2}ce-seed0 .*resumes with the suite's evaluation settings \(ood false → true, oodSubset unset → 10\)/);
  const shifted = writeSuite('d-shifted', { ood: true, oodSubset: 10 });
  const r = await run(['suite', 'run', shifted, '--out', out, '--progress', 'lines', '--report=false']);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^resume {2}ce-seed0: with the suite's evaluation settings \(ood false → true, oodSubset unset → 10\)$/m);
  assert.doesNotMatch(r.stdout, /retrain/);
  assert.deepEqual(readFileSync(join(rd, 'log.jsonl')), log, 'no epoch trained again');
  assert.equal(json(join(rd, 'config.json'))['ood'], true);
  assert.ok(existsSync(join(rd, 'ood.json')) && existsSync(join(rd, 'summary.json')));
  assert.equal((await run(['suite', 'status', out])).code, 0);
});
