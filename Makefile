# limbforge -- hand-scheduled big-number kernels, generated from Python, dispatched in C.
#
#   make gen           install missing packages, regenerate generated/, build, run the demo
#   make test          generator checks + unit tests, host suite, AArch64 suite under qemu
#   make               build the host library and tools into build/<arch>/
#   make ARCH=aarch64  cross-build into build/aarch64/
#   make bench         JMH-like table beside GMP; bench/results/<cpu>.json and .png
#   make mca           llvm-mca-19 estimates of the AArch64 loops on five CPU models
#   make deps          only install the Debian packages (see .ci/install-deps)
#
# Python is needed only by `make gen`/`make test` (Debian's /usr/bin/python3 with PeachPy and
# Jinja2); building the library needs only a C compiler and generated/ + runtime/.

HOST_ARCH := $(shell uname -m | sed -e 's/arm64/aarch64/')
ARCH ?= $(HOST_ARCH)
PY := /usr/bin/python3
PYGEN := PYTHONPATH=$(CURDIR)/gen $(PY) -m lfgen
BUILD := build/$(ARCH)

CC_x86_64 ?= gcc
CC_aarch64 ?= $(if $(filter aarch64,$(HOST_ARCH)),gcc,aarch64-linux-gnu-gcc)
CC := $(CC_$(ARCH))
AR_x86_64 ?= ar
AR_aarch64 ?= $(if $(filter aarch64,$(HOST_ARCH)),ar,aarch64-linux-gnu-ar)
AR := $(AR_$(ARCH))
# how to run a program of $(ARCH) here
ifeq ($(ARCH),$(HOST_ARCH))
RUN :=
else
RUN := qemu-aarch64 -L /usr/aarch64-linux-gnu
endif

CFLAGS_x86_64 := -fcf-protection=full
# inline atomics: libgcc's outline-atomics helpers carry no BTI marking and would strip it
CFLAGS_aarch64 := -mbranch-protection=standard -mno-outline-atomics
CFLAGS ?= -O2 -g
LF_CFLAGS := $(CFLAGS) -std=c11 -Wall -Wextra -fPIC -fvisibility=hidden $(CFLAGS_$(ARCH))
LF_CPPFLAGS := -Iruntime/include -Iruntime -Iruntime/ref -Igenerated/include -D_GNU_SOURCE
LF_ASFLAGS := $(CFLAGS_$(ARCH))

LIMBFORGE_DIR := .
include generated/sources.mk
ASM_SRC := $(LF_ASM_$(ARCH))
C_SRC := $(LF_C_SOURCES)
OBJS := $(patsubst ./%,$(BUILD)/obj/%.o,$(ASM_SRC) $(C_SRC))

.PHONY: all lib gen test test-gen test-host test-aarch64 bench mca deps clean check-generated \
        demo info
.DEFAULT_GOAL := all

all: lib $(BUILD)/limbforge-info $(BUILD)/limbforge-demo

lib: $(BUILD)/liblimbforge.a $(BUILD)/liblimbforge.so

$(BUILD)/obj/%.S.o: %.S generated/include/lf_asm.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) $(LF_ASFLAGS) -c $< -o $@

$(BUILD)/obj/%.c.o: %.c runtime/include/limbforge.h runtime/lf_dispatch.h generated/include/lf_kernels.h \
                    Makefile
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) $(LF_CFLAGS) -c $< -o $@

$(BUILD)/liblimbforge.a: $(OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# The library has no constructors; without Debian's unmarked crti/crtn/crtbegin objects
# (-nostartfiles) the CET (x86-64) and BTI/PAC (AArch64) property notes survive the link.
$(BUILD)/liblimbforge.so.0: $(OBJS)
	$(CC) -shared -nostartfiles -Wl,-soname,liblimbforge.so.0 -Wl,-z,noexecstack -Wl,-z,now \
		-o $@ $^

$(BUILD)/liblimbforge.so: $(BUILD)/liblimbforge.so.0
	ln -sf liblimbforge.so.0 $@

$(BUILD)/limbforge-info: runtime/tools/limbforge-info.c $(BUILD)/liblimbforge.a
	$(CC) $(LF_CPPFLAGS) $(LF_CFLAGS) -o $@ $< $(BUILD)/liblimbforge.a

$(BUILD)/limbforge-demo: runtime/tools/limbforge-demo.c $(BUILD)/liblimbforge.a
	$(CC) $(LF_CPPFLAGS) $(LF_CFLAGS) -o $@ $< $(BUILD)/liblimbforge.a

info: $(BUILD)/limbforge-info
	$(RUN) $(BUILD)/limbforge-info

demo: $(BUILD)/limbforge-demo $(BUILD)/limbforge-info
	$(RUN) $(BUILD)/limbforge-info
	$(RUN) $(BUILD)/limbforge-demo

deps:
	@.ci/install-deps

# Regenerate generated/ from gen/ + templates/, then build and run the smoke demo.  The
# second make picks up the regenerated sources.mk.
gen: deps
	$(PYGEN) gen
	$(MAKE) --no-print-directory all
	$(MAKE) --no-print-directory demo

check-generated:
	$(PYGEN) check

include tests/tests.mk
include bench/bench.mk

clean:
	rm -rf build
