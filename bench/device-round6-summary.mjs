/**
 * bench/device-round6.sh's JSON lines → markdown tables, one per section: the ISA the kernels use, GEMM GFLOP/s
 * (MLAS vs MKL vs NumPy's BLAS, and each side's GEMM milliseconds per train step), the MLP step's cost outside the
 * kernels, ORT's 2-thread scaling per op family, ResNet-20's whole run. Ratios are the peer's time ÷ calibkit's
 * (> 1: calibkit faster). Every number comes from a line of the file; steps that were skipped, cut at their limit
 * or failed are listed at the end with each section's time and load average, so a missing row says why.
 *
 * Run: node bench/device-round6-summary.mjs [/tmp/round6/device-round6.jsonl] > summary.md
 */
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '/tmp/round6/device-round6.jsonl';
const lines = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .flatMap((l) => {
    try {
      return [JSON.parse(l)];
    } catch {
      return []; // a line cut by a kill
    }
  });

const f = (x, d = 1) => (Number.isFinite(x) ? x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d }) : '—');
const x = (r) => (Number.isFinite(r) ? `${f(r, 2)}×` : '—');
const out = [];
const table = (head, rows) => {
  out.push(`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`), '');
};
const bench = (name) => lines.filter((l) => l.bench === name);
const loadOf = (l) => (Array.isArray(l?.load_average) ? f(l.load_average[0], 2) : '—');
const machine = bench('machine')[0];

out.push(`# Issue 24, round six on the lent machine${machine ? ` (${machine.cpu_model}, ${typeof machine.torch === 'string' ? machine.torch : `PyTorch ${machine.torch}`})` : ''}`, '');

// 1. ISA.
out.push('## 1. Instruction set', '');
const cpu = bench('isa-cpuinfo')[0];
const ortIsa = bench('isa-ort')[0];
const torchIsa = bench('isa-torch')[0];
const verbose = bench('isa-torch-verbose')[0];
const numpyIsa = bench('isa-numpy')[0];
if (cpu) {
  const on = Object.entries(cpu.dispatch_flags)
    .filter(([, v]) => v)
    .map(([k]) => k);
  const off = Object.entries(cpu.dispatch_flags)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  out.push(`- CPU: ${cpu.model_name}, ${cpu.processors} processors, ${cpu.cpu_mhz} MHz; dispatch flags present: ${on.join(', ') || 'none'}; absent: ${off.join(', ') || 'none'}.`);
}
if (ortIsa) out.push(`- ONNX Runtime (onnxruntime-node ${ortIsa.onnxruntime_node}): ${ortIsa.meaning}.`);
if (torchIsa) out.push(`- PyTorch ${torchIsa.torch}: CPU capability ${torchIsa.cpu_capability}; config: ${torchIsa.config.map((c) => c.replace(/^- /, '').slice(0, 120)).join('; ')}.`);
if (verbose)
  out.push(
    `- MKL / oneDNN verbose (exit status ${verbose.status}): ${verbose.isa_lines.length ? verbose.isa_lines.map((l) => `\`${l}\``).join('; ') : 'no ISA line printed'}${verbose.calls.length ? `; first calls: ${verbose.calls.map((l) => `\`${l.slice(0, 160)}\``).join('; ')}` : ''}.`,
  );
if (numpyIsa)
  out.push(
    `- NumPy ${numpyIsa.numpy}: BLAS ${numpyIsa.blas ?? '?'} ${numpyIsa.blas_version ?? ''}${numpyIsa.simd_found ? `; SIMD found ${JSON.stringify(numpyIsa.simd_found)}` : ''}${numpyIsa.config_unavailable ? ` (show_config: ${numpyIsa.config_unavailable})` : ''}.`,
  );
if (cpu) out.push('', `Full flags line (${cpu.flags_count} flags):`, '', '```', cpu.flags ?? '', '```');
out.push('');

