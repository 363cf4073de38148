# Generator self-tests (included by tests/tests.mk; run from the top directory).
#
#   make test-gen             all three parts below
#   make test-gen-unit        gen/tests: allocator, verifier, scheduling primitives and pipelines
#                             (run under qemu-aarch64 / natively), VSeq, feature derivation, GAS
#                             printer, schedule files, determinism + `lfgen check`, field
#                             descriptions the bounds cannot prove refused (one-line BoundError)
#   make test-gen-roundtrip   tests/roundtrip.py: every generated .S assembled and disassembled,
#                             compared instruction by instruction with the generator's text;
#                             x86-64 also against PeachPy's own encoder (TESTING.md 12)
#   make test-gen-objcheck    tests/objcheck.py on the objects of `make ARCH=<arch> lib`:
#                             GNU-stack, CET/BTI property, FUNC symbols, landing pads, FDEs
#                             and CFA per instruction, strict CET/BTI link (TESTING.md 10)
#
# Needs Debian's /usr/bin/python3 (PeachPy, Jinja2), gcc, binutils, and for AArch64
# gcc-aarch64-linux-gnu + qemu-user (tests needing them are skipped when they are missing).

PY ?= /usr/bin/python3
GEN_TEST_ARCHS ?= x86_64 aarch64

.PHONY: test-gen test-gen-unit test-gen-roundtrip test-gen-objcheck test-gen-libs

test-gen: test-gen-unit test-gen-roundtrip test-gen-objcheck
	@echo "test-gen: passed"

test-gen-unit:
	PYTHONPATH=$(CURDIR)/gen $(PY) -m unittest discover -s gen/tests -t gen

test-gen-roundtrip:
	$(PY) tests/roundtrip.py $(addprefix --arch ,$(GEN_TEST_ARCHS))

test-gen-libs:
	@for a in $(GEN_TEST_ARCHS); do \
		$(MAKE) --no-print-directory ARCH=$$a lib || exit 1; \
	done

test-gen-objcheck: test-gen-libs
	$(PY) tests/objcheck.py $(addprefix --arch ,$(GEN_TEST_ARCHS))
