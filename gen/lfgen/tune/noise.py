"""When is a timed candidate better than the incumbent "beyond noise"?

The bench harness times the incumbent and the candidates round-robin in one process and
reports, per size, the distribution over rounds of the paired ratio incumbent/candidate
(> 1: the candidate is faster): median, quartiles p25/p75 and the number of rounds n.

Per size, the uncertainty of the median is the box-plot notch of McGill, Tukey and Larsen
(1978): median +- 1.58 IQR / sqrt(n), about a 95% interval for comparing medians.  Over the
sizes of a search step the figure is the geometric mean of the per-size medians, and its
interval the geometric mean shifted by the root-sum-square of the per-size half-widths in
log space divided by the number of sizes (errors of independent sizes).

A candidate WINS when the whole interval is above 1 and the figure is at least 1 + min_gain
(default 1%): faster, and not by an amount too small to be worth a schedule entry -- unless it
REGRESSES: at some size even the top of its notch is more than `tolerance` (2%) below 1, i.e.
it is clearly slower there (a schedule must not buy speed at some sizes with losses at
others).  It LOSES when the interval is entirely below 1; otherwise it is a TIE and the
incumbent stays."""

import math

NOTCH = 1.58
MIN_GAIN = 0.01
TOLERANCE = 0.02


class Estimate:
    """Figure (geometric mean of paired medians) with its interval [low, high]."""

    def __init__(self, ratio, low, high, sizes):
        self.ratio = ratio
        self.low = low
        self.high = high
        self.sizes = sizes          # [(size, median, p25, p75, n)]

    def wins(self, min_gain=MIN_GAIN):
        return self.low > 1.0 and self.ratio >= 1.0 + min_gain and not self.regresses()

    def loses(self):
        return self.high < 1.0

    def regressions(self, tolerance=TOLERANCE):
        """Sizes where the candidate is clearly slower: the notch's top below 1 - tolerance."""
        return [s for s, med, p25, p75, n in self.sizes
                if med + NOTCH * (p75 - p25) / math.sqrt(n) < 1.0 - tolerance]

    def regresses(self, tolerance=TOLERANCE):
        return bool(self.regressions(tolerance))

    def worst(self):
        """(size, median) of the size where the candidate does worst."""
        return min(((s, med) for s, med, _, _, _ in self.sizes), key=lambda x: x[1])

    def verdict(self, min_gain=MIN_GAIN):
        if self.wins(min_gain):
            return "win"
        if self.loses():
            return "loss"
        if self.low > 1.0 and self.regresses():
            return "regresses at %s" % ",".join(str(s) for s in self.regressions())
        return "tie"

    def as_dict(self):
        return {"ratio": self.ratio, "low": self.low, "high": self.high,
                "sizes": [list(s) for s in self.sizes]}

    @classmethod
    def from_dict(cls, d):
        return cls(d["ratio"], d["low"], d["high"], [tuple(s) for s in d["sizes"]])

    def __repr__(self):
        return "%.3f [%.3f, %.3f]" % (self.ratio, self.low, self.high)


def combine(per_size):
    """per_size: [(size, median, p25, p75, n)] of paired ratios -> Estimate."""
    if not per_size:
        raise ValueError("no sizes")
    logs, var = [], 0.0
    for size, med, p25, p75, n in per_size:
        if med <= 0 or n < 1 or p75 < p25:
            raise ValueError("bad sample at size %s: median %r p25 %r p75 %r n %r"
                             % (size, med, p25, p75, n))
        logs.append(math.log(med))
        h = NOTCH * (p75 - p25) / math.sqrt(n) / med
        var += h * h
    k = len(per_size)
    centre = sum(logs) / k
    half = math.sqrt(var) / k
    return Estimate(math.exp(centre), math.exp(centre - half), math.exp(centre + half),
                    list(per_size))


def confirmed(runs, min_gain=MIN_GAIN):
    """(ok, why) over several runs of one comparison in separate processes: the candidate
    must win on the whole in every run, and a size counts as a regression when it regresses
    in more than one run (one run's dip at one size is how this shared machine behaves
    between processes; the same dip twice is the code)."""
    for e in runs:
        if not (e.low > 1.0 and e.ratio >= 1.0 + min_gain):
            return False, e.verdict(min_gain)
    count = {}
    for e in runs:
        for s in e.regressions():
            count[s] = count.get(s, 0) + 1
    bad = sorted(s for s, c in count.items() if c > 1)
    if bad:
        return False, "regresses at %s" % ",".join(str(s) for s in bad)
    return True, "win"


def best(estimates, min_gain=MIN_GAIN):
    """The name of the candidate with the highest figure among those that win, or None."""
    winners = [(e.ratio, name) for name, e in estimates.items() if e.wins(min_gain)]
    return max(winners)[1] if winners else None
