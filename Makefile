# SPDX-License-Identifier: GPL-2.0
#
#   make                 build ecproxy.ko (against KDIR), the tools and the
#                        selftests' programs
#   make check           all tests: userspace, KUnit and netns in VMs
#   make demo            the main job end to end (in a VM unless VM=0);
#                        DEMO_SIZE=64m DEMO_CAP=8mbit
#   make bench           the benchmarks (bench/run.sh), results in build/bench
#   make bench-gf        GF(2^8) kernels against ISA-L on this CPU, results
#                        in build/bench/gf; VM=1: check in the VM instead that
#                        the module's load-time choice works in a kernel
#   make unit            the pure kernel units and their KUnit suites built
#                        for the host (selftests/unit): seconds, no VM, no root
#   make install         module (modules_install + depmod) and tools
#   make KDIR=/path/to/kernel/build   build for another kernel (>= 6.1)
#
# The kernel tree defaults to the running kernel's, else to the installed
# Debian headers (this is what CI machines, which cannot load modules, use).

KVER ?= $(shell uname -r)
ifneq ($(wildcard /lib/modules/$(KVER)/build/Makefile),)
KDIR ?= /lib/modules/$(KVER)/build
else
KDIR ?= $(shell scripts/kernel.sh debian-kdir 2>/dev/null)
endif
# What kbuild installs under: the headers' UTS release (Debian's kernel.release
# file says 6.1.x, not the ABI name).
KREL = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(KDIR)/include/generated/utsrelease.h)
PREFIX ?= /usr/local
VM ?= 1

.PHONY: all module tools progs check demo bench bench-gf unit install \
	modules_install clean deps

all: module tools progs

module:
	@test -n "$(KDIR)" || { echo "no kernel headers: set KDIR or run scripts/deps.sh" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

tools:
	$(MAKE) -C tools

# Plain socket programs the netns selftests run as client and sources.
progs:
	$(MAKE) -C selftests/netns/progs

deps:
	scripts/deps.sh

check:
	scripts/check.sh

# make demo [VM=0] [DEMO_SIZE=64m] [DEMO_CAP=80mbit]: see bench/demo.sh.
DEMO_ENV = DEMO_SIZE=$(DEMO_SIZE) DEMO_CAP=$(DEMO_CAP) ECP_GIT=$(shell git describe --always --dirty 2>/dev/null)
DEMO_SIZE ?= 64m
DEMO_CAP ?= 8mbit
demo: deps all
ifeq ($(VM),0)
	env $(DEMO_ENV) bench/demo.sh
else
	selftests/vm/run --kernel debian --timeout 1200 -- env $(DEMO_ENV) bench/demo.sh
endif

# make bench [VM=0] [BENCH_SIZE=reduced|full]: see bench/run.sh; results,
# plots and summary.md in build/bench.  In the VM, the router CPU figures
# run afterwards with S in a VM of its own (selftests/vm/pair): routercpu
# with one vCPU, again with S's qemu held to a quarter of a CPU so that S,
# not the hosts' VM, runs out of CPU (build/bench/saturated), and
# routerscale with two; unless BENCH_ONLY leaves them out.
bench: deps all
	$(MAKE) -C bench/gf
ifeq ($(VM),0)
	env ECP_KO=$(CURDIR)/ecproxy.ko $(DEMO_ENV) bench/run.sh $(CURDIR)/build/bench
else
	selftests/vm/run --kernel debian --timeout 3000 -- env $(DEMO_ENV) bench/run.sh $(CURDIR)/build/bench
	case " $${BENCH_ONLY:-routercpu} " in *" routercpu "*) \
		selftests/vm/pair --timeout 3000 -- env $(DEMO_ENV) BENCH_ONLY=routercpu \
			bench/run.sh $(CURDIR)/build/bench && \
		selftests/vm/pair --s-cpu 25 --timeout 3000 -- env $(DEMO_ENV) BENCH_ONLY=routercpu \
			bench/run.sh $(CURDIR)/build/bench/saturated ;; esac
	case " $${BENCH_ONLY:-routerscale} " in *" routerscale "*) \
		selftests/vm/pair --s-smp 2 --timeout 3000 -- env $(DEMO_ENV) BENCH_ONLY=routerscale \
			bench/run.sh $(CURDIR)/build/bench ;; esac
endif

# make bench-gf: the module's GF code on the host CPU (bench/gf/run.sh).
# VM defaults to 1 for demo and bench; here only VM=1 given explicitly
# selects the VM, where only the selection mechanism can be checked.
BENCH_GF_VM := $(if $(filter command line environment,$(origin VM)),$(VM),0)
ifeq ($(BENCH_GF_VM),1)
bench-gf: deps all
	selftests/vm/run --kernel debian -- bench/gf/kernel.sh $(CURDIR)/build/bench/gf
else
bench-gf: deps
	$(MAKE) -C bench/gf
	bench/gf/run.sh $(CURDIR)/build/bench/gf
endif

# make unit: TAP, then "N passed, N failed"; see selftests/unit/Makefile.
unit:
	$(MAKE) --no-print-directory -C selftests/unit run

# INSTALL_MOD_PATH and DESTDIR stage an install (for packaging) as usual.
modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KREL)

install: modules_install tools
	$(MAKE) -C tools install PREFIX=$(PREFIX)
	install -D -m 644 docs/ecctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/ecctl.8

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools clean
	$(MAKE) -C selftests/netns/progs clean
	-$(MAKE) -C bench/gf clean
	$(MAKE) -C selftests/unit clean
	rm -rf build
