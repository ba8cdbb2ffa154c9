import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { trace, type Tensor } from '../../src/engine/index.js';
import { calibrationObjective, computeLoss, CorrectnessHistory, describeOptions, LOSSES, LOSS_NAMES, lossDefinition } from '../../src/losses/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';

const f64 = (...shape: number[]) => ({ dtype: 'float64', shape }) as const;
const i32 = (...shape: number[]) => ({ dtype: 'int32', shape }) as const;

/** Trace `fn` on logits [4, 3] and labels [4] (option errors surface at trace time). */
function traced(fn: (z: Tensor, y: Tensor) => unknown): void {
  trace(
    ({ z, y }) => {
      fn(z!, y!);
      return z!;
    },
    { z: f64(4, 3), y: i32(4) },
  );
}

function throwsNaming(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof InvalidArgumentError && pattern.test(e.message), String(pattern));
}

test('the registry holds every loss exported by a file of src/losses or its sub-folders (name = file name), each with a role and a scope; the papers losses have their roles', async () => {
  const dir = new URL('../../src/losses/', import.meta.url);
  const declared = new Set<string>();
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js') && f !== 'index.js' && f !== 'registry.js');
  for (const file of files) {
    const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      const v = value as { name?: unknown; role?: unknown; scope?: unknown; apply?: unknown };
      if (v && typeof v === 'object' && typeof v.name === 'string' && typeof v.role === 'string' && typeof v.scope === 'string' && typeof v.apply === 'function') {
        declared.add(v.name);
        assert.equal(`${v.name}.js`, basename(file), `loss ${v.name} lives in ${v.name}.ts`);
      }
    }
  }
  assert.deepEqual([...LOSS_NAMES].sort(), [...declared].sort(), 'every loss a file of src/losses exports is registered');
  for (const name of LOSS_NAMES) {
    const def = LOSSES[name];
    assert.equal(def.name, name);
    assert.ok(['primary', 'combined', 'term'].includes(def.role), name);
    assert.ok(['per-example', 'batch'].includes(def.scope), name);
  }
  const roleOf = (n: string): string => LOSSES[n as keyof typeof LOSSES].role;
  for (const n of ['arc', 'avuc', 'avuc-gs', 'dca', 'mdca', 'mmce', 'mmce-weighted', 's-avuc', 'sb-ece-bin', 'sb-ece-lb']) assert.equal(roleOf(n), 'term', n);
  for (const n of ['acls', 'cpc', 'crl', 'ecp', 'erl', 'mbls']) assert.equal(roleOf(n), 'combined', n);
  for (const n of ['ce', 'soft-ce', 'ls', 'focal', 'flsd53', 'mse']) assert.equal(roleOf(n), 'primary', n);
});

test('defaults come from METHODS.md and are filled in by resolve', () => {
  assert.deepEqual(LOSSES.mbls.resolve({}), { margin: 10, alpha: 0.1 });
  assert.deepEqual(LOSSES.acls.resolve({}), { margin: 10, alpha: 0.1, lambda1: 1, lambda2: 0.1, positive: 'code', variant: 'acls' });
  assert.deepEqual(LOSSES.ls.resolve({}), { epsilon: 0.05, variant: 'uniform' });
  assert.deepEqual(LOSSES.focal.resolve(), { gamma: 3 });
  assert.deepEqual(LOSSES.cpc.resolve({}), { lambda_bdc: 0.1, lambda_bec: 1 });
  assert.deepEqual(LOSSES['sb-ece-bin'].resolve({}), { bins: 15, temperature: 0.01, p: 2 });
  assert.deepEqual(LOSSES['s-avuc'].resolve({}), { kappa: 0.5, temperature: 1 });
  assert.deepEqual(LOSSES.arc.resolve({ bins: 15 }), { version: 'v1', bins: [15] });
  assert.throws(() => LOSSES.arc.resolve({ beta: 2 }), /arc\.beta: expected a known key \(version, bins, ignoreIndex\), got an unknown key$/); // one multiplier: the combination weight
  assert.deepEqual(LOSSES.arc.resolve({ bins: [5, 15, 30] }).bins, [5, 15, 30]);
  assert.deepEqual(LOSSES.crl.resolve({ ignoreIndex: 255 }), { weight: 1, target: 'softmax', ignoreIndex: 255 });
  assert.ok(describeOptions(LOSSES.acls.options).some((l) => l.startsWith('positive [code|paper] (default code)')));
});

