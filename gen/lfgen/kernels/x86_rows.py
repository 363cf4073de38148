"""x86-64 building blocks shared by the multiply kernels: digit access and mul_1/addmul_1 rows.

A *row* is the inner loop of schoolbook multiplication: {out, len} (+)= {in, len} * m, with m
in RDX (MULX reads it implicitly), returning the carry-out digit in a register.

    digit k (0 = least significant) of an operand lives at [base + stride*k]
      stride +8: native limbs (GMP mpn order);
      stride -8 with rotate: java.math.BigInteger BE-words read two at a time; a 64-bit load of
               words (w[j], w[j+1]) yields w[j+1]:w[j] swapped, so RORX 32 makes the digit
               w[j]*2^32 + w[j+1], and the same rotation turns a result digit back.

Chains (`chains`):
  "adx": MULX + ADCX (CF: lo_k + hi_(k-1)) + ADOX (OF: + out_k) -- two independent carry
         chains, 4 instructions per digit (GMP's and OpenSSL's Broadwell-and-later technique);
  "adc": MULX + ADD/ADC with the carries folded into hi per digit (BMI2 only, no ADX).

Row layout: the len mod U leading digits go through straight-line segments of 1, 2, 4, ...
digits picked by testing the bits of len, then len / U iterations of a U-digit segment. Every
segment starts with clear flags and ends with both chains folded into the carry register, so
ordinary DEC/JNZ loop control is safe; `ahead` interleaves the MULX of digit k+ahead between
the additions of digit k (sched.interleave_steps, dependency-checked).
"""

from peachpy.x86_64 import (GeneralPurposeRegister64, MULX, ADCX, ADOX, ADD, ADC, MOV, RORX,
                            LEA, XOR, TEST, JZ, JNZ, DEC, SHR, LABEL, CMP, JA, rdx)

from .. import sched
from ..kernel import Param


class Digits:
    def __init__(self, base, stride=8, rotate=False):
        self.base = base
        self.stride = stride
        self.rotate = rotate

    def mem(self, k):
        return [self.base + self.stride * k]

    def source(self, k):
        """An operand holding digit k for MULX/ADOX (memory unless the digit is rotated)."""
        if not self.rotate:
            return self.mem(k)
        t = GeneralPurposeRegister64()
        RORX(t, self.mem(k), 32)
        return t

    def load(self, k, reg):
        if self.rotate:
            RORX(reg, self.mem(k), 32)
        else:
            MOV(reg, self.mem(k))

    def store(self, k, reg):
        if self.rotate:
            RORX(reg, reg, 32)
        MOV(self.mem(k), reg)

    def advance(self, k):
        LEA(self.base, [self.base + self.stride * k])


def load_digit0(f, reg, ptr, flag, bit=None):
    """Digit 0 of a BE-word operand into reg: an odd length takes its lone low word << 32 by a
    32-bit load (the word past the array is never read), an even one the rotated pair.  The
    length is odd when TEST(flag, bit) -- or TEST(flag, flag) for a 0/1 flag -- is nonzero."""
    from peachpy.x86_64 import SHL, JMP
    even, done = f.new_label("d0_even"), f.new_label("d0_done")
    TEST(flag, flag if bit is None else bit)
    JZ(even)
    MOV(reg.as_dword, [ptr])
    SHL(reg, 32)
    JMP(done)
    f.bind(even)
    RORX(reg, [ptr], 32)
    f.bind(done)


def size_tree(f, n, lo, hi, leaf, limit):
    """Straight-line code per size: a binary search on the length in register `n` over the
    digit counts lo..hi calls leaf(d) where the count is d; limit(d) is the largest length
    that still takes d digits or fewer (the BigInteger kernels' short paths)."""
    if lo == hi:
        leaf(lo)
        return
    mid = (lo + hi) // 2
    right = f.new_label("s_gt%d" % mid)
    CMP(n, limit(mid))
    JA(right)
    size_tree(f, n, lo, mid, leaf, limit)
    f.bind(right)
    size_tree(f, n, mid + 1, hi, leaf, limit)


