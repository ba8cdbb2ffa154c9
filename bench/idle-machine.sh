#!/usr/bin/env bash
# Issue 24's table on an idle machine, calibkit and PyTorch interleaved in one run, every process pinned to two
# cores (taskset -c $CORES), within a wall budget of $BUDGET_S seconds split into four sections (each stops cleanly
# at its share; time a section leaves unused goes to the next):
#   1. train step (bench/train-step.ts, PyTorch peer interleaved round by round; wall and CPU medians), 1 and 2
#      threads: MLP, LeNet, the deep scale's ResNet-8 (cifar-resnet-8 w16 on 1×28×28, batch 128), CIFAR ResNet-20;
#   2. whole 2-epoch Fashion-MNIST runs, 2 threads (bench/train-run.ts: `calib train` vs bench/train_run_torch.py,
#      whole processes), MLP, LeNet, ResNet-20, on the first $S2_IMAGES training images (90 % train, 10 % validation);
#   3. the deep scale's whole run (the `deep` setting of src/suite, read from `calib suite show mbls --scale deep`)
#      for $DEEP_EPOCHS epochs, `calib train` vs bench/deep_scale_pilot_torch.py on the same images, 1 then 2
#      threads: seconds per epoch → minutes per 60-epoch run;
#   4. suite throughput at the deep scale ($SUITE_RUNS CE runs of $SUITE_EPOCHS epochs): `calib suite run --jobs 2`
#      (1 thread a run) and `--jobs 1` (2 threads) vs bench/deep_scale_runner_torch.py running the same runs as
#      2 processes × 1 thread and 1 × 2.
# One JSON line per measurement is appended to $OUT/idle-machine.jsonl as it is made (a killed script leaves the
# lines so far), each tagged with its section and step; $OUT/machine.json records the machine; at the end
# bench/idle-machine-summary.mjs writes $OUT/idle-machine-summary.md (the README's table rows). Other output of the
# benches goes to $OUT/idle-machine.log.
#
# Run from the repository root after `npm run build`:
#   [QUICK=1] [BUDGET_S=420] [CORES=0,1] [OUT=/tmp] [NODE=node] [PYTHON=/usr/bin/python3]
#   [FMNIST_DIR=/usr/share/datasets/fashion-mnist] bash bench/idle-machine.sh
# Sizes (defaults; QUICK=1 in parentheses): S2_IMAGES 15000 (1000), DEEP_TRAIN 10000 (500) training images of the
# deep scale (+ 5,000 validation, so FMNIST_DIR needs DEEP_TRAIN + 5000 training images), DEEP_EPOCHS 2 (1),
# SUITE_RUNS 2, SUITE_EPOCHS 1; BUDGET_S 420 (150); SHARES "0.2 0.25 0.25 0.3" (the sections' shares).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1
CORES=${CORES:-0,1}
PYTHON=${PYTHON:-/usr/bin/python3}
export PYTHON
if [ -z "${IDLE_MACHINE_PINNED:-}" ]; then
  export IDLE_MACHINE_PINNED=1
  if command -v taskset > /dev/null; then exec taskset -c "$CORES" bash "${BASH_SOURCE[0]}" "$@"; fi
  # No taskset: pin with Python's sched_setaffinity (CORES as taskset takes it: 0,1 or 0-1).
  exec "$PYTHON" -c 'import os, sys
cores = {c for part in sys.argv[1].split(",") for c in range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1)}
os.sched_setaffinity(0, cores)
os.execvp("bash", ["bash"] + sys.argv[2:])' "$CORES" "${BASH_SOURCE[0]}" "$@"
fi

