#!/usr/bin/env bash
# Pack what bench/idle-machine.sh needs on a machine without Node, node_modules or dist/, small enough to carry
# (≈ 56 MB): KIT/node.xz (this machine's Node binary, xz -1), KIT/node_modules.tar.xz (onnxruntime-node for
# linux-x64 and onnxruntime-common: the only packages the benched paths load), KIT/dist.tar.xz (the build) and
# KIT/fashion-mnist/ (the first N training images, well-formed, and the test split). Unpack there with
# `python3 bench/idle_machine_unpack.py KIT` (Python's lzma and tarfile: no xz needed), then run
# NODE=KIT/node FMNIST_DIR=KIT/fashion-mnist PYTHON=… bash bench/idle-machine.sh.
#
# Run from the repository root after `npm run build`: bash bench/idle-machine-kit.sh [KIT=runs/idle-kit] [N=15000] [FMNIST_DIR]
set -euo pipefail
KIT=${1:-runs/idle-kit}
N=${2:-15000}
SRC=${3:-/usr/share/datasets/fashion-mnist}
mkdir -p "$KIT"
xz -1 -T2 -c "$(command -v node)" > "$KIT/node.xz"
ORT=node_modules/onnxruntime-node
tar -cf - -h "$ORT/package.json" "$ORT/dist" "$ORT/lib" "$ORT/bin/napi-v6/linux/x64" node_modules/onnxruntime-common | xz -1 -T2 > "$KIT/node_modules.tar.xz"
tar -cf - dist | xz -1 -T2 > "$KIT/dist.tar.xz"
python3 bench/fashion_mnist_head.py "$SRC" "$KIT/fashion-mnist" "$N" > /dev/null
for f in "$KIT"/fashion-mnist/t10k-*; do [ -L "$f" ] && cp --remove-destination "$(readlink -f "$f")" "$f"; done
du -sh "$KIT"