def straight_product(f, nx, ny, X, Y, Z, y0, h0, slots):
    """Digits 1 .. nx+ny-1 of the product of X (nx digits, the multipliers) and Y (ny
    digits, the row) into Z in straight-line code, digit 0 (the low half of a_0 b_0) already
    stored: rdx = a_0, y0 = b_0 (a register, or Y's memory operand), h0 = the high half of
    a_0 b_0. Row 0 adds b_j a_0 by ADD/ADC; row i = 1.. is one MULX/ADOX/ADCX per digit of
    Y, with the window c_i .. c_(i+ny) in registers, each Z digit stored once, when final.
    A rotated Y (BigInteger words) is rotated once, its digits parked in `slots` for rows
    1..; a plain one (limbs) is read by every row's MULX from memory. Ends with a jump to
    f.exit_label. Digits are x86_rows.Digits."""
    from peachpy.x86_64 import JMP
    parked = Y.rotate and nx > 1

    def y(j):
        if Y.rotate:
            return slots[j]
        return y0 if j == 0 else Y.mem(j)

    if parked:
        MOV(slots[0], y0)
    w = []
    prev = h0
    for j in range(1, ny):
        b = GeneralPurposeRegister64() if Y.rotate else None
        lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
        if Y.rotate:
            Y.load(j, b)
            if parked:
                MOV(slots[j], b)
            MULX(hi, lo, b)
        else:
            MULX(hi, lo, Y.mem(j))
        (ADD if j == 1 else ADC)(lo, prev)
        w.append(lo)
        prev = hi
    if ny > 1:
        ADC(prev, 0)
    w.append(prev)                              # w = c_1 .. c_ny
    for i in range(1, nx):
        X.load(i, rdx)
        t = GeneralPurposeRegister64()
        XOR(t.as_dword, t.as_dword)             # CF = OF = 0
        for j in range(ny):
            lo, hi = GeneralPurposeRegister64(), GeneralPurposeRegister64()
            MULX(hi, lo, y(j))
            ADOX(w[j], lo)
            if j < ny - 1:
                ADCX(w[j + 1], hi)
            else:
                ADCX(hi, t)
                ADOX(hi, t)
                w.append(hi)
        Z.store(i, w[0])                        # c_i is final
        w = w[1:]
    for k, r in enumerate(w):
        Z.store(nx + k, r)
    JMP(f.exit_label)


def deps_for(*pointers):
    """Dependency adapter under the kernels' aliasing contract: the operands of a row are
    either the same array or disjoint."""
    return sched.X86Deps(same_or_disjoint=[tuple(p.base for p in pointers)])


def segment(f, out, inp, s, mode, chains, ahead, cy, zero, deps, advance=True, cin=True):
    """s digits of out (+)= inp * rdx, carry in/out in cy; flags clear on entry (adx);
    advance: step both pointers past the s digits; cin=False: the carry-in is 0 (cy is
    only written), so digit 0 adds no carry."""
    his = []
    steps = []
    for k in range(s):
        with f.capture() as ld:
            lo = GeneralPurposeRegister64()
            hi = GeneralPurposeRegister64()
            MULX(hi, lo, inp.source(k))
        with f.capture() as wk:
            prev = cy if k == 0 else his[k - 1]
            carry = k > 0 or cin
            if chains == "adx":
                if carry:
                    ADCX(lo, prev)
                if mode == "addmul":
                    ADOX(lo, out.source(k))
            elif mode == "mul":
                if carry:
                    (ADD if k == int(not cin) else ADC)(lo, prev)
            else:
                # per digit: lo + out + carry, both carries into hi (hi < 2^64 - 1); out
                # first, so the carry chain is ADD + ADC (2 cycles) per digit, not 3
                ADD(lo, out.source(k))
                ADC(hi, 0)
                if carry:
                    ADD(lo, prev)
                    ADC(hi, 0)
            out.store(k, lo)
        his.append(hi)
        steps.append((ld, wk))
    f.extend(sched.interleave_steps(steps, min(ahead, max(s - 1, 0)), deps))
    last = his[-1]
    if chains == "adx":
        ADCX(last, zero)
        if mode == "addmul":
            ADOX(last, zero)
    elif mode == "mul" and (s > 1 or cin):
        ADC(last, 0)
    MOV(cy, last)
    if advance:
        inp.advance(s)
        out.advance(s)


