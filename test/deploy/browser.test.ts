import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appendCalibrator } from '../../src/deploy/append-calibrator.js';
import { decodeOnnx, encodeOnnx } from '../../src/deploy/onnx-file.js';
import { writeNpy } from '../../src/io/npy.js';
import { fitCalibrator } from '../../src/posthoc/index.js';
import { Random } from '../../src/util/random.js';
import { run } from '../cli/capture.js';
import { tempDir } from '../io/temp-dir.js';
import { buildClassifier, referenceLogits } from './classifiers.js';
import { runModel } from './runtimes.js';

/**
 * The static page examples/browser/index.html in headless Chromium (Debian's `chromium`, driven by
 * playwright-core): served on 127.0.0.1 with onnxruntime-web's WASM files from node_modules, it runs a calibrated
 * model; the calibrated and raw probabilities it shows must equal calib apply's within 1e-6. A screenshot is
 * written to $CALIBKIT_SCREENSHOT or <tmp>/calibkit-browser-example.png.
 */

const ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const MIME: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.onnx': 'application/octet-stream',
};

/** Serve /examples/browser/ and /node_modules/onnxruntime-web/dist/ from the repository, /data/ from `dataDir`. */
function serve(dataDir: string): Promise<{ server: Server; port: number }> {
  const mounts: [string, string][] = [
    ['/examples/browser/', join(ROOT, 'examples', 'browser')],
    ['/node_modules/onnxruntime-web/dist/', join(ROOT, 'node_modules', 'onnxruntime-web', 'dist')],
    ['/data/', dataDir],
  ];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    for (const [prefix, dir] of mounts) {
      if (!path.startsWith(prefix)) continue;
      const file = normalize(join(dir, path.slice(prefix.length) || 'index.html'));
      if ((file === dir || file.startsWith(dir + sep)) && existsSync(file)) {
        res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
        res.end(readFileSync(file));
        return;
      }
    }
    res.writeHead(404).end('not found');
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ server, port: (server.address() as { port: number }).port })));
}

const skip = !existsSync(CHROMIUM) ? `no Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)` : false;
if (skip) console.log(`# skipped browser test: ${skip}`);

test("examples/browser: headless Chromium shows the calibrated model's probabilities, equal to calib apply within 1e-6", { skip, timeout: 120_000 }, async (t) => {
  const dir = tempDir('deploy-browser');
  const C = 4;
  const D = 8;
  const model = buildClassifier({ sampleShape: [D], classes: C, inputName: 'pixels', scale: 2, seed: 21 });
  const n = 400;
  const rng = new Random(5);
  const x = Float32Array.from({ length: n * D }, () => rng.normal());
  const z = referenceLogits(model, x, n);
  const labels = Int32Array.from({ length: n }, (_, i) => {
    const w = Array.from({ length: C }, (_, k) => Math.exp(z[i * C + k]! / 4));
    let u = rng.uniform() * w.reduce((a, b) => a + b, 0);
    let k = 0;
    while (k < C - 1 && (u -= w[k]!) > 0) k++;
    return k;
  });
  const logits = (await runModel('onnxruntime-node', model.bytes, 'pixels', x, [n, D]))['logits']!.data;
  const calibrator = fitCalibrator('temperature', { logits: { rows: n, cols: C, data: logits } }, labels);
  writeFileSync(join(dir, 'model.onnx'), encodeOnnx(appendCalibrator(decodeOnnx(model.bytes, 'model'), calibrator, { keepOutputs: true }).model));
  await writeNpy(join(dir, 'z.npy'), logits, [n, C]);
  await writeNpy(join(dir, 'y.npy'), labels, [n]);
  const plot = await run(['plot', '--logits', join(dir, 'z.npy'), '--labels', join(dir, 'y.npy'), '--out', join(dir, 'reliability.svg'), '--title', 'Uncalibrated model']);
  assert.equal(plot.code, 0, plot.stderr);
  const shown = 12;
  const samples = Array.from({ length: shown }, (_, i) => Array.from(x.subarray(i * D, (i + 1) * D)));
  writeFileSync(join(dir, 'samples.json'), JSON.stringify({ input: 'pixels', shape: [D], classes: ['ant', 'bee', 'cat', 'dog'], samples, labels: Array.from(labels.subarray(0, shown)) }));
  const expected = calibrator.apply({ logits: { rows: shown, cols: C, data: logits.subarray(0, shown * C) } }).data;

  const { chromium } = await import('playwright-core');
  const { server, port } = await serve(dir);
  const profile = mkdtempSync(join(tmpdir(), 'calibkit-chromium-'));
  // A fresh profile directory for this run (playwright passes it as --user-data-dir).
  const browser = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1100, height: 760 } });
  try {
    const page = await browser.newPage();
    const url = `http://127.0.0.1:${port}/examples/browser/index.html?model=/data/model.onnx&samples=/data/samples.json&diagram=/data/reliability.svg`;
    await page.goto(url);
    await page.waitForSelector('#status[data-state="done"], #status[data-state="error"]', { timeout: 60_000 });
    const status = await page.textContent('#status');
    assert.equal(await page.getAttribute('#status', 'data-state'), 'done', status ?? '');
    const rows = await page.$$eval('tr.sample', (trs) =>
      trs.map((tr) => ({
        calibrated: JSON.parse((tr as unknown as { dataset: Record<string, string> }).dataset.calibrated!),
        raw: JSON.parse((tr as unknown as { dataset: Record<string, string> }).dataset.raw!),
      })),
    );
    assert.equal(rows.length, shown);
    let maxCal = 0;
    let maxRaw = 0;
    for (let i = 0; i < shown; i++) {
      const rawRow = Array.from(logits.subarray(i * C, (i + 1) * C));
      const m = Math.max(...rawRow);
      const e = rawRow.map((v) => Math.exp(v - m));
      const s = e.reduce((a, b) => a + b, 0);
      for (let k = 0; k < C; k++) {
        maxCal = Math.max(maxCal, Math.abs(rows[i]!.calibrated[k] - expected[i * C + k]!));
        maxRaw = Math.max(maxRaw, Math.abs(rows[i]!.raw[k] - e[k]! / s));
      }
    }
    t.diagnostic(`chromium onnxruntime-web temperature (T = ${calibrator.toJSON().temperature}): max |Δp| calibrated = ${maxCal.toExponential(2)}, raw = ${maxRaw.toExponential(2)}`);
    assert.ok(maxCal <= 1e-6, `calibrated max |Δp| ${maxCal}`);
    assert.ok(maxRaw <= 1e-6, `raw max |Δp| ${maxRaw}`);
    const featured = await page.textContent('#featured');
    assert.match(featured ?? '', /raw confidence \d+\.\d % → calibrated \d+\.\d %/);
    assert.ok(await page.$eval('#diagram', (img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0), 'the reliability diagram loads');
    const shot = process.env.CALIBKIT_SCREENSHOT ?? join(tmpdir(), 'calibkit-browser-example.png');
    await page.screenshot({ path: shot, fullPage: true });
    t.diagnostic(`screenshot: ${shot}`);
  } finally {
    await browser.close();
    server.close();
  }
});
