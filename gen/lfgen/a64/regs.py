"""AArch64 registers for the limbforge DSL: virtual registers, views and pins.

A kernel never names a physical register except where the ABI demands (arguments in x0-x7,
the result in x0). It asks the function for registers by class:

    lo = f.gpr("lo")          # 64-bit general-purpose virtual register, written `lo` or `lo.x`
    lo.w                      # its 32-bit view (w-form), same register
    v = f.vreg("acc")         # 128-bit SIMD&FP register; v.d2 -> "vN.2d", v.s4, v.d (scalar), v.q

The allocator (`regalloc.py`) binds every virtual register to a physical one. Registers that
the AAPCS64 reserves are never handed out: x18 (platform register), x29/x30 (frame pointer and
link register), sp.
"""

GPR = "gpr"
VEC = "vec"

# AAPCS64: x19-x28 and the low 64 bits of v8-v15 are callee-saved.
CALLEE_SAVED_GPR = tuple(range(19, 29))
CALLEE_SAVED_VEC = tuple(range(8, 16))
# Allocation order: argument/scratch registers first (no save needed), x16/x17 last of those,
# then the callee-saved ones, which the prologue pass saves.
GPR_ORDER = tuple(list(range(0, 16)) + [16, 17] + list(CALLEE_SAVED_GPR))
VEC_ORDER = tuple(list(range(0, 8)) + list(range(16, 32)) + list(CALLEE_SAVED_VEC))
RESERVED_GPR = (18, 29, 30)


class Reg:
    """A virtual register. `pin` is a physical number the allocator must honour."""

    def __init__(self, cls, vid, name, pin=None):
        self.cls = cls
        self.vid = vid
        self.name = name
        self.pin = pin
        if pin is not None and cls == GPR and pin in RESERVED_GPR:
            raise ValueError("x%d is reserved by the AAPCS64 and cannot be pinned" % pin)

    # views -------------------------------------------------------------------------------
    @property
    def x(self):
        return View(self, "x")

    @property
    def w(self):
        return View(self, "w")

    @property
    def d2(self):
        return View(self, "2d")

    @property
    def s4(self):
        return View(self, "4s")

    @property
    def s2(self):
        return View(self, "2s")

    @property
    def h8(self):
        return View(self, "8h")

    @property
    def b16(self):
        return View(self, "16b")

    @property
    def q(self):
        return View(self, "q")

    @property
    def d(self):
        return View(self, "d")

    @property
    def s(self):
        return View(self, "s")

    def lane(self, kind, index):
        """Element view, e.g. v.lane('d', 1) -> v3.d[1]."""
        return View(self, "%s[%d]" % (kind, index))

    def __repr__(self):
        # virtual registers read as %gN / %vN so they never look like physical x30 or v3
        return "%%%s%d(%s)" % ("g" if self.cls == GPR else "v", self.vid, self.name)


class View:
    """A register used in a given shape: x/w for GPRs, arrangement or scalar for vectors."""

    def __init__(self, reg, shape):
        self.reg = reg
        self.shape = shape

    def format(self, phys):
        if self.reg.cls == GPR:
            return "%s%d" % (self.shape, phys)
        if self.shape in ("q", "d", "s", "h", "b"):
            return "%s%d" % (self.shape, phys)
        if "[" in self.shape:
            return "v%d.%s" % (phys, self.shape)
        return "v%d.%s" % (phys, self.shape)

    def __repr__(self):
        return "%r.%s" % (self.reg, self.shape)


class Zero:
    """xzr / wzr: reads as zero, writes are discarded; never allocated."""

    def __init__(self, shape):
        self.shape = shape

    def format(self, phys=None):
        return self.shape + "zr"

    def __repr__(self):
        return self.shape + "zr"


XZR = Zero("x")
WZR = Zero("w")


class StackPointer:
    """sp, only as a memory base for the frame's locals; never allocated."""

    def format(self, phys=None):
        return "sp"


SP = StackPointer()


class Local:
    """An 8-byte stack slot; its sp offset is fixed when the frame is laid out."""

    def __init__(self, index, name):
        self.index = index
        self.name = name
        self.offset = None

    def __repr__(self):
        return "Local(%s)" % self.name
