"""A stand-in for GNU time's `-f FORMAT -o FILE COMMAND…` where /usr/bin/time is not installed (bench/idle-machine.sh
points $CALIBKIT_TIME at a wrapper of this file). Runs COMMAND, waits for it, and writes FORMAT to FILE with %e (wall
seconds), %U / %S (user / system CPU seconds of the command and its waited-for children, getrusage(RUSAGE_CHILDREN))
and %M (peak resident set of the largest of them, KiB) filled in, as GNU time does. Exits with COMMAND's status.

Run: python3 bench/gnu_time.py -f '%e %U %S %M' -o report.txt COMMAND [ARGS…]
"""
import resource
import subprocess
import sys
import time


def main(argv):
    fmt, out, i = "%e %U %S %M", None, 0
    while i < len(argv) and argv[i] in ("-f", "-o"):
        if argv[i] == "-f":
            fmt = argv[i + 1]
        else:
            out = argv[i + 1]
        i += 2
    command = argv[i:]
    if not command:
        sys.exit("gnu_time.py: usage: gnu_time.py [-f FORMAT] [-o FILE] COMMAND [ARGS…]")
    t0 = time.perf_counter()
    status = subprocess.call(command)
    wall = time.perf_counter() - t0
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = fmt.replace("%e", f"{wall:.2f}").replace("%U", f"{r.ru_utime:.2f}").replace("%S", f"{r.ru_stime:.2f}").replace("%M", str(r.ru_maxrss))
    if out:
        with open(out, "w") as f:
            f.write(text + "\n")
    else:
        print(text, file=sys.stderr)
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