// 2. GEMM.
const gemms = bench('gemm');
if (gemms.length) {
  out.push(
    '## 2. GEMM alone: MLAS (onnxruntime-node) vs torch.mm vs NumPy, GFLOP/s of the median wall time (CPU time in parentheses); "ORT kernel" is the Gemm/MatMul kernel alone (ORT profiler: no binding call, no output allocation and copy)',
    '',
  );
  const peers = bench('gemm-peer');
  for (const p of peers) out.push(`- peer, ${p.threads} thread(s): PyTorch ${p.torch ?? '—'} (${p.torch_cpu_capability ?? '—'}), NumPy ${p.numpy ?? '—'} (BLAS ${p.numpy_blas?.name ?? '—'})`);
  out.push('');
  const g = (s) => (s ? `${f(s.gflops, 1)} (${f(s.gflops_cpu, 1)})` : '—');
  table(
    [
      'case',
      'M×K×N, op',
      'threads',
      'ORT session.run',
      'ORT kernel (profiler)',
      'torch.mm',
      'NumPy',
      'torch ÷ ORT time',
      'torch ÷ ORT kernel',
      'NumPy ÷ ORT time',
      'page faults per product ORT / torch',
      'load',
    ],
    gemms.map((l) => [
      l.case,
      `${l.m}×${l.k}×${l.n}, ${l.ort_op}${l.trans_a ? ' transA' : ''}${l.trans_b ? ' transB' : ''}${l.per_step ? `, ${l.per_step}/step` : ''}`,
      l.threads,
      g(l.ort),
      l.ort_kernel ? f(l.ort_kernel.gflops, 1) : '—',
      g(l.torch),
      g(l.numpy),
      x(l.ratio_torch),
      x(l.kernel_ratio_torch),
      x(l.ratio_numpy),
      `${f(l.ort?.minor_faults_per_product, 0)} / ${f(l.torch?.minor_faults_per_product, 0)}`,
      loadOf(l),
    ]),
  );
  // GEMM milliseconds per train step: Σ per_step × median ms over the cases our step runs.
  const rows = [];
  for (const threads of [...new Set(gemms.map((l) => l.threads))]) {
    for (const group of ['mlp', 'resnet20']) {
      const cases = gemms.filter((l) => l.threads === threads && l.group === group && l.per_step);
      if (!cases.length) continue;
      const sum = (side) => cases.reduce((a, l) => a + l.per_step * (l[side]?.ms_median ?? NaN), 0);
      rows.push([
        group === 'mlp' ? 'MLP 784-512-512-10 (all GEMMs of the step)' : 'CIFAR ResNet-20 (weight-gradient GEMMs)',
        threads,
        cases.length,
        f(sum('ort'), 2),
        f(sum('ort_kernel'), 2),
        f(sum('torch'), 2),
        f(sum('numpy'), 2),
        x(sum('torch') / sum('ort')),
        x(sum('torch') / sum('ort_kernel')),
      ]);
    }
  }
  if (rows.length) {
    out.push('GEMM time per train step (Σ count × median ms over the cases measured):', '');
    table(['model', 'threads', 'cases', 'ORT session.run ms', 'ORT kernel ms', 'torch.mm ms', 'NumPy ms', 'torch ÷ ORT', 'torch ÷ ORT kernel'], rows);
  }
}

