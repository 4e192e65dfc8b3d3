#!/bin/sh
# Runs a program under valgrind for `make check-valgrind`: any memory error or
# definite leak turns into exit status 97, which no test expects.
exec valgrind -q --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite "$@"
