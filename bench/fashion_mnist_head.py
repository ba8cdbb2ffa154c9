"""A Fashion-MNIST directory whose training split is the first N images of another's: writes DST/train-images-idx3-ubyte.gz
and DST/train-labels-idx1-ubyte.gz as well-formed IDX files (the header's count says N, so calibkit's loader, which
checks the size against the header, accepts them) and links the two test files. Used by bench/idle-machine.sh to cut
the whole-run section to fit its time; also the way to make a truncated copy to carry to another machine (cutting the
bytes alone leaves a header that still says 60,000, which the loader refuses as a truncated file).

Run: python3 bench/fashion_mnist_head.py SRC_DIR DST_DIR N   (prints {"train_images": n}, n = min(N, images in SRC))
"""
import gzip
import json
import os
import struct
import sys


def read(directory, name):
    for path in (f"{directory}/{name}.gz", f"{directory}/{name}"):
        if os.path.exists(path):
            data = open(path, "rb").read()
            return path, gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
    sys.exit(f"fashion_mnist_head.py: {name}(.gz) not found in {directory}")


def head(data, n):
    rank = data[3]
    dims = list(struct.unpack(f">{rank}I", data[4 : 4 + 4 * rank]))
    per = 1
    for d in dims[1:]:
        per *= d
    n = min(n, dims[0])
    body = 4 + 4 * rank
    return data[:4] + struct.pack(f">{rank}I", n, *dims[1:]) + data[body : body + n * per], n


def main():
    src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    os.makedirs(dst, exist_ok=True)
    counts = []
    for name in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
        _, data = read(src, name)
        cut, count = head(data, n)
        counts.append(count)
        with gzip.open(f"{dst}/{name}.gz.tmp", "wb", compresslevel=1) as f:
            f.write(cut)
        os.replace(f"{dst}/{name}.gz.tmp", f"{dst}/{name}.gz")
    for name in ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
        path, _ = read(src, name)
        link = f"{dst}/{os.path.basename(path)}"
        if not os.path.exists(link):
            os.symlink(os.path.abspath(path), link)
    print(json.dumps({"train_images": counts[0]}))


if __name__ == "__main__":
    main()
