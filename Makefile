# limbforge -- hand-scheduled big-number kernels, generated from Python, dispatched in C.
#
#   make gen           install missing packages, regenerate generated/, build, run the demo
#   make test          generator checks + unit tests, host suite, AArch64 suite under qemu
#   make               build the host library and tools into build/<arch>/
#   make ARCH=aarch64  cross-build into build/aarch64/
#   make bench         JMH-like table beside GMP; bench/results/<cpu>.json and .png
#   make mca           llvm-mca-19 estimates of the AArch64 loops on five CPU models
#   make deps          only install the Debian packages (see .ci/install-deps)
#   make install PREFIX=/usr/local DESTDIR=   static + shared library, header, pkg-config file
#   make uninstall     the same paths removed
#   make LF_PREFIX=myproj_ [install]   every symbol renamed myproj_lf_... (build/<arch>-myproj_/)
#
# Python is needed only by `make gen`/`make test` (Debian's /usr/bin/python3 with PeachPy and
# Jinja2); building the library needs only a C compiler and generated/ + runtime/.

HOST_ARCH := $(shell uname -m | sed -e 's/arm64/aarch64/')
ARCH ?= $(HOST_ARCH)
PY := /usr/bin/python3
PYGEN := PYTHONPATH=$(CURDIR)/gen $(PY) -m lfgen
# make LF_PREFIX=myproj_: every symbol becomes myproj_lf_... (lf_prefix.h, LF_SYM), built
# into build/<arch>-myproj_/ so that prefixed and plain builds never share objects
LF_PREFIX ?=
BUILD := build/$(ARCH)$(if $(LF_PREFIX),-$(LF_PREFIX))
# library name: limbforge, or <prefix>limbforge for a prefixed build (two prefixed copies can
# be installed side by side)
LIBNAME := $(LF_PREFIX)limbforge
VERSION := 0.1.0
SOMAJOR := 0

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
# the shared library link fails on any object without the CET / BTI marking
LDFLAGS_x86_64 := -Wl,-z,cet-report=error
LDFLAGS_aarch64 := -Wl,-z,force-bti
CFLAGS ?= -O2 -g
LF_CFLAGS := $(CFLAGS) -std=c11 -Wall -Wextra -fPIC -fvisibility=hidden $(CFLAGS_$(ARCH))
LF_CPPFLAGS := -Iruntime/include -Iruntime -Iruntime/ref -Igenerated/include -D_GNU_SOURCE \
               $(if $(LF_PREFIX),-DLF_PREFIX=$(LF_PREFIX))
LF_ASFLAGS := $(CFLAGS_$(ARCH))

LIMBFORGE_DIR := .
include generated/sources.mk
ASM_SRC := $(LF_ASM_$(ARCH))
C_SRC := $(LF_C_SOURCES)
OBJS := $(patsubst ./%,$(BUILD)/obj/%.o,$(ASM_SRC) $(C_SRC))

.PHONY: all lib gen test test-gen test-host test-aarch64 bench mca deps clean check-generated \
        demo info install uninstall
.DEFAULT_GOAL := all

all: lib $(BUILD)/limbforge-info $(BUILD)/limbforge-demo

lib: $(BUILD)/lib$(LIBNAME).a $(BUILD)/lib$(LIBNAME).so

# -MMD -MP: every header an object includes is a prerequisite (the .d files next to the objects)
LF_DEPFLAGS := -MMD -MP

$(BUILD)/obj/%.S.o: %.S generated/include/lf_asm.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) $(LF_DEPFLAGS) $(LF_ASFLAGS) -c $< -o $@

$(BUILD)/obj/%.c.o: %.c runtime/include/limbforge.h runtime/lf_dispatch.h generated/include/lf_kernels.h \
                    Makefile
	@mkdir -p $(dir $@)
	$(CC) $(LF_CPPFLAGS) $(LF_DEPFLAGS) $(LF_CFLAGS) -c $< -o $@

-include $(OBJS:.o=.d)

