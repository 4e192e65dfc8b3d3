#!/bin/sh
# `autotrace` under valgrind, for `make check-valgrind` ($AUTOTRACE_BIN is the real binary).
exec "$TOP_SRCDIR/tests/valgrind-wrap.sh" "$AUTOTRACE_BIN" "$@"
