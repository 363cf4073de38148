#!/usr/bin/python3
"""plot.py -- PNG of a limbforge bench JSON: cycles per limb/word vs size, one panel per kernel.

    /usr/bin/python3 bench/plot.py bench/results/<cpu>.json [out.png]

Called by `make bench` after the harness (bench/main.c) wrote the JSON; the PNG goes next to
it (same stem) unless a path is given.  Each line is one contender (limbforge variants solid,
ref dotted, GMP dashed); markers are the medians, the shaded band is p10..p90.  Linear kernels
plot core cycles per limb/word; the quadratic squarings plot cycles per n^2 (so a flat line
means quadratic scaling) -- the table and JSON always give cycles per limb/word.  Needs
python3-matplotlib (Debian); without it the script says so and exits 0.
"""
import json
import os
import sys


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    src = argv[1]
    dst = argv[2] if len(argv) > 2 else os.path.splitext(src)[0] + ".png"
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        import matplotlib.ticker as ticker
    except ImportError:
        print("plot.py: python3-matplotlib missing, no PNG", file=sys.stderr)
        return 0
    with open(src) as f:
        run = json.load(f)
    if "rows" not in run:  # e.g. a --check result (schema limbforge-check/1): nothing to plot
        print("plot.py: %s has no timing rows, no PNG" % src, file=sys.stderr)
        return 0

    kernels = []
    series = {}  # kernel -> label -> rows
    for row in run["rows"]:
        k = row["kernel"]
        if k not in series:
            kernels.append(k)
            series[k] = {}
        series[k].setdefault(row["variant"], []).append(row)

    ncol = 2 if len(kernels) > 1 else 1
    nrow = (len(kernels) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(7 * ncol, 4.2 * nrow), squeeze=False)
    for ax in axes.flat[len(kernels):]:
        ax.set_visible(False)
    for ax, k in zip(axes.flat, kernels):
        unit = None
        quadratic = "sqr" in k or "square" in k
        palette = iter(["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown",
                        "tab:pink", "tab:olive", "tab:cyan"])
        for variant, rows in series[k].items():
            rows = sorted(rows, key=lambda r: r["size"])
            unit = rows[0]["unit"]
            x = [r["size"] for r in rows]
            div = [r["size"] ** 2 if quadratic else r["size"] for r in rows]
            y = [r["cycles_per_call"]["median"] / d for r, d in zip(rows, div)]
            lo = [r["cycles_per_call"]["p10"] / d for r, d in zip(rows, div)]
            hi = [r["cycles_per_call"]["p90"] / d for r, d in zip(rows, div)]
            kind = rows[0]["kind"]
            style = {"variant": "-", "ref": ":", "gmp": "--", "gmp-peer": "--"}.get(kind, "-")
            label = variant + (" (dispatcher)" if rows[0].get("chosen") else "")
            if kind == "gmp-peer":
                label = "GMP peer: " + variant.replace("gmp~", "mpn_") + " on ceil(n/2) limbs"
            color = {"ref": "0.3", "gmp": "tab:red", "gmp-peer": "tab:red"}.get(kind)
            color = color or next(palette, None)
            line, = ax.plot(x, y, style, marker="o", markersize=3, label=label, color=color)
            ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.15, linewidth=0)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        sizes = sorted({r["size"] for rows in series[k].values() for r in rows})
        ax.set_xticks(sizes)
        # label every size except one crowding its right neighbour (127 next to 128)
        labels = [("" if i + 1 < len(sizes) and sizes[i + 1] < v * 1.1 else str(v))
                  for i, v in enumerate(sizes)]
        ax.set_xticklabels(labels, fontsize=7)
        ax.xaxis.set_minor_locator(ticker.NullLocator())
        ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(ticker.FormatStrFormatter("%g"))
        ax.tick_params(axis="y", which="minor", labelsize=7)
        ax.set_title(k)
        ax.set_xlabel("size (%ss)" % unit)
        if quadratic:
            ax.set_ylabel("core cycles / n^2 (n in %ss; median)" % unit)
        else:
            ax.set_ylabel("core cycles / %s (median)" % unit)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8, loc="best", framealpha=0.6)
    cal = run.get("calibration", {})
    ratio = cal.get("core_cycles_per_tick", {}).get("median", 0)
    title = "limbforge bench -- %s (%s), %s, GMP %s, core/TSC %.3f%s" % (
        run["cpu"]["model"], run["cpu"]["name"], run["date"], run.get("gmp_version", "?"),
        ratio, "  [EMULATED: meaningless]" if run.get("emulated") else "")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(dst, dpi=110)
    print("png: %s" % dst)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
