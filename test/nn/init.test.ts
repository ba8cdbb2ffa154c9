import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { constantInit, fans, gain, kaimingNormal, kaimingUniform, normal, torchDefaultBias, torchDefaultWeight, uniform, xavierNormal, xavierUniform } from '../../src/nn/index.js';
import { InvalidArgumentError } from '../../src/util/errors.js';
import { Random } from '../../src/util/random.js';

function stats(a: Float32Array): { mean: number; std: number; min: number; max: number } {
  let s = 0,
    s2 = 0,
    min = Infinity,
    max = -Infinity;
  for (const v of a) {
    s += v;
    s2 += v * v;
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  const mean = s / a.length;
  return { mean, std: Math.sqrt(s2 / a.length - mean * mean), min, max };
}

describe('initializers', () => {
  it('computes fans as torch.nn.init._calculate_fan_in_and_fan_out', () => {
    assert.deepEqual(fans([10, 784]), { fanIn: 784, fanOut: 10 });
    assert.deepEqual(fans([16, 3, 3, 3]), { fanIn: 27, fanOut: 144 });
    assert.deepEqual(fans([64, 8, 5, 1]), { fanIn: 40, fanOut: 320 });
    assert.throws(() => fans([5]), InvalidArgumentError);
  });

  it('uses torch.nn.init.calculate_gain values', () => {
    assert.equal(gain('linear'), 1);
    assert.equal(gain('tanh'), 5 / 3);
    assert.equal(gain('relu'), Math.SQRT2);
    assert.equal(gain('leaky_relu', Math.sqrt(5)), Math.sqrt(2 / 6));
    assert.throws(() => gain('gelu' as never), /nonlinearity/);
  });

  it('gives U(±1/√fan_in) for the PyTorch default layer weight (kaiming_uniform a = √5)', () => {
    const w = torchDefaultWeight([200, 50], new Random(1));
    const bound = 1 / Math.sqrt(50);
    const s = stats(w);
    assert.ok(s.max <= bound && s.min >= -bound);
    assert.ok(s.max > 0.98 * bound && s.min < -0.98 * bound, 'the bound is reached');
    // Uniform on [−b, b] has std b/√3.
    assert.ok(Math.abs(s.std - bound / Math.sqrt(3)) < 0.01 * bound);
    const b = torchDefaultBias(50)([200], new Random(2));
    assert.ok(stats(b).max <= bound && stats(b).min >= -bound);
  });

  it('draws kaiming_normal with std gain/√fan for fan_in and fan_out', () => {
    const shape = [64, 32, 3, 3];
    const fin = stats(kaimingNormal({ nonlinearity: 'relu' })(shape, new Random(3)));
    assert.ok(Math.abs(fin.std - Math.SQRT2 / Math.sqrt(32 * 9)) < 0.02 * fin.std);
    assert.ok(Math.abs(fin.mean) < 0.01);
    const fout = stats(kaimingNormal({ mode: 'fan_out', nonlinearity: 'relu' })(shape, new Random(3)));
    assert.ok(Math.abs(fout.std - Math.SQRT2 / Math.sqrt(64 * 9)) < 0.02 * fout.std);
    const ku = stats(kaimingUniform({ nonlinearity: 'relu' })(shape, new Random(4)));
    assert.ok(ku.max <= (Math.sqrt(3) * Math.SQRT2) / Math.sqrt(288));
  });

  it('draws Xavier with the Glorot bound and std', () => {
    const xu = stats(xavierUniform(2)([300, 100], new Random(5)));
    const bound = 2 * Math.sqrt(6 / 400);
    assert.ok(xu.max <= bound && xu.max > 0.98 * bound);
    const xn = stats(xavierNormal()([300, 100], new Random(6)));
    assert.ok(Math.abs(xn.std - Math.sqrt(2 / 400)) < 0.02 * xn.std);
  });

  it('is reproducible from the seed and differs across seeds', () => {
    const a = normal(0, 1)([100], new Random(7));
    assert.deepEqual(a, normal(0, 1)([100], new Random(7)));
    assert.notDeepEqual(a, normal(0, 1)([100], new Random(8)));
    assert.deepEqual(constantInit(0.5)([3], new Random(0)), Float32Array.of(0.5, 0.5, 0.5));
  });

  it('rejects bad arguments naming them', () => {
    assert.throws(() => uniform(1, 0), /high/);
    assert.throws(() => normal(0, -1), /std/);
    assert.throws(() => torchDefaultBias(0), /fanIn/);
  });
});
