#!/bin/sh
# Runs a program under valgrind for `make check-valgrind`: any memory error or
# definite leak turns into exit status 97, which no test expects.
# PCRE2 JIT code confuses memcheck (reads past the subject): the interpreter then.
AUTOTRACE_NO_JIT=1; export AUTOTRACE_NO_JIT
# Some tests empty PATH to show a missing program; valgrind must still be found.
vg=$(command -v valgrind 2>/dev/null || echo /usr/bin/valgrind)
exec "$vg" -q --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite "$@"