$(BUILD)/lib$(LIBNAME).a: $(OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# The library has no constructors; without Debian's unmarked crti/crtn/crtbegin objects
# (-nostartfiles) the CET (x86-64) and BTI/PAC (AArch64) property notes survive the link.
$(BUILD)/lib$(LIBNAME).so.$(VERSION): $(OBJS)
	$(CC) -shared -nostartfiles -Wl,-soname,lib$(LIBNAME).so.$(SOMAJOR) -Wl,-z,noexecstack \
		-Wl,-z,now $(LDFLAGS_$(ARCH)) -o $@ $^

$(BUILD)/lib$(LIBNAME).so.$(SOMAJOR): $(BUILD)/lib$(LIBNAME).so.$(VERSION)
	ln -sf lib$(LIBNAME).so.$(VERSION) $@

$(BUILD)/lib$(LIBNAME).so: $(BUILD)/lib$(LIBNAME).so.$(SOMAJOR)
	ln -sf lib$(LIBNAME).so.$(SOMAJOR) $@

$(BUILD)/limbforge-info: runtime/tools/limbforge-info.c $(BUILD)/lib$(LIBNAME).a
	$(CC) $(LF_CPPFLAGS) $(LF_CFLAGS) -o $@ $< $(BUILD)/lib$(LIBNAME).a

$(BUILD)/limbforge-demo: runtime/tools/limbforge-demo.c $(BUILD)/lib$(LIBNAME).a
	$(CC) $(LF_CPPFLAGS) $(LF_CFLAGS) -o $@ $< $(BUILD)/lib$(LIBNAME).a

# ---- install: static + shared library (soname lib<name>.so.0), header(s), pkg-config file.
# Plain builds put limbforge.h in $(INCLUDEDIR); prefixed ones in $(INCLUDEDIR)/<name>/, and
# their .pc adds -DLF_PREFIX, so `pkg-config --cflags <name>` is all a consumer needs.
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
HDRDIR := $(INCLUDEDIR)$(if $(LF_PREFIX),/$(LIBNAME))
INSTALLED_HEADERS := runtime/include/limbforge.h generated/include/limbforge_prefix.h

install: lib
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(HDRDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 $(BUILD)/lib$(LIBNAME).a $(DESTDIR)$(LIBDIR)/
	install -m 755 $(BUILD)/lib$(LIBNAME).so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf lib$(LIBNAME).so.$(VERSION) $(DESTDIR)$(LIBDIR)/lib$(LIBNAME).so.$(SOMAJOR)
	ln -sf lib$(LIBNAME).so.$(SOMAJOR) $(DESTDIR)$(LIBDIR)/lib$(LIBNAME).so
	install -m 644 $(INSTALLED_HEADERS) $(DESTDIR)$(HDRDIR)/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(HDRDIR)' '' \
		'Name: $(LIBNAME)' \
		'Description: hand-scheduled big-number kernels with CPU dispatch (limbforge)' \
		'Version: $(VERSION)' 'Libs: -L$${libdir} -l$(LIBNAME)' \
		'Cflags: -I$${includedir}$(if $(LF_PREFIX), -DLF_PREFIX=$(LF_PREFIX))' \
		> $(DESTDIR)$(PKGCONFIGDIR)/$(LIBNAME).pc

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/lib$(LIBNAME).a $(DESTDIR)$(LIBDIR)/lib$(LIBNAME).so \
		$(DESTDIR)$(LIBDIR)/lib$(LIBNAME).so.$(SOMAJOR) \
		$(DESTDIR)$(LIBDIR)/lib$(LIBNAME).so.$(VERSION) $(DESTDIR)$(PKGCONFIGDIR)/$(LIBNAME).pc \
		$(addprefix $(DESTDIR)$(HDRDIR)/,$(notdir $(INSTALLED_HEADERS)))
	$(if $(LF_PREFIX),-rmdir $(DESTDIR)$(HDRDIR))

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
include gen/tune.mk

clean:
	rm -rf build