// 3 and 4. Train steps with the profiler.
const steps = lines.filter((l) => l.model && l.ms_per_step !== undefined);
const mlpSteps = steps.filter((l) => l.section === 3);
if (mlpSteps.length) {
  out.push("## 3. The MLP step outside the kernels (ORT profiler: model_run = ORT's whole run, kernels = their sum; ms per step)", '');
  table(
    [
      'batch',
      'threads',
      'step ms (median)',
      'step CPU ms',
      'ORT model_run',
      'kernels',
      'outside ORT (step − model_run)',
      'ORT outside kernels (model_run − kernels)',
      'PyTorch step ms',
      'PyTorch ÷ ours',
      'minor faults per step',
      'load',
    ],
    mlpSteps.map((l) => {
      const p = l.profile_train_step_ms_by_op ?? {};
      return [
        l.batch,
        l.threads,
        f(l.ms_per_step, 2),
        f(l.cpu_ms_per_step, 2),
        f(p.model_run_ms, 2),
        f(p.total_kernel_ms, 2),
        f(l.ms_per_step - p.model_run_ms, 2),
        f(p.model_run_ms - p.total_kernel_ms, 2),
        f(l.torch_ms_per_step, 2),
        x(l.ratio),
        f(l.minor_faults_per_step, 0),
        loadOf(l),
      ];
    }),
  );
  const first = mlpSteps.find((l) => l.profile_train_step_ms_by_op);
  if (first) {
    const p = first.profile_train_step_ms_by_op;
    const ops = Object.entries(p).filter(([k, v]) => typeof v === 'number' && !k.endsWith('_ms'));
    out.push(`Kernels of the batch-${first.batch}, ${first.threads}-thread step (ms): ${ops.map(([k, v]) => `${k} ${f(v, 2)}`).join(', ')}.`, '');
  }
}
const scaling = steps.filter((l) => l.section === 4);
if (scaling.length) {
  out.push('## 4. Two-thread scaling, ResNet-8 (deep scale) train step', '');
  table(
    ['threads', 'ours ms', 'PyTorch ms', 'PyTorch ÷ ours', 'ours CPU ms', 'PyTorch CPU ms', 'kernels ms (profiler)', 'load'],
    scaling.map((l) => [
      l.threads,
      f(l.ms_per_step, 1),
      f(l.torch_ms_per_step, 1),
      x(l.ratio),
      f(l.cpu_ms_per_step, 1),
      f(l.torch_cpu_ms_per_step, 1),
      f(l.profile_train_step_ms_by_op?.total_kernel_ms, 1),
      loadOf(l),
    ]),
  );
  const one = scaling.find((l) => l.threads === 1);
  const two = scaling.find((l) => l.threads === 2);
  if (one && two) {
    out.push(`Step speed-up from the second thread: ours ${x(one.ms_per_step / two.ms_per_step)}, PyTorch ${x(one.torch_ms_per_step / two.torch_ms_per_step)}.`, '');
    const p1 = one.profile_train_step_ms_by_op ?? {};
    const p2 = two.profile_train_step_ms_by_op ?? {};
    const total = p1.total_kernel_ms;
    const fams = Object.entries(p1)
      .filter(([k, v]) => typeof v === 'number' && !k.endsWith('_ms'))
      .sort((a, b) => b[1] - a[1]);
    table(
      ['op family (ORT kernels)', '1 thread ms', '2 threads ms', 'speed-up', 'share of the 1-thread kernels', 'ms saved by the second thread'],
      fams.map(([k, v]) => [k, f(v, 2), f(p2[k], 2), x(v / p2[k]), `${f((100 * v) / total, 1)} %`, f(v - (p2[k] ?? NaN), 2)]),
    );
  }
}

// 5. Whole run.
const runs = bench('train-run');
const runSummary = bench('train-run-summary')[0];
if (runs.length) {
  out.push('## 5. ResNet-20 whole run, Fashion-MNIST, 2 threads', '');
  table(
    ['side', 'epochs', 'train images', 'wall s', 'CPU s', 'peak RSS MB', 'test accuracy', 'load'],
    runs.map((l) => [l.side, l.epochs, l.train_images ?? '—', f(l.wall_s, 1), f(l.cpu_s, 1), f(l.peak_rss_mb, 0), f(100 * l.test_accuracy, 1) + ' %', loadOf(l)]),
  );
  if (runSummary?.speedup_median !== undefined) out.push(`PyTorch ÷ calib: wall ${x(runSummary.speedup_median)}, CPU ${x(runSummary.cpu_speedup_median)}.`, '');
}

// Sections and steps that did not give a number.
out.push('## Sections (wall seconds, load average) and steps without a result', '');
const ends = lines.filter((l) => l.step === 'end of section');
const starts = lines.filter((l) => l.step === 'start of section');
table(
  ['section', 'given s', 'used s', 'load at start', 'load at end'],
  starts.map((s) => {
    const e = ends.find((l) => l.section === s.section);
    return [`${s.section}. ${s.name}`, s.seconds, e ? e.elapsed_s : 'not ended (killed?)', loadOf(s), e ? loadOf(e) : '—'];
  }),
);
const stepWalls = lines.filter((l) => l.step_wall_s !== undefined);
if (stepWalls.length) out.push(`Step wall seconds: ${stepWalls.map((l) => `${l.step} ${l.step_wall_s} s (load ${loadOf(l)})`).join('; ')}.`, '');
const problems = lines.filter((l) => l.skipped || l.cut || l.error);
out.push(problems.length ? problems.map((l) => `- ${l.step}: ${l.skipped ? `skipped (${l.skipped})` : l.cut ? `cut at its ${l.limit_s} s limit` : l.error}`).join('\n') : '- none');
const end = lines.find((l) => l.step === 'end');
out.push('', end ? `Whole script: ${end.elapsed_s} s of a ${end.budget_s} s budget.` : 'The script did not reach its end (killed, or still running).');
process.stdout.write(`${out.join('\n')}\n`);
