# flame: a fast flame graph toolkit.  See README.md.
#
#   make            build every tool
#   make check      run the whole test suite (ends with "N passed, N failed")
#   make asan       rebuild with ASan+UBSan in build-asan/ and run the suite
#   make bench      throughput and peak RSS on generated inputs
#   make fuzz       build and run the libFuzzer targets (clang)
#   make demo       draw the examples: flame on a real perf recording, flamegraph
#                   on examples/*.folded (DEMO_OUT=DIR writes there, not examples/)
#   make install    tools, man pages, bash and zsh completions under PREFIX
#                   (/usr/local); DESTDIR=DIR stages them; make uninstall
#   make dist       flame-VERSION.tar.gz of HEAD (git archive)
#   make windows    the .exe tools for 64-bit Windows in build-win/ (windows.mk)

CC      ?= cc
# Functions start on 64-byte lines: the same object code (perf.o in
# stackcollapse-perf and in flame) otherwise ran 8-10% apart from one
# binary to the other, by where the linker happened to place it.
CFLAGS  ?= -O2 -g -falign-functions=64
WARN    := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wcast-qual -Wwrite-strings -Wformat=2 -Wundef -Wvla
ifeq ($(WERROR),1)
WARN    += -Werror
endif
B       ?= build
VERSION := 0.1.0
CPPFLAGS += -D_GNU_SOURCE -DFLAME_VERSION=\"$(VERSION)\" -Ilib -I$(B)
BASE_CFLAGS = -std=c11 -pthread $(WARN) $(CFLAGS)
ALL_CFLAGS = $(BASE_CFLAGS) -MMD -MP
LDLIBS  += -lz -lxxhash -lzstd -lm -pthread
# perf.data: ELF files (libelf), DWARF unwinding (libdw), MiniDebugInfo
# (liblzma), C++ and Rust demangling (libiberty).
LDLIBS  += -ldw -lelf -llzma -liberty

# Every lib/*.c but the Windows shim (windows.mk adds it there).
LIB_SRC    := $(filter-out lib/winsys.c,$(sort $(wildcard lib/*.c)))
RENDER_SRC := render/options.c render/layout.c render/palette.c render/svg.c \
              render/render.c render/order.c render/nameattr.c render/xmlesc.c \
              render/compact.c render/draw.c
# Each format lives in a folder of collapse/; its sources and its
# stackcollapse-NAME main are found here, so a new format needs no line.
COLLAPSE_DIRS := collapse $(patsubst %/,%,$(sort $(dir $(wildcard collapse/*/*.c))))
COLLAPSE_INC := $(COLLAPSE_DIRS:%=-I%)
COLLAPSE_MAINS := $(wildcard collapse/*/stackcollapse-*.c) collapse/folded/difffolded.c
COLLAPSE_SRC := $(filter-out $(COLLAPSE_MAINS),$(wildcard collapse/*.c collapse/*/*.c))
TOOLS      := flamegraph flame stackfilter $(notdir $(COLLAPSE_MAINS:.c=))
EXE        :=
include windows.mk
LIB_OBJ    := $(LIB_SRC:%.c=$(B)/%.o)
RENDER_OBJ := $(RENDER_SRC:%.c=$(B)/%.o)
COLLAPSE_OBJ := $(COLLAPSE_SRC:%.c=$(B)/%.o)
UNIT_SRC   := $(wildcard tests/unit/test_*.c)
UNIT_BIN   := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
TESTTOOLS  := $(B)/tests/svgframes $(B)/tests/genfolded $(B)/tests/runstat $(B)/tests/genwpa \
              $(B)/tests/genpv $(B)/tests/genetl $(B)/tests/memlat
FUZZ_SRC   := $(wildcard tests/fuzz/fuzz_*.c)
REPLAY_BIN := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=$(B)/tests/replay_%)

.PHONY: all check asan bench fuzz demo clean update-golden deps-check install uninstall dist
# Only the default build is copied to the top level: make asan must not
# leave sanitizer binaries where ./flamegraph and make bench would use them.
TOP_COPIES := $(if $(filter build,$(B)),$(TOOLS))
all: deps-check $(TOOLS:%=$(B)/%) $(TOP_COPIES)

