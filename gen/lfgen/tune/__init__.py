"""`make tune`: search each kernel's schedule space for one CPU and write gen/schedules/<arch>/<cpu>.toml.

    make tune CPU=native                  this host, ranked by timing (the bench harness)
    make tune ARCH=aarch64 CPU=neoverse-n1  a CPU we do not have, ranked by llvm-mca-19
    make tune ARCH=x86_64 CPU=znver4        (models: cpus.py)
    make tune ARCH=aarch64 CPU=generic      the fallback: least worst case over every model
    KERNEL=mpn_addmul_1  TUNE_BUDGET=600 (seconds)  TUNE_ARGS="--fresh --quick ..."

Modules, one purpose each:
    space.py    the candidates a variant's Params declare (loop and size parameters)
    noise.py    when a timed candidate is better than the incumbent beyond noise
    cpus.py     CPU models and identifications: the [match] of a schedule, host detection
    state.py    what has been measured, kept in build/tune/ so an interrupted run resumes
    runner.py   builds candidates through the normal generator into a throwaway library,
                checks them against ref, models them (llvm-mca) and times them (bench)
    search.py   the strategies: timing on the host, models elsewhere, minimax for generic
    output.py   the schedule file (with provenance) and the report (Markdown + PNG)
    cli.py      the command line, progress and the budget
"""
