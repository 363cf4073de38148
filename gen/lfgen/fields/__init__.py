"""EC field families (KERNELS.md §4): descriptions (desc), proven programs (ir, ops), their
contracts (bounds), formulas over them (formula) and the C they become (c_emit)."""