# Stop early, naming the packages, when a header the build needs is missing.
deps-check:
	@printf '#include <zlib.h>\n#include <xxhash.h>\n#include <zstd.h>\n' | \
	  $(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 || { \
	  echo "flame: zlib, xxhash or zstd headers are missing;" \
	       "install them with: apt-get install zlib1g-dev libxxhash-dev libzstd-dev" >&2; exit 1; }
	@printf '#include <gelf.h>\n#include <elfutils/libdwfl.h>\n#include <lzma.h>\n#include <libiberty/demangle.h>\n' | \
	  $(CC) $(CPPFLAGS) -E -x c - >/dev/null 2>&1 || { \
	  echo "flame: libelf, libdw, liblzma or libiberty headers are missing (perf.data);" \
	       "install them with: apt-get install libelf-dev libdw-dev liblzma-dev libiberty-dev" >&2; exit 1; }

# A stamp holding the compiler and flags: objects are rebuilt when they
# change (a new CFLAGS default, WERROR=1), not only when sources do.
$(B)/.flags: FORCE
	@mkdir -p $(B)
	@echo '$(CC) $(CPPFLAGS) $(ALL_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(CPPFLAGS) $(ALL_CFLAGS)' > $@
.PHONY: FORCE

$(B)/%.o: %.c $(B)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<
# flame.c joins the two halves: it alone sees both.
FLAME_OBJ := $(B)/flame.o $(B)/flame_opts.o $(B)/flame_record.o $(B)/flame_report.o $(B)/flame_export.o
$(B)/flame.o $(B)/flame_opts.o $(B)/flame_report.o $(B)/flame_export.o: $(B)/%.o: %.c $(B)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(COLLAPSE_INC) -Irender $(ALL_CFLAGS) -c -o $@ $<
# A format's sources see the others of collapse/ (collect sees them all).
$(B)/collapse/%.o: collapse/%.c $(B)/.flags
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(COLLAPSE_INC) $(ALL_CFLAGS) -c -o $@ $<

# The viewer's JavaScript and CSS are kept as plain files and embedded as
# C string literals so they can be read, linted and diffed on their own.
$(B)/render/assets.h: render/viewer.js render/compact.js render/viewer.css render/embed.sh
	@mkdir -p $(dir $@)
	sh render/embed.sh render/viewer.js viewer_js render/compact.js compact_js \
	  render/viewer.css viewer_css > $@.tmp && mv $@.tmp $@
$(B)/render/svg.o: $(B)/render/assets.h

$(B)/flamegraph$(EXE): $(B)/render/flamegraph.o $(RENDER_OBJ) $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)
# One link rule per stackcollapse-NAME main, wherever its folder.
define collapse_tool
$$(B)/$(notdir $(1:.c=))$$(EXE): $$(B)/$(1:.c=.o) $$(COLLAPSE_OBJ) $$(LIB_OBJ)
	$$(CC) $$(ALL_CFLAGS) $$(LDFLAGS) -o $$@ $$(filter %.c %.o,$$^) $$(LDLIBS)