QUICK=${QUICK:-0}
q() { if [ "$QUICK" = 1 ]; then echo "$2"; else echo "$1"; fi; }
BUDGET_S=${BUDGET_S:-$(q 420 150)}
OUT=${OUT:-/tmp}
NODE=${NODE:-node}
FMNIST_DIR=${FMNIST_DIR:-/usr/share/datasets/fashion-mnist}
S2_IMAGES=${S2_IMAGES:-$(q 15000 1000)}
DEEP_TRAIN=${DEEP_TRAIN:-$(q 10000 500)}
DEEP_EPOCHS=${DEEP_EPOCHS:-$(q 2 1)}
SUITE_RUNS=${SUITE_RUNS:-2}
SUITE_EPOCHS=${SUITE_EPOCHS:-1}
read -r -a SHARES <<< "${SHARES:-0.2 0.25 0.25 0.3}"
CLI=(dist/src/cli/main.js)
J=$OUT/idle-machine.jsonl
LOG=$OUT/idle-machine.log
WORK=$OUT/idle-machine-work
mkdir -p "$OUT"
[ -f "$J" ] && mv "$J" "$J.previous"
: > "$J"
: > "$LOG"
rm -rf "$WORK"
mkdir -p "$WORK/bin"
[ -f dist/bench/train-step.js ] || { echo "idle-machine.sh: dist/ is not built (npm run build)" >&2; exit 2; }

# GNU time's '%e %U %S %M' from /usr/bin/time, else from bench/gnu_time.py (the benches read $CALIBKIT_TIME).
if [ -x /usr/bin/time ]; then TIME=/usr/bin/time; else
  TIME=$WORK/bin/time
  printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$PYTHON" "$ROOT/bench/gnu_time.py" > "$TIME"
  chmod +x "$TIME"
fi
export CALIBKIT_TIME=$TIME

T0=$(date +%s)
SECTION=0
SECTION_END=$T0
CUMULATIVE=0

# emit STEP JSON-FIELDS: one line into $J, tagged.
emit() { printf '{"section":%s,"step":"%s",%s}\n' "$SECTION" "$1" "$2" >> "$J"; }
# tag STEP: stdin's JSON lines into $J with the section and step, other lines into $LOG.
tag() {
  local line
  while IFS= read -r line; do
    case $line in
      '{'*) printf '{"section":%s,"step":"%s",%s\n' "$SECTION" "$1" "${line#\{}" >> "$J" ;;
      *) printf '%s\n' "$line" >> "$LOG" ;;
    esac
  done
}
load() { cut -d' ' -f1-3 /proc/loadavg | tr ' ' ','; }
# section N NAME: start section N; it ends at T0 + BUDGET_S × (sum of the shares up to N).
section() {
  [ "$SECTION" -gt 0 ] && emit "end of section" "\"name\":\"$SECTION_NAME\",\"elapsed_s\":$(($(date +%s) - SECTION_T0)),\"load_average\":[$(load)]"
  SECTION=$1
  SECTION_NAME=$2
  SECTION_T0=$(date +%s)
  CUMULATIVE=$(awk -v c="$CUMULATIVE" -v s="${SHARES[$((SECTION - 1))]}" 'BEGIN { print c + s }')
  SECTION_END=$(awk -v t="$T0" -v b="$BUDGET_S" -v c="$CUMULATIVE" 'BEGIN { printf "%d", t + b * c }')
  emit "start of section" "\"name\":\"$SECTION_NAME\",\"seconds\":$((SECTION_END - SECTION_T0)),\"load_average\":[$(load)]"
  echo "section $SECTION ($SECTION_NAME): $((SECTION_END - SECTION_T0)) s" >&2
}
# step NAME MIN_S CAP_S CMD…: run CMD with a time limit of min(CAP_S, what the section has left) (CAP_S 0: no cap),
# or skip it when less than MIN_S is left; its JSON lines are tagged into $J. Sets RC (124/137: cut at the limit).
step() {
  local name=$1 min=$2 cap=$3
  shift 3
  local left=$((SECTION_END - $(date +%s)))
  if [ "$left" -lt "$min" ]; then
    emit "$name" "\"skipped\":\"$left s left of the section, $min s needed\""
    RC=-1
    return
  fi
  [ "$cap" -gt 0 ] && [ "$cap" -lt "$left" ] && left=$cap
  echo "  $name (limit $left s)" >&2
  echo "== $name: $*" >> "$LOG"
  timeout -k 5 "$left" "$@" 2>> "$LOG" | tag "$name"
  RC=${PIPESTATUS[0]}
  if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then emit "$name" "\"cut\":true,\"limit_s\":$left"
  elif [ "$RC" -ne 0 ]; then emit "$name" "\"error\":\"exit status $RC (see idle-machine.log)\""; fi
}
# share_of K: the section's time left divided by K (the cap of each of the K steps still to come).
share_of() { echo $(((SECTION_END - $(date +%s)) / $1)); }

