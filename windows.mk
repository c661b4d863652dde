# The Windows build, read by the Makefile where the source lists are
# known and before any rule uses them.
#
#   make windows    flame.exe, flamegraph.exe, difffolded.exe and every
#                   stackcollapse-*.exe for x86_64-w64-mingw32 in build-win/,
#                   statically linked: no DLL needs to sit beside them
#
# It needs Debian's gcc-mingw-w64-x86-64 and libz-mingw-w64-dev (zlib for
# the target), and the host's xxhash.h (libxxhash-dev), used header-only
# (XXH_INLINE_ALL), so no xxhash library for the target is needed.
WIN_CC      ?= x86_64-w64-mingw32-gcc
WIN_B       ?= build-win
WIN_CFLAGS  ?= -O2 -g -falign-functions=64
# Static: no libwinpthread or zlib DLL beside the tools; -s: no symbols.
WIN_LDFLAGS ?= -static -municode -s
XXHASH_H    ?= /usr/include/xxhash.h
# make check builds the .exe files where the cross compiler is (tests/
# windows.sh runs them under wine, or is skipped).
WINDOWS_CHECK := $(if $(shell command -v $(WIN_CC) 2>/dev/null),windows)

# This file is read before the Makefile's first rule: a plain make must
# still build all.
.DEFAULT_GOAL := all
.PHONY: windows windows-tools
windows:
	@command -v $(WIN_CC) >/dev/null 2>&1 && \
	  printf '#include <zlib.h>\n' | $(WIN_CC) -E -x c - >/dev/null 2>&1 || { \
	  echo "flame: make windows needs $(WIN_CC) and zlib for it; install them with:" \
	       "apt-get install gcc-mingw-w64-x86-64 libz-mingw-w64-dev" >&2; exit 1; }
	@test -f $(XXHASH_H) || { echo "flame: make windows needs $(XXHASH_H);" \
	  "install it with: apt-get install libxxhash-dev (or give XXHASH_H=PATH)" >&2; exit 1; }
	@mkdir -p $(WIN_B)/xxhash
	@cmp -s $(XXHASH_H) $(WIN_B)/xxhash/xxhash.h || cp $(XXHASH_H) $(WIN_B)/xxhash/xxhash.h
	$(MAKE) FLAME_WINDOWS=1 B=$(WIN_B) CC=$(WIN_CC) CFLAGS="$(WIN_CFLAGS)" \
	  LDFLAGS="$(WIN_LDFLAGS)" windows-tools

ifeq ($(FLAME_WINDOWS),1)
EXE := .exe
# Folders whose formats need Linux libraries (libelf, libdw, libzstd):
# left out whole, so files added to them later stay out too.
WIN_LINUX_ONLY := collapse/perfdata/%
# flame --to lnt reads perf.data and runs objdump (posix_spawn).
WIN_LINUX_ONLY += collapse/lnt/lnt_perf.c collapse/lnt/lnt_objdump.c
COLLAPSE_SRC   := $(filter-out $(WIN_LINUX_ONLY),$(COLLAPSE_SRC))
COLLAPSE_MAINS := $(filter-out $(WIN_LINUX_ONLY),$(COLLAPSE_MAINS))
TOOLS          := flamegraph flame $(notdir $(COLLAPSE_MAINS:.c=))
# Of that folder, the format row (which on Windows says that reading
# perf.data needs the Linux build) and the sniff that tells one.
COLLAPSE_SRC   += collapse/perfdata/perfdata_format.c collapse/perfdata/perfdata_sniff.c
LIB_SRC        += lib/winsys.c
# winsys.h goes ahead of every source; lib/win holds the POSIX headers
# Windows lacks.  mingw's own printf and strtod (ANSI stdio) print and read
# numbers as glibc does, so the output is the Linux build's byte for byte.
CPPFLAGS += -include winsys.h -Ilib/win -I$(B)/xxhash -DXXH_INLINE_ALL \
            -D_FILE_OFFSET_BITS=64 -D__USE_MINGW_ANSI_STDIO=1 -D_WIN32_WINNT=0x0601
# GCC checks format(printf) attributes against Microsoft's printf, which
# lacks %zu; the ANSI stdio the build uses has it.
WARN     += -Wno-format
# Replaces the Linux libraries: zlib only (xxhash is inlined), static.
LDLIBS   := -lz -lm
windows-tools: $(TOOLS:%=$(B)/%$(EXE))
endif
