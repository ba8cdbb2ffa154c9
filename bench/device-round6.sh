#!/usr/bin/env bash
# Issue 24, round six on a lent idle machine: the rows round 5b left unmeasured, calibkit and PyTorch / NumPy in the
# same run, every process pinned to two cores (taskset -c $CORES), within a wall budget of $BUDGET_S seconds split
# into five sections by $SHARES (each stops cleanly at its share; time a section leaves unused goes to the next):
#   1. ISA: the full /proc/cpuinfo flags line, PyTorch's CPU capability and the ISA lines MKL and oneDNN print
#      (bench/device_isa.py), and ONNX Runtime's NCHWc channel block (16: MLAS took its AVX-512 kernels, 8: AVX2);
#   2. GEMM alone, MLAS vs MKL vs NumPy's BLAS (bench/gemm.ts with its peer bench/gemm_torch.py), 1 then 2 threads,
#      at the MLP's and ResNet-20's GEMM shapes and 1024³;
#   3. the MLP step's cost outside the kernels: `train-step --model mlp --profile` (step time, ORT's model_run and
#      the kernels' sum per step) at batch 128 with 1 and 2 threads, and at batch 8 (almost all fixed cost);
#   4. ORT's 2-thread scaling per op family: `train-step --model fmnist-resnet8 --profile` at 1 and 2 threads (the
#      PyTorch peer's step at both thread counts in the same lines);
#   5. ResNet-20's whole 2-epoch Fashion-MNIST run, `calib train` vs bench/train_run_torch.py (bench/train-run.ts),
#      2 threads, on the first $S5_IMAGES training images (90 % train, 10 % validation).
# One JSON line per measurement is appended to $OUT/device-round6.jsonl as it is made (a killed script keeps the
# lines so far), each tagged with its section and step; other output goes to $OUT/device-round6.log; at the end
# bench/device-round6-summary.mjs writes $OUT/device-round6-summary.md (run it by hand on a partial file too).
#
# Run from the repository root after `npm run build`:
#   [QUICK=1] [BUDGET_S=480] [SHARES="0.08 0.2 0.1 0.14 0.48"] [CORES=0,1] [OUT=/tmp/round6] [NODE=node]
#   [PYTHON=/usr/bin/python3] [FMNIST_DIR=/usr/share/datasets/fashion-mnist] [S5_IMAGES=15000] bash bench/device-round6.sh
# QUICK=1 (a test of the script, not a measurement): BUDGET_S 110, SHARES "0.2 0.2 0.2 0.15 0.25", gemm.ts --quick,
# 10 MLP steps and 1 ResNet-8 step a side, section 5 on 600 images for 1 epoch.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 1
CORES=${CORES:-0,1}
PYTHON=${PYTHON:-/usr/bin/python3}
export PYTHON
if [ -z "${DEVICE_ROUND6_PINNED:-}" ]; then
  export DEVICE_ROUND6_PINNED=1
  if command -v taskset > /dev/null; then exec taskset -c "$CORES" bash "${BASH_SOURCE[0]}" "$@"; fi
  # No taskset: pin with Python's sched_setaffinity (CORES as taskset takes it: 0,1 or 0-1).
  exec "$PYTHON" -c 'import os, sys
cores = {c for part in sys.argv[1].split(",") for c in range(int(part.split("-")[0]), int(part.split("-")[-1]) + 1)}
os.sched_setaffinity(0, cores)
os.execvp("bash", ["bash"] + sys.argv[2:])' "$CORES" "${BASH_SOURCE[0]}" "$@"
fi

QUICK=${QUICK:-0}
q() { if [ "$QUICK" = 1 ]; then echo "$2"; else echo "$1"; fi; }
BUDGET_S=${BUDGET_S:-$(q 480 110)}
OUT=${OUT:-/tmp/round6}
NODE=${NODE:-node}
FMNIST_DIR=${FMNIST_DIR:-/usr/share/datasets/fashion-mnist}
S5_IMAGES=${S5_IMAGES:-$(q 15000 600)}
read -r -a SHARES <<< "${SHARES:-$(q "0.08 0.2 0.1 0.14 0.48" "0.2 0.2 0.2 0.15 0.25")}"
J=$OUT/device-round6.jsonl
LOG=$OUT/device-round6.log
WORK=$OUT/device-round6-work
mkdir -p "$OUT"
[ -f "$J" ] && mv "$J" "$J.previous"
: > "$J"
: > "$LOG"
rm -rf "$WORK"
mkdir -p "$WORK/bin"
[ -f dist/bench/gemm.js ] || { echo "device-round6.sh: dist/ is not built, or built before bench/gemm.ts (npm run build)" >&2; exit 2; }