"$NODE" bench/idle-machine-record.mjs machine --out "$OUT/machine.json" --python "$PYTHON" --cores "$CORES" --budget "$BUDGET_S" --started "$(date -u +%FT%TZ)" | tag machine
echo "idle-machine: budget $BUDGET_S s, cores $CORES, QUICK=$QUICK; lines in $J" >&2

# 1. Train steps, interleaved with the PyTorch peer in each process.
section 1 "train step"
ROUNDS=$(q 5 2)
for spec in $(q "mlp:200 lenet:200 fmnist-resnet8:30 resnet20:15" "mlp:10 lenet:10 fmnist-resnet8:2 resnet20:2"); do
  model=${spec%%:*}
  for threads in 1 2; do
    step "train-step $model threads $threads" 5 0 "$NODE" dist/bench/train-step.js --model "$model" --threads "$threads" --steps "${spec##*:}" --rounds "$ROUNDS"
  done
done

# 2. Whole 2-epoch runs on the first S2_IMAGES training images.
section 2 "whole runs"
CUT=$WORK/fashion-mnist-$S2_IMAGES
"$PYTHON" bench/fashion_mnist_head.py "$FMNIST_DIR" "$CUT" "$S2_IMAGES" | tag "fashion-mnist cut"
for spec in $(q "mlp:2 lenet:2 resnet20:1" "mlp:1 lenet:1 resnet20:1"); do
  model=${spec%%:*}
  step "train-run $model" 10 0 "$NODE" dist/bench/train-run.js --model "$model" --epochs "$(q 2 1)" --rounds "${spec##*:}" --threads 2 --data "$CUT"
done

