#!/usr/bin/python3
"""mca_trace.py -- llvm-mca-19 estimate of one whole call of an AArch64 kernel at a given size:
the executed instruction trace (loops unrolled, every branch as taken), overheads included.

    /usr/bin/python3 bench/mca_trace.py [--cpu X ...] [--n 1,2,4,8] [--iterations K]
                                        [--set sqr_min=1]

For mpn_montmul_a64 (built from gen/ with the generic schedule's values, --set overriding
them; --set sqr_min=1 runs the squaring path at every n), at each n:
ap == bp (the squaring path where n >= sqr_min) and ap != bp (the multiply). A small static
driver (build/mca/trace/) calls the kernel once; qemu-aarch64 -singlestep -d exec,nochain logs
every executed pc; the pcs inside the function are mapped to objdump's text (branch targets
replaced by one label) and the straight-line trace goes to `llvm-mca-19 -mtriple=aarch64
-mcpu=X -iterations=K` (K back-to-back calls: steady state, as in an exponentiation).
Reported: cycles per call (Total Cycles / K) and the ratio square / multiply. The control flow
depends only on n and on ap == bp (constant time), so the operand values do not matter.

llvm-mca is a model (no caches, perfect branch prediction, no memory dependences), not a
measurement; it is used here to compare the two paths on cores we do not have.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "mca", "trace")
MODELS = ["cortex-a72", "neoverse-n1", "neoverse-v1", "thunderx2t99", "apple-m1"]
SYM = "lf_mpn_montmul_a64"
CC = "aarch64-linux-gnu-gcc"

DRIVER = r"""
#include <stdint.h>
#include <stdlib.h>
void lf_mpn_montmul_a64(uint64_t *, const uint64_t *, const uint64_t *, const uint64_t *,
                        uint64_t, size_t);
static uint64_t N[512], A[512], B[512], R[512];
int main(int argc, char **argv)
{
	size_t n = strtoul(argv[1], 0, 0);
	int same = atoi(argv[2]);
	uint64_t x = 0x9e3779b97f4a7c15u, inv = 1;
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		N[i] = x | 1 | (i == n - 1 ? 1ull << 63 : 0);
		A[i] = x >> 3, B[i] = x >> 5;
	}
	for (int k = 0; k < 6; k++)
		inv *= 2 - N[0] * inv;
	lf_mpn_montmul_a64(R, A, same ? A : B, N, -inv, n);
	return (int)(R[0] & 1) * 0;
}
"""


def build(values):
    """The kernel built with the generic schedule's values updated by `values`."""
    sys.path.insert(0, os.path.join(ROOT, "gen"))
    from lfgen import schedule
    from lfgen.kernel import Values
    from lfgen.kernels import mpn_montmul
    v = [x for x in mpn_montmul.VARIANTS if x.name == "a64"][0]
    generic = schedule.load_all("aarch64")[0]
    vals = dict(generic.values(mpn_montmul.SPEC, v).items())
    vals.update(values)
    comp = v.build(SYM, Values(v.params, vals, "mca_trace"))
    os.makedirs(OUT, exist_ok=True)
    asm = os.path.join(OUT, "kernel.S")
    with open(asm, "w") as fh:
        fh.write('#include "lf_asm.h"\nLF_FUNC_BEGIN(%s)\n%sLF_FUNC_END(%s)\nLF_ASM_NOTES\n'
                 % (SYM, comp.text, SYM))
    src = os.path.join(OUT, "driver.c")
    with open(src, "w") as fh:
        fh.write(DRIVER)
    exe = os.path.join(OUT, "driver")
    subprocess.check_call([CC, "-O1", "-static", "-I" + os.path.join(ROOT, "generated/include"),
                           "-o", exe, src, asm])
    text = subprocess.check_output(["aarch64-linux-gnu-objdump", "-d", "--no-show-raw-insn",
                                    "--disassemble=" + SYM, exe], text=True)
    insns = {}
    for line in text.splitlines():
        m = re.match(r"\s+([0-9a-f]+):\s+(\S.*)$", line)
        if not m:
            continue
        ins = m.group(2).split("//")[0].strip()
        ins = re.sub(r"\s+[0-9a-f]+ <[^>]*>$", " .Ltrace", ins)   # branch target -> one label
        insns[int(m.group(1), 16)] = ins
    return exe, insns


def trace(exe, insns, n, same):
    log = os.path.join(OUT, "exec-%d-%d.log" % (n, same))
    subprocess.check_call(["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu", "-singlestep",
                           "-d", "exec,nochain", "-D", log, exe, str(n), str(same)])
    out = []
    pat = re.compile(r"^Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/")
    with open(log) as fh:
        for line in fh:
            m = pat.match(line)
            if m:
                pc = int(m.group(1), 16)
                if pc in insns:
                    out.append(insns[pc])
    os.unlink(log)
    return out


def mca(lines, cpu, iterations):
    path = os.path.join(OUT, "trace.s")
    with open(path, "w") as fh:
        fh.write(".Ltrace:\n" + "\n".join("\t" + l for l in lines) + "\n")
    r = subprocess.run(["llvm-mca-19", "-mtriple=aarch64", "-mcpu=" + cpu,
                        "-iterations=%d" % iterations, path],
                       capture_output=True, text=True, check=True)
    cyc = int(re.search(r"Total Cycles:\s+(\d+)", r.stdout).group(1))
    return cyc / iterations


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cpu", action="append")
    ap.add_argument("--n", default="1,2,3,4,5,6,8,12,16,24,32,64")
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--set", action="append", default=[], metavar="PARAM=INT",
                    help="schedule value for the build (default: generic's); e.g. sqr_min=1 "
                         "to time the squaring path at every n")
    a = ap.parse_args(argv)
    values = {k: int(v) if v.isdigit() else v for k, v in (x.split("=", 1) for x in a.set)}
    cpus = a.cpu or MODELS
    ns = [int(x) for x in a.n.split(",")]
    exe, insns = build(values)
    print("# llvm-mca-19 cycles per call of %s %s (trace of one call, -iterations=%d);"
          " sqr: ap == bp, mul: ap != bp" % (SYM, values or "", a.iterations))
    print("%-13s %4s %10s %10s %7s %9s %9s %6s" % ("model", "n", "sqr", "mul", "sqr/mul",
                                                   "sqr/n^2", "mul/n^2", "insns"))
    traces = {}
    for n in ns:
        traces[n] = (trace(exe, insns, n, 1), trace(exe, insns, n, 0))
    for cpu in cpus:
        for n in ns:
            ts, tm = traces[n]
            cs, cm = mca(ts, cpu, a.iterations), mca(tm, cpu, a.iterations)
            print("%-13s %4d %10.1f %10.1f %7.3f %9.2f %9.2f %6s" % (
                cpu, n, cs, cm, cs / cm, cs / n / n, cm / n / n, "%d/%d" % (len(ts), len(tm))))
        sys.stdout.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
