"""What a kernel is: its contract (KernelSpec) and its variants (Variant).

A kernel module in `lfgen/kernels/` defines

    SPEC = KernelSpec(name="mpn_addmul_1", operation=..., args=[...], result=..., shapes=...,
                      units=..., preconditions=..., source=...)
    VARIANTS = [Variant("adx", "x86_64", build_adx, params={...}), ...]   # best first

`build(symbol, p)` receives the symbol to define and the variant's schedule values `p` (an
attribute bag validated against `params`), and returns the compiled function of the target
builder (`lfgen.x86.function` or `lfgen.a64.function`). The contract fields become the
header comment of the generated .S and of the C prototype, so they are written for a reader
who only has the generated file.
"""


class Param:
    """A schedule tunable: default value, the values the tuner may try, and what it means.

    kind "loop": shapes a steady-state loop (unroll, load-ahead, interleave, blocks per
    iteration) -- the tuner ranks its candidates with llvm-mca on the loop's marked region
    before timing the best few, and on CPUs it can only model, by the model alone.
    kind "size": decides by size which code runs (thresholds, straight-line cutoffs, tails)
    -- no loop model sees it, so only timing ranks it, at `sizes` (units of the kernel),
    the sizes where its choices make a difference."""

    KINDS = ("loop", "size")

    def __init__(self, default, choices, doc, kind="loop", sizes=None):
        if default not in choices:
            raise ValueError("default %r not among choices %r" % (default, choices))
        if kind not in self.KINDS:
            raise ValueError("kind %r is not one of %s" % (kind, self.KINDS))
        if kind == "size" and not sizes:
            raise ValueError("a size parameter names the sizes where it matters")
        self.default = default
        self.choices = tuple(choices)
        self.doc = doc
        self.kind = kind
        self.sizes = tuple(sizes or ())


class KernelSpec:
    FIELDS = ("name", "operation", "args", "result", "shapes", "units", "preconditions",
              "source")

    def __init__(self, name, operation, args, result, shapes, units, preconditions, source,
                 api=None, tune_sizes=(16, 32, 64, 128), question=None):
        self.name = name
        self.operation = operation
        self.args = list(args)
        self.result = result
        self.shapes = shapes
        self.units = units
        self.preconditions = preconditions
        self.source = source
        self.api = api or "lf_" + name
        # sizes (in the kernel's unit) at which the tuner times the loop parameters and
        # compares variants: the lengths the kernel is used for
        self.tune_sizes = tuple(tune_sizes)
        # (title, {variant: what it stands for}): a design question the choice of variant
        # answers; `make tune` over several CPUs answers it per CPU in its summary
        self.question = question

    def prototype(self, symbol):
        return "%s %s(%s)" % (self.result or "void", symbol, self.params())

    def params(self):
        """the C parameter list, names included"""
        return ", ".join("%s%s%s" % (t, "" if t.endswith("*") else " ", n)
                         for n, t in self.args)

    def typedef(self):
        ret = self.result or "void"
        params = ", ".join(t for _, t in self.args)
        return "typedef %s (*lf_%s_fn)(%s);" % (ret, self.name, params)


# llvm-mca models EFLAGS as one register: the two carry chains of ADCX/ADOX look like one
# serial chain to it, so the placement of MULX among them (`ahead`) is invisible or misjudged
ADX_CHAINS = "llvm-mca models EFLAGS as one register, so ADCX/ADOX chains look serial to it"


class Variant:
    def __init__(self, name, arch, build, params=None, algorithm="", unmodelled=None,
                 hint=None):
        """`unmodelled`: {param: why} -- loop parameters a CPU model cannot judge for this
        variant; tuning by model keeps their values, timing still searches them.
        `hint`: values -> a uint32_t the C runtime can read for each build of the variant
        (lf_variant.hint, lf_dispatch_hint; 0 without one): what the API around the kernel
        must know of the dispatched build to choose by size, in a unit the kernel's API
        defines."""
        if arch not in ("x86_64", "aarch64"):
            raise ValueError("unknown arch %s" % arch)
        self.name = name
        self.arch = arch
        self.build = build
        self.params = dict(params or {})
        self.algorithm = algorithm
        self.unmodelled = dict(unmodelled or {})
        self.hint = hint
        unknown = set(self.unmodelled) - set(self.params)
        if unknown:
            raise ValueError("%s: unmodelled %s are not parameters" % (name, sorted(unknown)))

    def symbol(self, spec):
        return "lf_%s_%s" % (spec.name, self.name)


class ScheduleError(ValueError):
    """A schedule file (or values given for one) that cannot be used: said in one line,
    naming the file and the table, without a traceback."""


class Values:
    """Schedule values for one variant: attribute access, unknown names are errors."""

    def __init__(self, params, values, where):
        unknown = set(values) - set(params)
        if unknown:
            raise ScheduleError("%s: unknown schedule parameter(s) %s"
                                % (where, sorted(unknown)))
        self._v = {}
        for k, p in params.items():
            v = values.get(k, p.default)
            if v not in p.choices or type(v) is not type(p.default):   # 16.0, True: no
                raise ScheduleError("%s: %s = %r is not one of %r" % (where, k, v, p.choices))
            self._v[k] = v

    def __getattr__(self, k):
        try:
            return self.__dict__["_v"][k]
        except KeyError:
            raise AttributeError(k)

    def set_siblings(self, symbols):
        """The symbols of the kernel's other variants under the same schedule (set by the
        generator before building): a size dispatch jumps to `p.sibling("adx")`, which is the
        schedule's own build of that variant where it has one, else generic's."""
        self.__dict__["_siblings"] = dict(symbols)

    def sibling(self, name):
        sib = self.__dict__.get("_siblings")
        if sib is None:
            raise ValueError("sibling(%r): the generator has not set the sibling symbols" % name)
        if name not in sib:
            raise ValueError("sibling(%r): no such variant (have %s)" % (name, sorted(sib)))
        return sib[name]

    def items(self):
        return sorted(self._v.items())
