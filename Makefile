# schedrec: `make` builds the module for the running kernel (or KVER=, or
# KDIR=) and the userspace tools; `make check` runs every test.
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build

all: module

module:
	@test -d "$(KDIR)" || { echo "schedrec: no kernel headers at $(KDIR)."; \
		echo "  install linux-headers-$(KVER), or pass KDIR=<headers dir> or KVER=<release>"; \
		exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null
	rm -rf build

check:
	bash tests/check.sh

.PHONY: all module clean check
