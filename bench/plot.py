#!/usr/bin/python3
"""plot.py -- PNG of a limbforge bench JSON: cycles per limb/word/byte vs size, one panel per kernel.

    /usr/bin/python3 bench/plot.py bench/results/<cpu>.json [out.png]

Called by `make bench` after the harness (bench/main.c) wrote the JSON; the PNG goes next to
it (same stem) unless a path is given.  Each line is one contender (limbforge variants solid,
ref dotted, GMP dashed); markers are the medians, the shaded band is p10..p90.  Linear kernels
plot core cycles per limb/word; the quadratic squarings plot cycles per n^2 (so a flat line
means quadratic scaling) -- the table and JSON always give cycles per limb/word.  The
Poly1305 panels (rows with "bytes": digestBytes and updateBytes of the JMH
Poly1305DigestBench) plot core cycles per byte against the message size in bytes, log x,
with OpenSSL and libsodium dashed.  Needs python3-matplotlib (Debian); without it the script
says so and exits 0.
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
    peers = {"openssl": ("tab:red", "OpenSSL %s (EVP_MAC)" % _short(run.get("openssl_version"))),
             "sodium": ("darkgoldenrod", "libsodium %s" % (run.get("sodium_version") or ""))}
    for ax, k in zip(axes.flat, kernels):
        unit = None
        quadratic = "sqr" in k or "square" in k
        first = next(iter(series[k].values()))[0]
        in_bytes = "bytes" in first
        palette = iter(["tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown",
                        "tab:pink", "tab:olive", "tab:cyan"])
        for variant, rows in series[k].items():
            rows = sorted(rows, key=lambda r: r["size"])
            unit = rows[0]["unit"]
            if in_bytes:
                x = [r["bytes"] for r in rows]
                y = [r["cycles_per_byte"]["median"] for r in rows]
                lo = [r["cycles_per_byte"]["p10"] for r in rows]
                hi = [r["cycles_per_byte"]["p90"] for r in rows]
            else:
                x = [r["size"] for r in rows]
                div = [r["size"] ** 2 if quadratic else r["size"] for r in rows]
                y = [r["cycles_per_call"]["median"] / d for r, d in zip(rows, div)]
                lo = [r["cycles_per_call"]["p10"] / d for r, d in zip(rows, div)]
                hi = [r["cycles_per_call"]["p90"] / d for r, d in zip(rows, div)]
            kind = rows[0]["kind"]
            style = {"variant": "-", "ref": ":", "gmp": "--", "gmp-peer": "--",
                     "peer": "--"}.get(kind, "-")
            label = variant + (" (dispatcher)" if rows[0].get("chosen") else "")
            if kind == "gmp-peer":
                label = "GMP peer: " + variant.replace("gmp~", "mpn_") + " on ceil(n/2) limbs"
            color = {"ref": "0.3", "gmp": "tab:red", "gmp-peer": "tab:red"}.get(kind)
            if kind == "peer" and variant in peers:
                color, label = peers[variant]
            color = color or next(palette, None)
            line, = ax.plot(x, y, style, marker="o", markersize=3, label=label, color=color)
            ax.fill_between(x, lo, hi, color=line.get_color(), alpha=0.15, linewidth=0)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        key = "bytes" if in_bytes else "size"
        sizes = sorted({r[key] for rows in series[k].values() for r in rows})
        ax.set_xticks(sizes)
        # label every size except one crowding its right neighbour (127 next to 128)
        labels = [("" if i + 1 < len(sizes) and sizes[i + 1] < v * 1.1 else
                   _bytes(v) if in_bytes else str(v)) for i, v in enumerate(sizes)]
        ax.set_xticklabels(labels, fontsize=7)
        ax.xaxis.set_minor_locator(ticker.NullLocator())
        ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        lo_y, hi_y = ax.get_ylim()
        if hi_y > 12 * lo_y:    # more than a decade: minor labels would overlap
            ax.yaxis.set_minor_formatter(ticker.NullFormatter())
        else:
            ax.yaxis.set_minor_formatter(ticker.FormatStrFormatter("%g"))
        ax.tick_params(axis="y", which="minor", labelsize=7)
        if in_bytes:
            bench = first.get("benchmark", k).replace("Poly1305DigestBench.", "")
            ax.set_title("%s -- %s" % (k, bench))
            ax.set_xlabel("message (bytes)")
            ax.set_ylabel("core cycles / byte (median; band p10..p90)")
        else:
            ax.set_title(k)
            ax.set_xlabel("size (%ss)" % unit)
        if in_bytes:
            pass
        elif quadratic:
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
    if any("bytes" in r for r in run["rows"]):
        title += "\nPoly1305 peers: OpenSSL %s, libsodium %s" % (
            _short(run.get("openssl_version")), run.get("sodium_version") or "-")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95 if "\n" in title else 0.97))
    fig.savefig(dst, dpi=110)
    print("png: %s" % dst)
    return 0


def _short(version):
    """'OpenSSL 3.0.22 25 Aug 2026' -> '3.0.22'"""
    if not version:
        return "-"
    parts = version.split()
    return parts[1] if len(parts) > 1 and parts[0] == "OpenSSL" else version


def _bytes(n):
    for f, s in ((1 << 20, "M"), (1 << 10, "K")):
        if n >= f and n % f == 0:
            return "%d%s" % (n // f, s)
    return str(n)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
