# schedrec: `make` builds the module for the running kernel (or KVER=, or
# KDIR=) and the userspace tools; `make check` runs every test.
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build

all: module user

# The userspace tools, once user/ has its Makefile.
user:
	@if [ -f user/Makefile ]; then $(MAKE) -C user; fi

module:
	@test -d "$(KDIR)" || { echo "schedrec: no kernel headers at $(KDIR)."; \
		echo "  install linux-headers-$(KVER), or pass KDIR=<headers dir> or KVER=<release>"; \
		exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf build

# Every test: checkpatch, host tests, and the in-guest tests on Debian's
# 6.1, 6.12 and 6.12-rt kernels under QEMU (see tests/check.sh).
check:
	bash tests/check.sh

# schedrec vs ftrace, added cost per event, in one VM boot (tests/bench).
bench:
	bash tests/bench/run.sh

.PHONY: all module user clean check bench
