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
    """A schedule tunable: default value, the values the tuner may try, and what it means."""

    def __init__(self, default, choices, doc):
        if default not in choices:
            raise ValueError("default %r not among choices %r" % (default, choices))
        self.default = default
        self.choices = tuple(choices)
        self.doc = doc


class KernelSpec:
    FIELDS = ("name", "operation", "args", "result", "shapes", "units", "preconditions",
              "source")

    def __init__(self, name, operation, args, result, shapes, units, preconditions, source,
                 api=None):
        self.name = name
        self.operation = operation
        self.args = list(args)
        self.result = result
        self.shapes = shapes
        self.units = units
        self.preconditions = preconditions
        self.source = source
        self.api = api or "lf_" + name

    def prototype(self, symbol):
        ret = self.result or "void"
        params = ", ".join("%s%s%s" % (t, "" if t.endswith("*") else " ", n)
                           for n, t in self.args)
        return "%s %s(%s)" % (ret, symbol, params)

    def typedef(self):
        ret = self.result or "void"
        params = ", ".join(t for _, t in self.args)
        return "typedef %s (*lf_%s_fn)(%s);" % (ret, self.name, params)


class Variant:
    def __init__(self, name, arch, build, params=None, algorithm=""):
        if arch not in ("x86_64", "aarch64"):
            raise ValueError("unknown arch %s" % arch)
        self.name = name
        self.arch = arch
        self.build = build
        self.params = dict(params or {})
        self.algorithm = algorithm

    def symbol(self, spec):
        return "lf_%s_%s" % (spec.name, self.name)


class Values:
    """Schedule values for one variant: attribute access, unknown names are errors."""

    def __init__(self, params, values, where):
        unknown = set(values) - set(params)
        if unknown:
            raise ValueError("%s: unknown schedule parameter(s) %s" % (where, sorted(unknown)))
        self._v = {}
        for k, p in params.items():
            v = values.get(k, p.default)
            if v not in p.choices:
                raise ValueError("%s: %s = %r is not one of %r" % (where, k, v, p.choices))
            self._v[k] = v

    def __getattr__(self, k):
        try:
            return self.__dict__["_v"][k]
        except KeyError:
            raise AttributeError(k)

    def items(self):
        return sorted(self._v.items())
