import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeNpy } from '../../src/io/npy.js';
import { evaluate } from '../../src/metrics/index.js';
import { matrix } from '../../src/util/matrix.js';
import { Random } from '../../src/util/random.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from './capture.js';

const dir = tempDir('cli-eval-dense');
const p = (name: string): string => join(dir, name);

test('eval takes dense N×C×H×W logits with N×H×W labels: pixel metrics, --ignore-index 255, and background excluded', async () => {
  const [n, c, h, w] = [3, 4, 5, 6];
  const rng = new Random(2);
  const dense = Float32Array.from({ length: n * c * h * w }, () => 3 * rng.normal());
  const labels = Int32Array.from({ length: n * h * w }, () => (rng.uniform() < 0.15 ? 255 : rng.int(c)));
  await writeNpy(p('seg-logits.npy'), dense, [n, c, h, w]);
  await writeNpy(p('seg-labels.npy'), labels, [n, h, w]);
  // independent reference: pixel rows gathered by hand from NCHW
  const rows = (keep: (y: number) => boolean) => {
    const data: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < h * w; j++) {
        const y = labels[i * h * w + j]!;
        if (!keep(y)) continue;
        for (let k = 0; k < c; k++) data.push(dense[(i * c + k) * h * w + j]!);
        ys.push(y);
      }
    }
    return evaluate(matrix(ys.length, c, Float32Array.from(data)), Int32Array.from(ys), { input: 'logits' });
  };
  const all = await run(['eval', '--logits', p('seg-logits.npy'), '--labels', p('seg-labels.npy'), '--ignore-index', '255', '--json']);
  assert.equal(all.code, 0, all.stderr);
  const out = JSON.parse(all.stdout) as Record<string, number>;
  const ref = rows((y) => y !== 255);
  assert.equal(out['n'], ref.n);
  for (const k of ['accuracy', 'ece', 'nll', 'brier'] as const) assert.ok(Math.abs(out[k]! - ref[k]) < 1e-12, `${k}: ${out[k]} vs ${ref[k]}`);
  // "without background" (MbLS's pixel ECE excluding class 0): the labels with background marked ignored
  const noBackground = Int32Array.from(labels, (y) => (y === 0 ? 255 : y));
  await writeNpy(p('seg-labels-nobg.npy'), noBackground, [n, h, w]);
  const nb = JSON.parse((await run(['eval', '--logits', p('seg-logits.npy'), '--labels', p('seg-labels-nobg.npy'), '--ignore-index', '255', '--json'])).stdout) as Record<string, number>;
  assert.ok(Math.abs(nb['ece']! - rows((y) => y !== 255 && y !== 0).ece) < 1e-12);
  // flat labels in the same pixel order are the same rows; a transposed shape is refused in one line, exit 2
  await writeNpy(p('seg-labels-flat.npy'), labels, [n * h * w]);
  const flat = JSON.parse((await run(['eval', '--logits', p('seg-logits.npy'), '--labels', p('seg-labels-flat.npy'), '--ignore-index', '255', '--json'])).stdout) as Record<string, number>;
  assert.equal(flat['ece'], out['ece']);
  await writeNpy(p('seg-labels-t.npy'), labels, [n, w, h]);
  const bad = await run(['eval', '--logits', p('seg-logits.npy'), '--labels', p('seg-labels-t.npy'), '--ignore-index', '255']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--labels: expected labels of shape \(3, 5, 6\) for dense predictions/);
});