# GNU time's '%e %U %S %M' from /usr/bin/time, else from bench/gnu_time.py (train-run reads $CALIBKIT_TIME).
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
  local name=$1 min=$2 cap=$3 t
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
  t=$(date +%s)
  timeout -k 5 "$left" "$@" 2>> "$LOG" | tag "$name"
  RC=${PIPESTATUS[0]}
  if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then emit "$name" "\"cut\":true,\"limit_s\":$left"
  elif [ "$RC" -ne 0 ]; then emit "$name" "\"error\":\"exit status $RC (see device-round6.log)\""; fi
  emit "$name" "\"step_wall_s\":$(($(date +%s) - t)),\"load_average\":[$(load)]"
}
# share_of K: the section's time left divided by K (the cap of each of the K steps still to come).
share_of() { echo $(((SECTION_END - $(date +%s)) / $1)); }

echo "device-round6: budget $BUDGET_S s, cores $CORES, QUICK=$QUICK; lines in $J" >&2

# 1. The machine, and which ISA the kernels use.
section 1 "isa"
step "isa cpuinfo" 1 0 "$PYTHON" bench/device_isa.py cpuinfo
step "isa ort" 2 0 "$NODE" --input-type=module -e '
import { readFileSync } from "node:fs";
const { nchwcBlockSize } = await import("./dist/src/engine/runtime/nchwc.js");
const block = nchwcBlockSize();
const version = JSON.parse(readFileSync("node_modules/onnxruntime-node/package.json", "utf8")).version;
// MLAS sets its NCHWc block in the same cpuid branch that picks its SGEMM kernel (onnxruntime/core/mlas/lib/platform.cpp).
const meaning = { 16: "NCHWc block 16: MLAS took its AVX-512F branch (SGEMM kernel MlasGemmFloatKernelAvx512F)", 8: "NCHWc block 8: MLAS took its AVX2/FMA3 branch (SGEMM kernel MlasGemmFloatKernelFma3)", 0: "no NCHWc kernels: MLAS took neither its AVX2 nor its AVX-512F branch" };
process.stdout.write(JSON.stringify({ bench: "isa-ort", onnxruntime_node: version, nchwc_block: block, meaning: meaning[block] ?? "unknown block" }) + "\n");
'
step "isa torch" 5 0 "$PYTHON" bench/device_isa.py torch
step "machine" 2 0 "$NODE" bench/idle-machine-record.mjs machine --out "$OUT/machine.json" --python "$PYTHON" --cores "$CORES" --budget "$BUDGET_S" --started "$(date -u -d @"$T0" +%FT%TZ)"

# 2. GEMM alone: MLAS (ORT) vs MKL (torch.mm) vs NumPy's BLAS, 1 then 2 threads.
section 2 "gemm"
for threads in 1 2; do
  step "gemm threads $threads" 10 "$(share_of $((3 - threads)))" "$NODE" dist/bench/gemm.js --threads "$threads" $(q "" --quick)
done

# 3. The MLP step's cost outside the kernels (step vs ORT's model_run vs the kernels' sum).
section 3 "mlp step overhead"
for spec in "128:1:$(q 200 10)" "128:2:$(q 200 10)" "8:1:$(q 200 10)"; do
  IFS=: read -r batch threads steps <<< "$spec"
  step "train-step mlp batch $batch threads $threads" 5 0 "$NODE" dist/bench/train-step.js --model mlp --batch "$batch" --threads "$threads" --steps "$steps" --rounds "$(q 5 2)" --profile
done

# 4. ORT's 2-thread scaling per op family: the deep scale's ResNet-8 step, profiled at 1 and 2 threads.
section 4 "two-thread scaling"
for threads in 1 2; do
  step "train-step fmnist-resnet8 threads $threads" 10 "$(share_of $((3 - threads)))" "$NODE" dist/bench/train-step.js --model fmnist-resnet8 --threads "$threads" --steps "$(q 20 1)" --rounds "$(q 4 1)" --profile
done

# 5. ResNet-20's whole 2-epoch run, calib train vs PyTorch, 2 threads.
section 5 "resnet20 whole run"
CUT=$WORK/fashion-mnist-$S5_IMAGES
step "fashion-mnist cut" 30 0 "$PYTHON" bench/fashion_mnist_head.py "$FMNIST_DIR" "$CUT" "$S5_IMAGES"
if [ "$RC" = 0 ]; then
  step "train-run resnet20" 25 0 "$NODE" dist/bench/train-run.js --model resnet20 --epochs "$(q 2 1)" --rounds 1 --threads 2 --data "$CUT"
else emit "train-run resnet20" "\"skipped\":\"no Fashion-MNIST cut (status $RC)\""; fi

emit "end of section" "\"name\":\"$SECTION_NAME\",\"elapsed_s\":$(($(date +%s) - SECTION_T0)),\"load_average\":[$(load)]"
emit "end" "\"elapsed_s\":$(($(date +%s) - T0)),\"budget_s\":$BUDGET_S,\"load_average\":[$(load)]"
"$NODE" bench/device-round6-summary.mjs "$J" > "$OUT/device-round6-summary.md" 2>> "$LOG" && cat "$OUT/device-round6-summary.md"
echo "device-round6: done in $(($(date +%s) - T0)) s; $J, $OUT/machine.json, $OUT/device-round6-summary.md" >&2
