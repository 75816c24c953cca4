# schedrec: `make` builds the module for the running kernel (or KVER=, or
# KDIR=) and the userspace tools; `make check` runs every test.
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
# The version of everything (module, tools, dkms.conf): one file.
VERSION := $(shell cat $(CURDIR)/VERSION)

all: module user

# The userspace tools, once user/ has its Makefile, and demo-workload.
user:
	@if [ -f user/Makefile ]; then $(MAKE) -C user; fi
	$(MAKE) -C tests/demo

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

# Coverage-guided fuzzing of everything that reads a .srec file, with
# clang's libFuzzer (tests/fuzz/README.md): each harness for half of
# FUZZ_SECONDS (default 5400: 10 M executions at the rates measured), new
# inputs kept in build/fuzz/corpus, crashes in build/fuzz/crashes (said,
# and the exit status is 1).
FUZZ_SECONDS ?= 5400
fuzz:
	$(MAKE) -C tests/fuzz fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)

# schedrec vs ftrace, added cost per event, in one VM boot (tests/bench).
bench:
	bash tests/bench/run.sh

# Record tests/demo's workload in a 6.12 VM; the reports go to out/demo/.
demo:
	bash tests/demo/run.sh

# Install like a kernel tool.  `make install` puts the command, its manual
# pages and its bash completion under $(DESTDIR)$(PREFIX); `make
# modules_install` the module under /lib/modules/$(KVER) (kbuild's;
# INSTALL_MOD_PATH=$(DESTDIR)).  `make dkms-install` hands the module's
# sources to DKMS (in $(DKMS_SOURCE_TREE)/schedrec-$(VERSION)), which builds
# and installs it for $(KVER), and again for every new kernel; DKMS_FLAGS
# passes options to dkms (tests/check.sh uses trees of its own).
PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man
COMPLETIONDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
MAN_PAGES := $(wildcard doc/man/*.[1-8])
DKMS ?= dkms
DKMS_FLAGS ?=
DKMS_SOURCE_TREE ?= /usr/src
DKMS_DIR = $(DKMS_SOURCE_TREE)/schedrec-$(VERSION)
KMOD_SOURCES := $(filter-out %.mod.c,$(wildcard kmod/*.c)) \
	$(wildcard kmod/*.h) kmod/Kbuild

install: user
	install -d $(BINDIR) $(COMPLETIONDIR)
	install -m 755 build/user/schedrec $(BINDIR)/schedrec
	install -m 644 completion/schedrec.bash $(COMPLETIONDIR)/schedrec
	@for page in $(MAN_PAGES); do \
		dir=$(MANDIR)/man$${page##*.}; \
		echo "install -m 644 $$page $$dir"; \
		install -d $$dir && install -m 644 $$page $$dir/ || exit 1; \
	done

uninstall:
	rm -f $(BINDIR)/schedrec $(COMPLETIONDIR)/schedrec
	rm -f $(foreach page,$(MAN_PAGES),\
		$(MANDIR)/man$(subst .,,$(suffix $(page)))/$(notdir $(page)))

modules_install: module
	$(MAKE) -C $(KDIR) M=$(CURDIR) \
		$(if $(DESTDIR),INSTALL_MOD_PATH=$(DESTDIR)) modules_install

# The module's sources as DKMS takes them, with dkms.conf.
dkms-source:
	rm -rf $(DKMS_DIR)
	install -d $(DKMS_DIR)/kmod $(DKMS_DIR)/include/uapi
	install -m 644 Kbuild VERSION $(DKMS_DIR)/
	install -m 644 $(KMOD_SOURCES) $(DKMS_DIR)/kmod/
	install -d $(DKMS_DIR)/kmod/feature
	install -m 644 kmod/feature/*.c $(DKMS_DIR)/kmod/feature/
	install -m 644 include/uapi/schedrec.h $(DKMS_DIR)/include/uapi/
	sed 's/@VERSION@/$(VERSION)/' dkms/dkms.conf >$(DKMS_DIR)/dkms.conf

dkms-install:
	@$(DKMS) remove $(DKMS_FLAGS) schedrec/$(VERSION) --all >/dev/null 2>&1 || true
	$(MAKE) dkms-source
	$(DKMS) add $(DKMS_FLAGS) schedrec/$(VERSION)
	$(DKMS) build $(DKMS_FLAGS) schedrec/$(VERSION) -k $(KVER)
	$(DKMS) install $(DKMS_FLAGS) schedrec/$(VERSION) -k $(KVER)

dkms-uninstall:
	$(DKMS) remove $(DKMS_FLAGS) schedrec/$(VERSION) --all
	rm -rf $(DKMS_DIR)

.PHONY: install uninstall modules_install dkms-source dkms-install \
	dkms-uninstall

.PHONY: all module user clean check bench demo fuzz
