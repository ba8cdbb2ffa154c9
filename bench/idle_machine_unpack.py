"""Unpack a kit of bench/idle-machine-kit.sh in the repository root: KIT/node (executable), node_modules/ and dist/.
Python's lzma and tarfile only (machines without xz). Prints the NODE and FMNIST_DIR to pass to bench/idle-machine.sh.

Run from the repository root: python3 bench/idle_machine_unpack.py KIT
"""
import lzma
import os
import shutil
import sys
import tarfile

kit = sys.argv[1]
with lzma.open(f"{kit}/node.xz") as f, open(f"{kit}/node", "wb") as g:
    shutil.copyfileobj(f, g)
os.chmod(f"{kit}/node", 0o755)
for archive in ("node_modules.tar.xz", "dist.tar.xz"):
    with tarfile.open(f"{kit}/{archive}") as t:
        try:
            t.extractall(".", filter="data")  # Python ≥ 3.12 (and security backports): the safe extraction filter
        except TypeError:
            t.extractall(".")
print(f"NODE={os.path.abspath(kit)}/node FMNIST_DIR={os.path.abspath(kit)}/fashion-mnist")