# 3. The deep scale's whole run: calib train with the `deep` setting vs the PyTorch pilot, same images.
section 3 "deep-scale run"
SPLITS=$WORK/deep-splits
step "deep splits" 5 0 "$NODE" dist/bench/idle-machine-splits.js --data "$FMNIST_DIR" --train "$DEEP_TRAIN" --out "$SPLITS"
"$NODE" "${CLI[@]}" suite show mbls --scale deep > "$WORK/mbls-deep.json"
"$NODE" -e '
const fs = require("fs");
const [file, out, epochs, train, dir, runs, suiteEpochs] = process.argv.slice(1);
const suite = JSON.parse(fs.readFileSync(file, "utf8"));
const base = { ...suite.base, epochs: Number(epochs), subset: Number(train) + suite.base.validation, datasetOptions: { directory: dir } };
fs.writeFileSync(`${out}/deep-train.json`, JSON.stringify({ ...base, loss: "ce", seed: 0 }, null, 2));
const seeds = Array.from({ length: Number(runs) }, (_, i) => i);
fs.writeFileSync(`${out}/deep-suite.json`, JSON.stringify({ ...suite, name: "idle-machine-deep", description: "CE runs of the deep scale, short epochs: bench/idle-machine.sh", base: { ...base, epochs: Number(suiteEpochs) }, grids: {}, methods: [{ name: "ce", label: "CE", loss: "ce" }], sweeps: [], seeds, posthoc: ["temperature"], ood: false, compare: [], claims: [] }, null, 2));
' "$WORK/mbls-deep.json" "$WORK" "$DEEP_EPOCHS" "$DEEP_TRAIN" "$FMNIST_DIR" "$SUITE_RUNS" "$SUITE_EPOCHS" 2>> "$LOG" || echo "idle-machine.sh: could not derive the deep setting (see $LOG)" >&2
deep_calib() {
  local t=$1
  step "deep-run calib threads $t" 20 "$(share_of "$2")" "$TIME" -f '%e %U %S %M' -o "$WORK/deep-calib-t$t.time" "$NODE" "${CLI[@]}" train --config "$WORK/deep-train.json" --threads "$t" --calibrate temperature --out "$WORK/deep-calib-t$t" --force --progress none
  [ "$RC" = -1 ] && return
  "$NODE" bench/idle-machine-record.mjs deep-run --side calib --dir "$WORK/deep-calib-t$t" --time "$WORK/deep-calib-t$t.time" --status="$RC" --threads "$t" --epochs "$DEEP_EPOCHS" --train "$DEEP_TRAIN" | tag "deep-run calib threads $t"
}
deep_torch() {
  local t=$1
  step "deep-run torch threads $t" 20 "$(share_of "$2")" env OMP_NUM_THREADS="$t" "$TIME" -f '%e %U %S %M' -o "$WORK/deep-torch-t$t.time" "$PYTHON" bench/deep_scale_pilot_torch.py --splits "$SPLITS" --out "$WORK/deep-torch-t$t" --epochs "$DEEP_EPOCHS" --seed 0 --threads "$t"
  [ "$RC" = -1 ] && return
  "$NODE" bench/idle-machine-record.mjs deep-run --side torch --dir "$WORK/deep-torch-t$t" --time "$WORK/deep-torch-t$t.time" --status="$RC" --threads "$t" --epochs "$DEEP_EPOCHS" --train "$DEEP_TRAIN" | tag "deep-run torch threads $t"
}
deep_calib 1 4
deep_torch 1 3
deep_torch 2 2
deep_calib 2 1

# 4. Suite throughput at the deep scale: runs per hour, calibkit's suite runner vs a PyTorch runner of the same runs.
section 4 "suite throughput"
suite_calib() {
  local jobs=$1 t=$2 dir=$WORK/suite-calib-${1}x$2 start end
  start=$(date +%s.%N)
  step "suite calib jobs $jobs threads $t" 20 "$(share_of "$3")" "$NODE" "${CLI[@]}" suite run "$WORK/deep-suite.json" --out "$dir" --jobs "$jobs" --threads $((jobs * t)) --progress none
  end=$(date +%s.%N)
  [ "$RC" = -1 ] && return
  "$NODE" bench/idle-machine-record.mjs suite --dir "$dir" --wall "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" --jobs "$jobs" --threads "$t" --status="$RC" --runs "$SUITE_RUNS" --epochs "$SUITE_EPOCHS" | tag "suite calib jobs $jobs threads $t"
}
suite_torch() {
  step "suite torch jobs $1 threads $2" 20 "$(share_of "$3")" "$PYTHON" bench/deep_scale_runner_torch.py --splits "$SPLITS" --out "$WORK/suite-torch-${1}x$2" --runs "$SUITE_RUNS" --procs "$1" --threads "$2" --epochs "$SUITE_EPOCHS"
}
suite_calib 2 1 4
suite_torch 2 1 3
suite_torch 1 2 2
suite_calib 1 2 1

emit "end of section" "\"name\":\"$SECTION_NAME\",\"elapsed_s\":$(($(date +%s) - SECTION_T0)),\"load_average\":[$(load)]"
emit "end" "\"elapsed_s\":$(($(date +%s) - T0)),\"budget_s\":$BUDGET_S,\"load_average\":[$(load)]"
"$NODE" bench/idle-machine-summary.mjs "$J" > "$OUT/idle-machine-summary.md" 2>> "$LOG" && cat "$OUT/idle-machine-summary.md"
echo "idle-machine: done in $(($(date +%s) - T0)) s; $J, $OUT/machine.json, $OUT/idle-machine-summary.md" >&2
