# gen/tune.mk -- `make tune` (gen/lfgen/tune, see its __init__.py) and the throwaway builds it
# checks and times.  Included by the top Makefile after bench/bench.mk.
#
#   make tune CPU=native                      this host, by timing (TUNE_BUDGET seconds, resumable)
#   make tune ARCH=aarch64 CPU=neoverse-n1    by llvm-mca-19; CPU=a,b,c several; CPU=models
#                                             every model of the architecture; CPU=generic the
#                                             fallback schedule (least worst case over them)
#   make tune ... KERNEL=mpn_addmul_1 TUNE_ARGS="--fresh --quick -v"
#
# Writes gen/schedules/<arch>/<cpu>.toml and bench/results/tune-<arch>-<cpu>.{md,png}, then
# regenerates generated/ (every schedule is built into the library; the runtime picks by
# CPU).  Run `make test` before committing the new schedule.

CPU ?= $(if $(filter $(ARCH),$(HOST_ARCH)),native,models)
KERNEL ?=
TUNE_BUDGET ?= 1800
TUNE_ARGS ?=

.PHONY: tune tune-prep tune-batch tune-run tune-list

# exit status 3: the budget ran out (nothing written; run again to resume); 4: a model run
# met a schedule measured on the CPU itself.  generated/ is regenerated either way (a run over
# several CPUs may have written some of them).
tune:
	@st=0; $(PYGEN) tune --arch $(ARCH) --cpu $(CPU) $(if $(KERNEL),--kernel $(KERNEL)) \
		--budget $(TUNE_BUDGET) $(TUNE_ARGS) || st=$$?; \
	case $$st in 0|3|4) ;; *) exit $$st ;; esac; \
	$(PYGEN) gen && exit $$st

# what every throwaway build links: the library's objects (generic builds of every kernel,
# the runtime) and the bench harness
tune-prep: $(OBJS) $(BENCH_OBJ) $(BENCH_BIN)

# one throwaway build: the candidates' .S and dispatch_table.c written by the tuner into
# TUNE_DIR, linked with everything but the library's own dispatch table
TUNE_DIR ?=
ifneq ($(TUNE_DIR),)
TUNE_OBJS := $(patsubst %.S,%.o,$(wildcard $(TUNE_DIR)/*.S)) $(TUNE_DIR)/dispatch_table.o

$(TUNE_DIR)/%.o: $(TUNE_DIR)/%.S generated/include/lf_asm.h
	$(CC) $(LF_CPPFLAGS) $(LF_ASFLAGS) -c $< -o $@

$(TUNE_DIR)/dispatch_table.o: $(TUNE_DIR)/dispatch_table.c
	$(CC) $(LF_CPPFLAGS) $(LF_CFLAGS) -c $< -o $@

$(TUNE_DIR)/limbforge-bench: $(TUNE_OBJS) $(filter-out %/dispatch_table.c.o,$(OBJS)) $(BENCH_OBJ)
	$(BENCH_OSSL_EXTRACT)
	$(CC) $(LF_CFLAGS) -o $@ $^ $(BENCH_LIBS)

tune-batch: $(TUNE_DIR)/limbforge-bench

# run it ($(RUN): qemu for a cross architecture) with TUNE_RUN_ARGS
tune-run: $(TUNE_DIR)/limbforge-bench
	@$(RUN) $(TUNE_DIR)/limbforge-bench $(TUNE_RUN_ARGS)
endif

# the variants runnable on this machine ($(RUN): under qemu for a cross architecture)
tune-list: $(BENCH_BIN)
	@$(RUN) $(BENCH_BIN) --list

# every schedule one parameter move away from generic's, built and checked against ref, for
# both architectures (~5 min; not part of `make test`: run it before committing a schedule or
# a new Param choice)
.PHONY: test-space
test-space:
	$(PYGEN) tune --arch x86_64 --check-space
	$(PYGEN) tune --arch aarch64 --check-space