test('bad options are errors naming the loss and the option: unknown option, negative margin, wrong type, out of range', () => {
  throwsNaming(() => LOSSES.mbls.resolve({ margn: 3 } as never), /^mbls\.margn: expected a known key \(did you mean margin\?\), got an unknown key$/);
  throwsNaming(() => LOSSES.mbls.resolve({ margin: -1 }), /^mbls\.margin: expected a finite number ≥ 0, got -1$/);
  throwsNaming(() => LOSSES.focal.resolve({ gamma: Number.NaN }), /^focal\.gamma: expected a finite number, got NaN$/);
  throwsNaming(() => LOSSES.ls.resolve({ epsilon: 1.5 }), /^ls\.epsilon: .*≤ 1, got 1\.5$/);
  throwsNaming(() => LOSSES.ls.resolve({ variant: 'half' } as never), /^ls\.variant: expected one of 'uniform', 'others', got "half"$/);
  throwsNaming(() => LOSSES['s-avuc'].resolve({ kappa: 1 }), /^s-avuc\.kappa: .*< 1, got 1$/);
  throwsNaming(() => LOSSES['sb-ece-bin'].resolve({ temperature: 0 }), /^sb-ece-bin\.temperature: expected a finite number > 0, got 0$/);
  throwsNaming(() => LOSSES['sb-ece-bin'].resolve({ bins: 2.5 }), /^sb-ece-bin\.bins: expected an integer, got 2\.5$/);
  throwsNaming(() => LOSSES.arc.resolve({ bins: [5, 0] }), /^arc\.bins\[1\]: expected an integer ≥ 1, got 0$/);
  throwsNaming(() => LOSSES['sb-ece-lb'].resolve({ root: 'yes' } as never), /^sb-ece-lb\.root: expected true or false, got "yes"$/);
  throwsNaming(() => LOSSES.ce.resolve({ ignoreIndex: 1.5 }), /^ce\.ignoreIndex: expected an integer, got 1\.5$/);
  throwsNaming(() => LOSSES.ce.resolve({ gamma: 2 } as never), /^ce\.gamma: expected a known key \(ignoreIndex\), got an unknown key$/);
  throwsNaming(() => lossDefinition('focall'), /^loss: expected one of ce, soft-ce, ls, focal, .*, got "focall"$/);
  traced((z, y) => throwsNaming(() => computeLoss('focal', z, y, { gamma: -2 }), /^focal\.gamma: expected a finite number ≥ 0, got -2$/));
});

test('objectives validate names, roles and the weight β up front', () => {
  throwsNaming(() => calibrationObjective({ secondary: { name: 'mmce', weight: -0.5 } }), /^weight: expected a finite number ≥ 0, got -0\.5$/);
  throwsNaming(() => calibrationObjective({ secondary: { name: 'focal' } }), /^secondary: expected a calibration term/);
  throwsNaming(() => calibrationObjective({ primary: { name: 'sb-ece-bin' } }), /^primary: expected a primary loss or combined method/);
  throwsNaming(() => calibrationObjective({ primary: { name: 'focal', options: { gama: 1 } } }), /^focal\.gama: expected a known key \(did you mean gamma\?\), got an unknown key$/);
  throwsNaming(() => calibrationObjective({ secondary: { name: 'arc', options: { version: 'v3' } } }), /^arc\.version: expected one of 'v1', 'v2', got "v3"$/);
});

test('bad inputs are errors naming the argument: shapes, dtypes, missing targets, soft targets for a label-only loss', () => {
  trace(
    ({ z, y, q, z2, yb, yf }) => {
      throwsNaming(() => LOSSES.ce.apply(z!, yb!), /^ce: labels: expected shape \[4\] for logits \[4, 3\], got \[5\]$/);
      throwsNaming(() => LOSSES.ce.apply(z!, yf as never), /^ce: labels: expected an int32 or int64 tensor, got float64$/);
      throwsNaming(() => LOSSES.ce.apply(z2!, y!), /^ce: logits: expected shape \[N, C\]/);
      throwsNaming(() => LOSSES.focal.apply(z!, { labels: y!, soft: q! }), /^focal: targets: expected integer labels \(this loss does not take soft targets\), got soft targets$/);
      throwsNaming(() => LOSSES.ce.apply(z!, {}), /^ce: targets: expected integer labels or soft targets, got neither$/);
      throwsNaming(() => LOSSES['soft-ce'].apply(z!, y!), /^soft-ce: targets: expected soft targets/);
      throwsNaming(() => LOSSES.crl.apply(z!, y!), /^crl: targets\.history: expected \{ counts \[N\], epochs, min\? \}/);
      throwsNaming(() => LOSSES.crl.apply(z!, { labels: y!, history: { counts: yb!, epochs: 2 } }), /^crl: targets\.history\.counts: expected shape \[4\], got \[5\]$/);
      return z!;
    },
    { z: f64(4, 3), y: i32(4), q: f64(4, 3), z2: f64(4), yb: i32(5), yf: f64(4) },
  );
});

test('CorrectnessHistory keeps per-sample counts across steps and normalises like the official code', () => {
  const h = new CorrectnessHistory(5);
  assert.equal(h.epochs, 1);
  h.record([0, 1, 2], [1, 0, 1]);
  h.record(Int32Array.of(3, 4), [true, true]);
  assert.deepEqual(Array.from(h.batch([4, 0, 1])), [1, 1, 0]);
  h.endEpoch();
  assert.equal(h.epochs, 1, 'max_correctness stays 1 after the first epoch');
  h.record([1, 0], [1, 1]);
  h.endEpoch();
  assert.equal(h.epochs, 2);
  assert.equal(h.min, 1);
  assert.deepEqual(Array.from(h.batch([0, 1, 2, 3, 4])), [2, 1, 1, 1, 1]);
  throwsNaming(() => h.record([5], [1]), /^indices\[0\]: expected an integer in \[0, 5\), got 5$/);
  throwsNaming(() => h.record([0], [2]), /^correct\[0\]: expected 0 or 1, got 2$/);
  throwsNaming(() => h.record([0, 1], [1]), /^correct: expected 2 values/);
});
