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
(default 1%): faster, and not by an amount too small to be worth a schedule entry.  It LOSES
when the interval is entirely below 1; otherwise it is a TIE and the incumbent stays."""

import math

NOTCH = 1.58
MIN_GAIN = 0.01


class Estimate:
    """Figure (geometric mean of paired medians) with its interval [low, high]."""

    def __init__(self, ratio, low, high, sizes):
        self.ratio = ratio
        self.low = low
        self.high = high
        self.sizes = sizes          # [(size, median, p25, p75, n)]

    def wins(self, min_gain=MIN_GAIN):
        return self.low > 1.0 and self.ratio >= 1.0 + min_gain

    def loses(self):
        return self.high < 1.0

    def verdict(self, min_gain=MIN_GAIN):
        return "win" if self.wins(min_gain) else "loss" if self.loses() else "tie"

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


def best(estimates, min_gain=MIN_GAIN):
    """The name of the candidate with the highest figure among those that win, or None."""
    winners = [(e.ratio, name) for name, e in estimates.items() if e.wins(min_gain)]
    return max(winners)[1] if winners else None
