# The userspace layers and how each compiles, for user/Makefile and
# tools/Makefile (doc/design.md, "Layers"):
#
#   include/uapi -> user/lib -> tools/lib -> tools -> user (the command)
#
# A layer compiles with the include paths of its own directory and of the
# layers below it, never above, so that the compiler refuses an include
# that points back up (tests/layers/layers_test.sh checks it).
#
#   build/user/libsrec.a      user/lib
#   build/tools/libreport.a   tools/lib and tools
#   build/user-tests/         both again with ASan and UBSan, for the tests
# The Makefiles that include this one build their `all` by default.
.DEFAULT_GOAL := all
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
OUT := $(TOP)/build/user
TOOLS_OUT := $(TOP)/build/tools
TEST_OUT := $(TOP)/build/user-tests

# The tree's version (one place: the VERSION file), for --version and the
# files the reports write.
VERSION := $(shell cat $(TOP)/VERSION)
BASE_CFLAGS := -Wall -Wextra -Werror -O2 -g -D_GNU_SOURCE \
	-DSCHEDREC_VERSION='"$(VERSION)"'
LIB_INC := -I$(TOP)/include -I$(TOP)/user/lib
TOOLS_LIB_INC := $(LIB_INC) -I$(TOP)/tools/lib
TOOLS_INC := $(TOOLS_LIB_INC) -I$(TOP)/tools
CMD_INC := $(TOOLS_INC) -I$(TOP)/user
LIB_CFLAGS := $(BASE_CFLAGS) $(LIB_INC)
TOOLS_LIB_CFLAGS := $(BASE_CFLAGS) $(TOOLS_LIB_INC)
TOOLS_CFLAGS := $(BASE_CFLAGS) $(TOOLS_INC)
CMD_CFLAGS := $(BASE_CFLAGS) $(CMD_INC)

SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer

LIB_SRCS := $(wildcard $(TOP)/user/lib/*.c)
LIB_HEADERS := $(wildcard $(TOP)/user/lib/*.h) $(TOP)/include/uapi/schedrec.h
TOOLS_LIB_SRCS := $(wildcard $(TOP)/tools/lib/*.c)
TOOLS_SRCS := $(wildcard $(TOP)/tools/*.c)
TOOLS_HEADERS := $(wildcard $(TOP)/tools/*.h $(TOP)/tools/lib/*.h) \
	$(LIB_HEADERS)

# $(call layer_rules,LIBDIR,TOOLSDIR,CFLAGS): LIBDIR/libsrec.a and
# TOOLSDIR/libreport.a, their objects compiled with CFLAGS added.
define layer_rules
$(1)/lib/%.o: $(TOP)/user/lib/%.c $(LIB_HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $(LIB_CFLAGS) $(3) -c -o $$@ $$<

$(1)/libsrec.a: $(LIB_SRCS:$(TOP)/user/lib/%.c=$(1)/lib/%.o)
	rm -f $$@
	$$(AR) rcs $$@ $$^

$(2)/lib/%.o: $(TOP)/tools/lib/%.c $(TOOLS_HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $(TOOLS_LIB_CFLAGS) $(3) -c -o $$@ $$<

$(2)/%.o: $(TOP)/tools/%.c $(TOOLS_HEADERS)
	@mkdir -p $$(@D)
	$$(CC) $(TOOLS_CFLAGS) $(3) -c -o $$@ $$<

$(2)/libreport.a: $(TOOLS_LIB_SRCS:$(TOP)/tools/%.c=$(2)/%.o) \
		$(TOOLS_SRCS:$(TOP)/tools/%.c=$(2)/%.o)
	rm -f $$@
	$$(AR) rcs $$@ $$^
endef

$(eval $(call layer_rules,$(OUT),$(TOOLS_OUT),))
$(eval $(call layer_rules,$(TEST_OUT),$(TEST_OUT)/tools,$(SANITIZE)))