def row(f, out, inp, n, mode, chains, unroll, ahead, cy, unit=("limbs", 1), region=None):
    """Emit a whole row over a runtime length `n` (>= 0, clobbered). Requires rdx = the
    multiplier and cy = the carry-in; leaves the carry-out in cy. `unit` names what a digit
    is for the llvm-mca region marker (("words", 2) for BigInteger word pairs); `region`
    replaces the row's name in it when a function has several rows of one mode."""
    if unroll & (unroll - 1) or unroll < 1:
        raise ValueError("unroll must be a power of two")
    deps = deps_for(out, inp)
    zero = GeneralPurposeRegister64()
    bit = 1
    while bit < unroll:
        skip = f.new_label("skip%d" % bit)
        TEST(n, bit)
        JZ(skip)
        XOR(zero.as_dword, zero.as_dword)          # zero = 0, CF = OF = 0
        segment(f, out, inp, bit, mode, chains, ahead, cy, zero, deps)
        LABEL(skip)
        bit <<= 1
    done = f.new_label("done")
    top = f.new_label("top")
    SHR(n, unroll.bit_length() - 1)
    JZ(done)
    LABEL(top)
    f.mca_begin("%s_row %s=%d" % (region or mode, unit[0], unroll * unit[1]))
    XOR(zero.as_dword, zero.as_dword)
    segment(f, out, inp, unroll, mode, chains, ahead, cy, zero, deps)
    DEC(n)
    JNZ(top)
    f.mca_end()
    LABEL(done)


def mpn_row_kernel(spec, mode, chains):
    """Build function of an mpn_mul_1 (mode "mul") or mpn_addmul_1 ("addmul") variant:
    (rp, ap, n, b) -> carry limb, n == 0 touching nothing. Up to p.short limbs: a binary
    search on n picks straight-line code for that n (a segment, then the exit), instead of
    the row's remainder tests and loop control (several taken branches for n = 1)."""
    def build(symbol, p):
        from ..x86 import function as x86
        from peachpy.x86_64 import JMP
        f = x86.Function(symbol, spec.args, spec.result)
        with f:
            rp, ap, n, b = f.load_args()
            cy = GeneralPurposeRegister64()
            XOR(cy.as_dword, cy.as_dword)
            TEST(n, n)
            JZ(f.exit_label)
            MOV(rdx, b)
            if p.short:
                longer = f.new_label("longer")
                CMP(n, p.short)
                JA(longer)

                def leaf(d):
                    zero = None
                    if chains == "adx":
                        zero = GeneralPurposeRegister64()
                        XOR(zero.as_dword, zero.as_dword)  # zero = 0, CF = OF = 0
                    segment(f, Digits(rp), Digits(ap), d, mode, chains, p.ahead, cy, zero,
                            deps_for(Digits(rp), Digits(ap)), advance=False, cin=False)
                    JMP(f.exit_label)
                size_tree(f, n, 1, p.short, leaf, lambda d: d)
                f.bind(longer)
            row(f, Digits(rp), Digits(ap), n, mode, chains, p.unroll, p.ahead, cy)
            f.ret(cy)
        return f.finalize()
    return build


SHORT = Param(4, (0, 2, 3, 4, 6), "up to this many limbs: straight-line code per n, picked by a\n"
              "binary search, before the row (0: every n through the row)",
              kind="size", sizes=(1, 2, 3, 4, 5))
