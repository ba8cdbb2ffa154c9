/**
 * Benchmark of the file formats (src/io): .npy whole-file and streamed reads, atomic writes, and CSV parsing,
 * against NumPy (np.load / np.save / np.loadtxt) on the same files in the same run when /usr/bin/python3 with
 * numpy is present. Prints one JSON object; ratios are TypeScript time / NumPy time (lower is better).
 *
 *   npx tsc -p . && node dist/bench/io.js [rows] [cols]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseNumericCsv } from '../src/io/csv.js';
import { readNpy, readNpyRows, writeNpy } from '../src/io/npy.js';
import { Random } from '../src/util/random.js';

const rows = Number(process.argv[2] ?? 200000);
const cols = Number(process.argv[3] ?? 100);
const csvRows = 20000;
const csvCols = 10;
const repeats = 5;

async function best(fn: () => Promise<unknown> | unknown): Promise<number> {
  let min = Infinity;
  for (let r = 0; r < repeats; r++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

const dir = mkdtempSync(join(tmpdir(), 'calibkit-bench-io-'));
try {
  const rng = new Random(1);
  const data = Float32Array.from({ length: rows * cols }, () => rng.normal());
  const npy = join(dir, 'x.npy');
  const writeMs = await best(() => writeNpy(npy, data, [rows, cols]));
  const readMs = await best(() => readNpy(npy));
  const streamMs = await best(async () => {
    let n = 0;
    for await (const chunk of readNpyRows(npy, { rowsPerChunk: 65536 })) n += chunk.rows;
    if (n !== rows) throw new Error('row count');
  });
  const csvPath = join(dir, 'x.csv');
  const lines: string[] = [];
  for (let i = 0; i < csvRows; i++) lines.push(Array.from(data.subarray(i * csvCols, (i + 1) * csvCols), (v) => v.toPrecision(8)).join(','));
  const csvText = lines.join('\n') + '\n';
  writeFileSync(csvPath, csvText);
  const csvMs = await best(() => parseNumericCsv(csvText, { argName: 'bench', path: csvPath }));

  let numpy: Record<string, number> | { error: string } = { error: 'python3 with numpy not available' };
  const script = `
import json, time, numpy as np
def best(f):
    m = float('inf')
    for _ in range(${repeats}):
        t = time.perf_counter(); f(); m = min(m, time.perf_counter() - t)
    return m * 1000
a = np.load(${JSON.stringify(npy)})
print(json.dumps({
  'read_ms': best(lambda: np.load(${JSON.stringify(npy)})),
  'write_ms': best(lambda: np.save(${JSON.stringify(join(dir, 'y.npy'))}, a)),
  'csv_parse_ms': best(lambda: np.loadtxt(${JSON.stringify(csvPath)}, delimiter=',', dtype=np.float64)),
}))`;
  const py = spawnSync('/usr/bin/python3', ['-c', script], { encoding: 'utf8' });
  if (py.status === 0) numpy = JSON.parse(py.stdout.trim()) as Record<string, number>;
  const mb = (rows * cols * 4) / 2 ** 20;
  const ratio = (ours: number, key: string): number | null => ('error' in numpy ? null : +(ours / (numpy as Record<string, number>)[key]!).toFixed(2));
  console.log(
    JSON.stringify(
      {
        bench: 'io',
        npy: { rows, cols, dtype: 'float32', megabytes: +mb.toFixed(1) },
        calibkit: {
          npy_read_ms: +readMs.toFixed(1),
          npy_stream_read_ms: +streamMs.toFixed(1),
          npy_atomic_write_ms: +writeMs.toFixed(1),
          npy_read_mb_per_s: +(mb / (readMs / 1000)).toFixed(0),
          csv_parse_ms: +csvMs.toFixed(1),
          csv: { rows: csvRows, cols: csvCols },
        },
        numpy,
        ratio_vs_numpy: {
          npy_read: ratio(readMs, 'read_ms'),
          npy_stream_read: ratio(streamMs, 'read_ms'),
          npy_write: ratio(writeMs, 'write_ms'),
          csv_parse: ratio(csvMs, 'csv_parse_ms'),
        },
        note: 'best of 5; calibkit writes are atomic (fsync + rename), np.save is not',
      },
      null,
      1,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
