# tests/flavours.mk -- every generated file assembled for every flavour it claims (included by
# tests/tests.mk; part of `make test`, ~20 s, the first run also creates a wine prefix).
#
#   make test-flavours   tests/flavours.py: ELF x86-64 (gcc) and AArch64 (aarch64-linux-gnu-gcc),
#                        Mach-O x86-64 and arm64 (clang -target ...-apple-macos11), Win64
#                        PE/COFF (x86_64-w64-mingw32-gcc, clang -target x86_64-w64-mingw32 and
#                        x86_64-pc-windows-msvc): each object's symbols and sections, and for
#                        Win64 the SEH unwind codes against the disassembled prologues and
#                        epilogues, the entry shims, the Win64 bodies against the generator's
#                        text, LF_PREFIX/LF_EXPORT_KERNELS, DLL exports; then
#                        tests/flavours/win64_kat.c built with mingw-w64 from generated/ +
#                        runtime/ and run under wine64 (known answers, Microsoft x64 ABI,
#                        Windows unwinding at every instruction).
# Objects, the Windows program and the wine prefix go to build/flavours/.

PY ?= /usr/bin/python3

.PHONY: test-flavours

test-flavours:
	$(PY) tests/flavours.py
