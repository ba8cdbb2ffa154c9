import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Issue 24's round-six kit: bench/gemm.ts measures the product its shape says (it checks ORT's output against float64
 * sums before timing), and bench/device-round6-summary.mjs computes its tables from the JSON lines (the MLP step's
 * cost outside ORT = step − model_run, the GEMM milliseconds per step = Σ count × median), lists skipped and cut
 * steps, and survives a last line cut by a kill.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

test('gemm bench: every transposition case checks its product and reports GFLOP/s = 2·M·N·K ÷ time', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/bench/gemm.js'), '--no-peer', '--threads', '1', '--only', 'mlp head', '--rounds', '1', '--round-ms', '1'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const cases = lines.filter((l) => l['bench'] === 'gemm');
  // The head's forward (transB), weight gradient (transA) and input gradient (no transposition).
  assert.deepEqual(
    cases.map((l) => [l['trans_a'], l['trans_b'], l['ort_op']]),
    [
      [false, true, 'Gemm'],
      [true, false, 'Gemm'],
      [false, false, 'MatMul'],
    ],
  );
  for (const l of cases) {
    assert.equal(l['checked'], true);
    const kernel = l['ort_kernel'] as Record<string, number>;
    assert.ok(kernel['profiled_runs']! >= 1 && kernel['ms_median']! > 0, JSON.stringify(l));
    const ort = l['ort'] as Record<string, number>;
    const flop = 2 * (l['m'] as number) * (l['k'] as number) * (l['n'] as number);
    assert.ok(Math.abs(ort['gflops']! - flop / ort['ms_median']! / 1e6) <= 0.01 * ort['gflops']!, JSON.stringify(l));
  }
});

test('gemm bench: a bad --threads is refused with the flag named', () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'dist/bench/gemm.js'), '--no-peer', '--threads', 'two'], { cwd: ROOT, encoding: 'utf8' });
  assert.notEqual(r.status, 0);
  assert.match(r.stderr, /--threads: expected a comma-separated list of positive integers/);
});

test('device-round6 summary: tables computed from the lines, skipped and cut steps listed, a truncated last line ignored', () => {
  const dir = mkdtempSync(join(tmpdir(), 'round6-summary-'));
  try {
    const side = (ms: number) => ({ ms_median: ms, ms_min: ms, cpu_ms_median: ms, gflops: 1, gflops_best: 1, gflops_cpu: 1, minor_faults_per_product: 0 });
    const lines = [
      { section: 1, step: 'start of section', name: 'isa', seconds: 24, load_average: [0.1, 0.1, 0.1] },
      { section: 1, step: 'isa ort', bench: 'isa-ort', onnxruntime_node: '1.30.0', nchwc_block: 16, meaning: 'NCHWc block 16: AVX-512F' },
      { section: 1, step: 'end of section', name: 'isa', elapsed_s: 9, load_average: [0.2, 0.1, 0.1] },
      {
        section: 2,
        step: 'gemm threads 1',
        bench: 'gemm',
        case: 'a',
        group: 'mlp',
        m: 2,
        k: 3,
        n: 4,
        trans_a: true,
        trans_b: false,
        ort_op: 'Gemm',
        per_step: 1,
        threads: 1,
        ort: side(2),
        ort_kernel: side(0.5),
        torch: side(1),
        numpy: side(1),
        ratio_torch: 0.5,
      },
      {
        section: 2,
        step: 'gemm threads 1',
        bench: 'gemm',
        case: 'b',
        group: 'mlp',
        m: 2,
        k: 3,
        n: 4,
        trans_a: false,
        trans_b: false,
        ort_op: 'MatMul',
        per_step: 2,
        threads: 1,
        ort: side(3),
        ort_kernel: side(1.5),
        torch: side(1.5),
        numpy: side(1),
        ratio_torch: 0.5,
      },
      { section: 2, step: 'gemm threads 2', skipped: '3 s left of the section, 10 s needed' },
      {
        section: 3,
        step: 'train-step mlp batch 128 threads 1',
        model: 'mlp',
        batch: 128,
        threads: 1,
        ms_per_step: 8.5,
        cpu_ms_per_step: 8.4,
        torch_ms_per_step: 5,
        ratio: 0.588,
        minor_faults_per_step: 12,
        profile_train_step_ms_by_op: { total_kernel_ms: 4.25, model_run_ms: 5.5, Gemm: 3, Mul: 1.25 },
      },
      { section: 5, step: 'train-run resnet20', cut: true, limit_s: 200 },
    ];
    const file = join(dir, 'device-round6.jsonl');
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"section":5,"step":"tr`);
    const r = spawnSync(process.execPath, [join(ROOT, 'bench/device-round6-summary.mjs'), file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const md = r.stdout;
    assert.match(md, /NCHWc block 16: AVX-512F/);
    // GEMM per step: ORT 1×2 + 2×3 = 8 ms, its kernel 1×0.5 + 2×1.5 = 3.5 ms, torch 1×1 + 2×1.5 = 4 ms, NumPy 3 ms.
    assert.match(md, /\| MLP 784-512-512-10 \(all GEMMs of the step\) \| 1 \| 2 \| 8\.00 \| 3\.50 \| 4\.00 \| 3\.00 \| 0\.50× \| 1\.14× \|/);
    // MLP step: outside ORT = 8.5 − 5.5 = 3.00, ORT outside kernels = 5.5 − 4.25 = 1.25.
    assert.match(md, /\| 128 \| 1 \| 8\.50 \| 8\.40 \| 5\.50 \| 4\.25 \| 3\.00 \| 1\.25 \| 5\.00 \| 0\.59× \| 12 \|/);
    assert.match(md, /gemm threads 2: skipped \(3 s left of the section, 10 s needed\)/);
    assert.match(md, /train-run resnet20: cut at its 200 s limit/);
    assert.match(md, /\| 1\. isa \| 24 \| 9 \| 0\.10 \| 0\.20 \|/);
    assert.match(md, /did not reach its end/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
