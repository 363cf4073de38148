# tests/unwind.mk -- unwinding and CET/BTI link checks (included by tests/tests.mk).
#
#   make test-unwind         both parts below for the host and for AArch64 (under qemu), ~25 s
#   make test-unwind-arch    internal: the same for $(ARCH)
#
# 1. tests/unwind/unwind_sig.c: a SIGPROF timer interrupts every assembly variant runnable
#    here (long inputs, then short ones; x86-64 also single-steps with the trap flag) and the
#    handler unwinds with libgcc's _Unwind_Backtrace: the interrupted frame's CFA, the return
#    address into the caller, every callee-saved register and the rest of the stack up to
#    main must come out right at every hit.  Controls: a plain C function must unwind (else
#    the platform cannot unwind through a signal frame: under qemu SKIP with the reason,
#    natively FAIL) and two deliberately broken functions must be caught.  Under
#    qemu-aarch64 it runs with one instruction per translation block, so that signals can
#    land on any instruction.
# 2. tests/unwind/dwarf_check.sh: llvm-dwarfdump-19 --verify and --eh-frame sanity on every
#    generated kernel object (as built, and assembled again with -g).
# 3. tests/cetbti/check_link.sh: the archive, the objects and the shared library linked into
#    shared objects and programs with -z cet-report=error (x86-64) / -z force-bti (AArch64):
#    no linker output, the property kept, the programs run.
# Knobs: UNWIND_ARGS="-v --long-ms N --short-ms N --timer-us BASE,JITTER --no-step".

.PHONY: test-unwind test-unwind-arch

test-unwind:
	@for a in $(HOST_ARCH) $(filter-out $(HOST_ARCH),aarch64); do \
		$(MAKE) --no-print-directory ARCH=$$a test-unwind-arch || exit 1; \
	done

UW_DIR := $(BUILD)/tests/unwind
UW_BIN := $(UW_DIR)/unwind_sig
UW_LIB_A := $(BUILD)/lib$(or $(LIBNAME),limbforge).a
UW_LIB_SO := $(BUILD)/lib$(or $(LIBNAME),limbforge).so
UW_SRC := tests/unwind/unwind_sig.c tests/unwind/elfsyms.c tests/unwind/control.c \
          tests/unwind/call_$(ARCH).S
UW_HDRS := tests/unwind/uwcall.h tests/unwind/elfsyms.h tests/fe_kernels.h runtime/include/limbforge.h \
           runtime/lf_dispatch.h generated/include/lf_kernels.h
# the cross-built binary is static (qemu-user runs it without an arm64 loader)
UW_LDFLAGS := $(if $(filter $(ARCH),$(HOST_ARCH)),,-static)
UNWIND_ARGS ?=
# qemu-user delivers signals between translation blocks: one instruction per block lets them
# land anywhere (the option's name changed in qemu 8.1; evaluated only when used)
UW_QEMU_TB = $(shell qemu-aarch64 -h 2>/dev/null | grep -q one-insn-per-tb && \
               echo -one-insn-per-tb || echo -singlestep)

test-unwind-arch: $(UW_BIN) $(UW_LIB_A) $(UW_LIB_SO)
	@echo "== unwinding out of the kernels from a signal handler ($(ARCH))"
	$(if $(RUN),$(RUN) $(UW_QEMU_TB)) $(UW_BIN) $(if $(RUN),--emulated) $(UNWIND_ARGS)
	@echo "== llvm-dwarfdump-19 on the kernel objects ($(ARCH))"
	@sh tests/unwind/dwarf_check.sh $(ARCH) $(BUILD) $(UW_DIR)/dwarf $(CC) \
		"$(LF_CPPFLAGS) $(LF_ASFLAGS)"
	@echo "== CET/BTI links ($(ARCH))"
	@sh tests/cetbti/check_link.sh $(ARCH) $(UW_DIR)/cetbti $(CC) \
		$(if $(RUN),aarch64-linux-gnu-readelf,readelf) "$(RUN)" \
		"-O2 $(LF_CPPFLAGS) $(CFLAGS_$(ARCH))" $(UW_LIB_A) $(UW_LIB_SO) $(OBJS)

# every file compiled with -fasynchronous-unwind-tables (control.c is the control: its CFI
# comes from the compiler)
$(UW_BIN): $(UW_SRC) $(UW_HDRS) $(UW_LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) -Itests/unwind $(LF_CFLAGS) -fasynchronous-unwind-tables \
		$(UW_LDFLAGS) -o $@ $(UW_SRC) $(UW_LIB_A)
