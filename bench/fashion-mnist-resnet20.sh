#!/bin/bash
# The issue-5 calibration measurement through the CLI: Fashion-MNIST, CIFAR ResNet-20, 30 epochs (SGD 0.1, ÷10 at
# 50 % / 75 %, batch 128, 5,000 validation images, seed 0), CE vs LS ε = 0.05 vs MbLS m = 6, three runs side by side
# with one ORT thread each (≈ 2.9 h on 2 cores). Resumable: rerun it and stopped runs continue (`calib train --resume`),
# finished ones are skipped. Then a Markdown table of the test split at the best epoch (by validation accuracy) and at
# the last epoch, before and after temperature scaling fitted on the same epoch's validation logits.
# Run from the repository root after `npm run build`: bash bench/fashion-mnist-resnet20.sh [OUT_DIR] [EPOCHS]
set -e
OUT=${1:-runs/fmnist-resnet20}
EPOCHS=${2:-30}
C="node dist/src/cli/main.js"
mkdir -p "$OUT"
for spec in "ce" "ls --opt epsilon=0.05" "mbls --opt margin=6"; do
  name=${spec%% *}; dir=$OUT/resnet20-$name
  if [ -f "$dir/summary.json" ]; then continue; fi
  if [ -f "$dir/checkpoint-last.ckpt" ]; then
    $C train --resume "$dir" --progress lines >> "$dir.log" 2>&1 &
  else
    $C train --dataset fashion-mnist --model resnet20 --loss $spec --epochs "$EPOCHS" --batch 128 --lr 0.1 \
      --schedule multistep:0.5,0.75 --validation 5000 --seed 0 --threads 1 --progress lines --out "$dir" > "$dir.log" 2>&1 &
  fi
done
wait
for name in ce ls mbls; do
  run=$OUT/resnet20-$name
  [ -f "$run/summary.json" ] || { echo "$run did not finish (see $run.log)" >&2; exit 1; }
  [ -f "$run/last/test-logits.npy" ] || node dist/bench/last-epoch-logits.js "$run" > /dev/null
  for d in "$run" "$run/last"; do
    $C eval --logits "$d/test-logits.npy" --labels "$d/test-labels.npy" --bootstrap 1000 --seed 0 --json > "$d/test-eval.json"
    $C fit --method temperature --logits "$d/val-logits.npy" --labels "$d/val-labels.npy" --out "$d/ts.json" > /dev/null
    $C apply --calibrator "$d/ts.json" --logits "$d/test-logits.npy" --out "$d/test-probs-ts.npy" > /dev/null
    $C eval --probs "$d/test-probs-ts.npy" --labels "$d/test-labels.npy" --json > "$d/test-eval-ts.json"
  done
done
node --input-type=module - "$OUT" <<'JS'
import { readFileSync } from 'node:fs';
const out = process.argv[2];
const read = (f) => JSON.parse(readFileSync(f, 'utf8'));
const pct = (v) => (100 * v).toFixed(2);
console.log('| loss | epoch | test acc % | ECE % (95 % CI) | AdaECE % | NLL | mean conf. % | T (val) | ECE after TS % | samples/s |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [name, label] of [['ce', 'CE'], ['ls', 'LS ε = 0.05'], ['mbls', 'MbLS m = 6']]) {
  const run = `${out}/resnet20-${name}`;
  const s = read(`${run}/summary.json`);
  for (const [d, epoch] of [[`${run}/last`, `last ${s.epochs}`], [run, `best ${s.best_epoch}`]]) {
    const e = read(`${d}/test-eval.json`), t = read(`${d}/test-eval-ts.json`), ts = read(`${d}/ts.json`);
    const [lo, hi] = e.bootstrap.intervals.ece;
    console.log(`| ${label} | ${epoch} | ${pct(e.accuracy)} | ${pct(e.ece)} (${pct(lo)}–${pct(hi)}) | ${pct(e.adaece)} | ${e.nll.toFixed(3)} | ${pct(e.mean_confidence)} | ${ts.temperature.toFixed(2)} | ${pct(t.ece)} | ${s.samples_per_s.toFixed(0)} |`);
  }
}
JS