endef
$(foreach m,$(filter-out %/difffolded.c,$(COLLAPSE_MAINS)),$(eval $(call collapse_tool,$(m))))
$(B)/difffolded$(EXE): $(B)/collapse/folded/difffolded.o $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)
# Folded in, folded out: the stack operators alone.
$(B)/stackfilter$(EXE): $(B)/stackfilter.o $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)
$(B)/flame$(EXE): $(FLAME_OBJ) $(RENDER_OBJ) $(COLLAPSE_OBJ) $(LIB_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

# Convenience copies at the top level, so ./flamegraph works after make.
$(TOOLS): %: $(B)/%
	cp $< $@

# One-step compile and link: no -MMD (clang refuses it with several files).
$(B)/tests/test_%: tests/unit/test_%.c $(RENDER_OBJ) $(COLLAPSE_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Irender $(COLLAPSE_INC) $(BASE_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)
$(B)/tests/%: tests/tools/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(BASE_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

$(B)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay_main.c $(RENDER_OBJ) $(COLLAPSE_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) -Irender $(COLLAPSE_INC) $(BASE_CFLAGS) $(LDFLAGS) -o $@ $(filter %.c %.o,$^) $(LDLIBS)

check: all $(UNIT_BIN) $(TESTTOOLS) $(REPLAY_BIN) $(WINDOWS_CHECK)
	B=$(B) sh tests/run.sh

asan:
	$(MAKE) B=build-asan CC=clang \
	  CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	  LDFLAGS="-fsanitize=address,undefined" check

bench: all $(TESTTOOLS)
	B=$(B) sh bench/run.sh

FUZZ_TARGETS := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=build-fuzz/fuzz_%)
# FORCE: the objects are made by the inner make, so a changed one must
# relink the target too (its own rule knows only the .c).
build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c FORCE
	$(MAKE) B=build-fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
	  build-fuzz/render/assets.h $(RENDER_OBJ:$(B)/%=build-fuzz/%) $(COLLAPSE_OBJ:$(B)/%=build-fuzz/%) \
	  $(LIB_OBJ:$(B)/%=build-fuzz/%)
	clang $(CPPFLAGS:-I$(B)=-Ibuild-fuzz) -Irender $(COLLAPSE_INC) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -o $@ $< \
	  $(RENDER_OBJ:$(B)/%=build-fuzz/%) $(COLLAPSE_OBJ:$(B)/%=build-fuzz/%) $(LIB_OBJ:$(B)/%=build-fuzz/%) $(LDLIBS)
fuzz: $(FUZZ_TARGETS)
	FUZZ_SECONDS=$${FUZZ_SECONDS:-60} sh tests/fuzz/run.sh $(FUZZ_TARGETS)

DEMO_OUT ?= examples
demo: all
	@sh examples/render.sh $(B) $(DEMO_OUT)

# GNU-style directories; DESTDIR stages an install for a package.
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
INSTALL     ?= install
# bash-completion loads a completion file named after the command being
# completed, so every tool gets a link to the one file that covers them all.
install: all
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" \
	  "$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(ZSHCOMPDIR)"
	$(INSTALL) -m 755 $(TOOLS:%=$(B)/%) "$(DESTDIR)$(BINDIR)"
	$(INSTALL) -m 644 $(TOOLS:%=man/%.1) "$(DESTDIR)$(MANDIR)/man1"
	$(INSTALL) -m 644 completions/flame.bash "$(DESTDIR)$(BASHCOMPDIR)/flame"
	for t in $(filter-out flame,$(TOOLS)); do ln -sf flame "$(DESTDIR)$(BASHCOMPDIR)/$$t"; done
	$(INSTALL) -m 644 completions/_flame "$(DESTDIR)$(ZSHCOMPDIR)/_flame"

uninstall:
	for t in $(TOOLS); do rm -f "$(DESTDIR)$(BINDIR)/$$t" \
	  "$(DESTDIR)$(MANDIR)/man1/$$t.1" "$(DESTDIR)$(BASHCOMPDIR)/$$t"; done
	rm -f "$(DESTDIR)$(ZSHCOMPDIR)/_flame"

# The release tarball is HEAD as git has it: no build output, nothing
# untracked, and it builds on its own (tests/install.sh checks).
DISTDIR ?= .
dist:
	@git rev-parse --git-dir > /dev/null 2>&1 || { \
	  echo "flame: make dist packs HEAD with git archive and needs a git checkout" >&2; exit 1; }
	@git diff --quiet HEAD 2>/dev/null || \
	  echo "flame: uncommitted changes are not in the tarball (it packs HEAD)" >&2
	git archive --format=tar.gz --prefix=flame-$(VERSION)/ -o "$(DISTDIR)/flame-$(VERSION).tar.gz" HEAD
	@echo "wrote $(DISTDIR)/flame-$(VERSION).tar.gz"

update-golden: all
	B=$(B) sh tests/golden.sh update
	B=$(B) PERF_GOLDEN=update TMP=$$(mktemp -d) PASSED=0 FAILED=0 sh -c '. tests/lib.sh; . tests/collapse-perf.sh'


clean:
	rm -rf build build-asan build-fuzz build-win $(TOOLS) flame-$(VERSION).tar.gz

-include $(shell find $(B) -name '*.d' 2>/dev/null)
