# tests/consumer.mk -- `make test-consumer`: limbforge as other projects take it (issue 8).
#
#   1. copy generated/ + runtime/ (nothing else of the tree) and the example consumer
#      (tests/consumer/) into build/consumer/src, and build there with a PATH that holds only
#      the build tools (no python3): the consumer's Makefile (sources.mk) and its CMake file
#      (sources.json), run the known-answer check; the same Makefile cross-built for AArch64
#      and run under qemu;
#   2. two copies built with LF_PREFIX=lfa_ / lfb_ linked into one program;
#   3. `make install` into a DESTDIR and a program built through pkg-config, plain and prefixed.

CONSUMER := build/consumer
NOPY := $(abspath $(CONSUMER)/bin)
NOPY_TOOLS := make sh cc gcc as ld ar ranlib sed mkdir rm cp cat uname cmake pkg-config \
              aarch64-linux-gnu-gcc aarch64-linux-gnu-as aarch64-linux-gnu-ld \
              aarch64-linux-gnu-ar qemu-aarch64
NOPY_ENV := env -i PATH=$(NOPY) HOME=/tmp

.PHONY: test-consumer
test-consumer:
	@rm -rf $(CONSUMER) && mkdir -p $(CONSUMER)/src $(NOPY)
	cp -r generated runtime $(CONSUMER)/src/
	cp -r tests/consumer/. $(CONSUMER)/src/
	@for t in $(NOPY_TOOLS); do p=$$(command -v $$t) && ln -sf $$p $(NOPY)/$$t; done
	@$(NOPY_ENV) sh -c 'if command -v python3 >/dev/null; then echo "python3 on the consumer PATH"; exit 1; fi'
	@echo "== consumer, Makefile + sources.mk, host"
	cd $(CONSUMER)/src && $(NOPY_ENV) make -s && ./out/kat
	@echo "== consumer, CMake + sources.json, host"
	cd $(CONSUMER)/src && $(NOPY_ENV) cmake -S . -B cmake-build >/dev/null && \
		$(NOPY_ENV) cmake --build cmake-build >/dev/null && ./cmake-build/kat
	@echo "== consumer, Makefile, aarch64 under qemu"
	cd $(CONSUMER)/src && $(NOPY_ENV) make -s CC=aarch64-linux-gnu-gcc AR=aarch64-linux-gnu-ar \
		ARCH=aarch64 OUT=out-a64 RUN="qemu-aarch64 -L /usr/aarch64-linux-gnu" run
	@echo "== two prefixed copies in one program"
	cd $(CONSUMER)/src && $(NOPY_ENV) make -s LF_PREFIX=lfa_ OUT=out-a out-a/liblimbforge.a && \
		$(NOPY_ENV) make -s LF_PREFIX=lfb_ OUT=out-b out-b/liblimbforge.a && \
		$(NOPY_ENV) cc -O2 -Iruntime/include -Igenerated/include -DLF_PREFIX=lfa_ -DCOPY=a \
			-c two_copies/copy.c -o out-a/copy.o && \
		$(NOPY_ENV) cc -O2 -Iruntime/include -Igenerated/include -DLF_PREFIX=lfb_ -DCOPY=b \
			-c two_copies/copy.c -o out-b/copy.o && \
		$(NOPY_ENV) cc -O2 two_copies/main.c out-a/copy.o out-b/copy.o out-a/liblimbforge.a \
			out-b/liblimbforge.a -o two_copies/two && ./two_copies/two
	@bad=$$(nm -g --defined-only $(CONSUMER)/src/out-a/liblimbforge.a | \
		awk 'NF == 3 && $$3 !~ /^lfa_/ {print $$3}'); if [ -n "$$bad" ]; then \
		echo "unprefixed symbols in the lfa_ copy: $$bad"; exit 1; fi; \
		echo "every global symbol of the lfa_ copy starts with lfa_"
	@echo "== make install + pkg-config (plain and LF_PREFIX=myproj_)"
	$(MAKE) --no-print-directory -s install PREFIX=/usr DESTDIR=$(abspath $(CONSUMER))/inst
	$(MAKE) --no-print-directory -s LF_PREFIX=myproj_ install PREFIX=/usr \
		DESTDIR=$(abspath $(CONSUMER))/inst
	@for pc in limbforge myproj_limbforge; do \
		for link in shared static; do \
		if [ $$link = static ]; then st="--static"; ld="-static"; else st=""; ld=""; fi; \
		flags=$$(PKG_CONFIG_SYSROOT_DIR=$(abspath $(CONSUMER))/inst \
			PKG_CONFIG_PATH=$(abspath $(CONSUMER))/inst/usr/lib/pkgconfig \
			pkg-config --cflags --libs $$st $$pc) || exit 1; \
		echo "   $$pc ($$link): $$flags $$ld"; \
		cc -O2 tests/consumer/kat.c $$flags $$ld -o $(CONSUMER)/kat-$$pc-$$link || exit 1; \
		LD_LIBRARY_PATH=$(abspath $(CONSUMER))/inst/usr/lib $(CONSUMER)/kat-$$pc-$$link \
			> $(CONSUMER)/kat.log || { cat $(CONSUMER)/kat.log; exit 1; }; \
		tail -1 $(CONSUMER)/kat.log; \
		done; \
	done
	$(MAKE) --no-print-directory -s uninstall PREFIX=/usr DESTDIR=$(abspath $(CONSUMER))/inst
	$(MAKE) --no-print-directory -s LF_PREFIX=myproj_ uninstall PREFIX=/usr \
		DESTDIR=$(abspath $(CONSUMER))/inst
	@left=$$(find $(CONSUMER)/inst -type f -o -type l); if [ -n "$$left" ]; then \
		echo "uninstall left: $$left"; exit 1; fi
	@echo "test-consumer: passed"
