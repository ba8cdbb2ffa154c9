/**
 * Every `calib` example of README.md (the quick start's follow-up commands and the eval, fit/apply, plot and loss
 * sections) run as written, in-process, on the outputs of the quick start's own command: a 3-epoch MLP trained
 * on the embedded MNIST digits into runs/mnist-mlp (the quick start's directory, inside a temporary working
 * directory). The generic names of the command sections (L.npy, Y.npy, P.csv, val-logits.npy, val-probs.npy,
 * H.npy, ...) are files made from that run's outputs. `calib train` examples other than the quick start need
 * datasets or hours and are left to test/train, suite commands to test/suite; an example with `...` elides arguments
 * and is skipped.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { loadDataset } from '../../src/data/load-dataset.js';
import { join } from 'node:path';
import { readNpy, writeNpy } from '../../src/io/npy.js';
import { buildClassifier } from '../deploy/classifiers.js';
import { tempDir } from '../io/temp-dir.js';
import { run } from '../cli/capture.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

/** The command lines (continuations joined, comments removed) of the README's ```sh blocks. */
function readmeCommands(): string[] {
  const out: string[] = [];
  for (const block of README.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    for (const raw of joined.split('\n')) {
      for (const part of raw.split('&&')) {
        const line = part.replace(/\s#.*$/, '').trim();
        if (/^(npx )?calib /.test(line)) out.push(line.replace(/^npx /, ''));
      }
    }
  }
  return out;
}

/** Split a command line like a shell (double quotes group words); `[optional parts]` are dropped. */
function words(line: string): string[] {
  const cleaned = line.replace(/\s\[[^\]]*\]/g, '');
  return [...cleaned.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

const dir = tempDir('readme-cli');
const commands = readmeCommands();

test('the README has the quick start and the command examples this test runs', () => {
  assert.ok(commands.includes('calib train --dataset mnist --model mlp --epochs 3 --out runs/mnist-mlp'), commands.join('\n'));
  assert.ok(commands.some((c) => c.startsWith('calib fit --method dirichlet')));
  assert.ok(commands.length >= 20, String(commands.length));
});

test("every README calib example runs as written on the quick start's outputs", async () => {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const quickStart = commands.find((c) => c.startsWith('calib train --dataset mnist'))!;
    const trained = await run(words(quickStart).slice(1));
    assert.equal(trained.code, 0, trained.stderr);
    // The generic names of the command sections, from the run's outputs.
    const r = (name: string): string => join('runs/mnist-mlp', name);
    // The quick start's follow-up commands read the demo suite's CE run: the same files (test/suite runs the suite).
    cpSync('runs/mnist-mlp', 'calib-demo/runs/ce-seed0', { recursive: true });
    const valLogits = await readNpy(r('val-logits.npy'));
    const valLabels = await readNpy(r('val-labels.npy'));
    const [n, c] = valLogits.shape as [number, number];
    const probs = new Float32Array(n * c);
    for (let i = 0; i < n; i++) {
      let m = -Infinity;
      for (let k = 0; k < c; k++) m = Math.max(m, Number(valLogits.data[i * c + k]));
      let s = 0;
      for (let k = 0; k < c; k++) s += Math.exp(Number(valLogits.data[i * c + k]) - m);
      for (let k = 0; k < c; k++) probs[i * c + k] = Math.exp(Number(valLogits.data[i * c + k]) - m) / s;
    }
    const labels = Int32Array.from(valLabels.data as ArrayLike<number>, Number);
    for (const name of ['L.npy', 'z.npy', 'val-logits.npy', 'test-logits.npy']) await writeNpy(name, valLogits.data as Float32Array, [n, c]);
    for (const name of ['Y.npy', 'y.npy', 'val-labels.npy']) await writeNpy(name, labels, [n], { dtype: 'int64' });
    for (const name of ['P.npy', 'val-probs.npy']) await writeNpy(name, probs, [n, c]);
    const rows: string[] = [];
    for (let i = 0; i < n; i++) rows.push(Array.from(probs.subarray(i * c, (i + 1) * c), String).join(','));
    writeFileSync('P.csv', `${rows.join('\n')}\n`);
    writeFileSync('Y.csv', `${Array.from(labels).join('\n')}\n`);
    writeFileSync('W.csv', `${Array.from(labels, (_, i) => (i % 4) * 0.5).join('\n')}\n`);
    await writeNpy(
      'H.npy',
      Int32Array.from(labels, (_, i) => i % 5),
      [n],
      { dtype: 'int64' },
    );
    // The group-wise examples' sites: three named sites, one of them small (the pooled calibrator's case).
    const sites = Array.from(labels, (_, i) => (i % 10 === 9 ? 'clinic' : i % 2 === 0 ? 'north' : 'south'));
    for (const name of ['sites.csv', 'val-sites.csv', 'test-sites.csv', 'cal-sites.csv']) writeFileSync(name, `site\n${sites.join('\n')}\n`);
    // The two-column examples: the site and a device per row, and sample weights.
    for (const name of ['val-site.csv', 'test-site.csv']) writeFileSync(name, `site\n${sites.join('\n')}\n`);
    for (const name of ['val-device.csv', 'test-device.csv']) writeFileSync(name, `device\n${Array.from(labels, (_, i) => (i % 3 === 0 ? 'phone' : 'scanner')).join('\n')}\n`);
    await writeNpy(
      'val-w.npy',
      Float64Array.from(labels, (_, i) => 1 + (i % 3)),
      [n],
    );
    // The conformal example's calibration files (the Deploy section rewrites val-logits.npy from 200 images).
    await writeNpy('cal-logits.npy', valLogits.data as Float32Array, [n, c]);
    await writeNpy('cal-labels.npy', labels, [n], { dtype: 'int64' });
    // The LLM-log and multi-label examples read the fixtures of test/cli/lm-eval.test.ts and multilabel.test.ts.
    const fixture = (path: string): string => new URL(`../../../test/fixtures/${path}`, import.meta.url).pathname;
    copyFileSync(fixture('lm-eval/harness-hellaswag.jsonl'), 'samples_hellaswag.jsonl');
    copyFileSync(fixture('lm-eval/harness-hellaswag.jsonl'), 'val-samples.jsonl');
    copyFileSync(fixture('lm-eval/harness-arc-ragged.jsonl'), 'test-samples.jsonl');
    copyFileSync(fixture('multilabel/logits.npy'), 'tag-logits.npy');
    copyFileSync(fixture('multilabel/labels.npy'), 'tags.npy');
    writeFileSync('tags.txt', 'person\ncar\ndog\ncat\ntree\n');
    // The multi-label export example's tagger.onnx: 5 outputs (logits) of a small linear model.
    writeFileSync('tagger.onnx', buildClassifier({ sampleShape: [6], classes: 5, seed: 2, inputName: 'x' }).bytes);
    // The Deploy section's model.onnx and val/ (a folder of PNGs, one subfolder per class): the run's exported model
    // and 200 of the embedded MNIST test digits.
    copyFileSync(r('model.onnx'), 'model.onnx');
    const digits = (await loadDataset('mnist')).test!;
    if (digits.kind !== 'image') throw new Error('mnist is an image dataset');
    for (let i = 0; i < 200; i++) {
      const png = new PNG({ width: 28, height: 28 });
      for (let q = 0; q < 784; q++) {
        const v = Math.round(255 * digits.images[i * 784 + q]!);
        png.data.set([v, v, v, 255], 4 * q);
      }
      mkdirSync(join('val', String(digits.labels[i])), { recursive: true });
      writeFileSync(join('val', String(digits.labels[i]), `${i}.png`), PNG.sync.write(png));
    }

    const ran: string[] = [];
    for (const line of commands) {
      if (line === quickStart || line.includes('...')) continue;
      const argv = words(line).slice(1);
      // Suites (demo, suite, report, worker) take minutes or a Redis server: test/suite runs them.
      if (['train', 'demo', 'suite', 'report', 'worker'].includes(argv[0]!)) continue;
      const result = await run(argv);
      assert.equal(result.code, 0, `${line}\n${result.stderr}`);
      assert.doesNotMatch(result.stderr, /error/, line);
      ran.push(argv[0]!);
    }
    for (const command of ['eval', 'fit', 'apply', 'plot', 'loss']) assert.ok(ran.includes(command), `${command} examples ran: ${ran.join(' ')}`);
    assert.ok(ran.length >= 15, ran.join(' '));
  } finally {
    process.chdir(cwd);
  }
});
