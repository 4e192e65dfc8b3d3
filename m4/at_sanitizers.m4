# at_sanitizers.m4 - --enable-asan / --enable-ubsan for the whole build.
AC_DEFUN([AT_SANITIZERS], [
AC_ARG_ENABLE([asan],
  [AS_HELP_STRING([--enable-asan], [build with AddressSanitizer (and LeakSanitizer)])],
  [], [enable_asan=no])
AC_ARG_ENABLE([ubsan],
  [AS_HELP_STRING([--enable-ubsan], [build with UndefinedBehaviorSanitizer, aborting on the first report])],
  [], [enable_ubsan=no])
SANITIZER_FLAGS=
AS_IF([test "x$enable_asan" = xyes],
      [SANITIZER_FLAGS="$SANITIZER_FLAGS -fsanitize=address -fno-omit-frame-pointer"])
AS_IF([test "x$enable_ubsan" = xyes],
      [SANITIZER_FLAGS="$SANITIZER_FLAGS -fsanitize=undefined -fno-sanitize-recover=all"])
AC_SUBST([SANITIZER_FLAGS])
AM_CONDITIONAL([SANITIZED], [test -n "$SANITIZER_FLAGS"])
])

# AT_FUZZING - --enable-fuzzing: instrument everything for a fuzzing engine
# (libFuzzer with CC=clang, AFL++ with CC=afl-clang-fast) and build the
# tests/fuzz/engine_* binaries that `make fuzz-smoke` runs.
AC_DEFUN([AT_FUZZING], [
AC_ARG_ENABLE([fuzzing],
  [AS_HELP_STRING([--enable-fuzzing], [build the fuzz targets for libFuzzer (CC=clang) or AFL++ (CC=afl-clang-fast)])],
  [], [enable_fuzzing=no])
FUZZ_CFLAGS=
AS_IF([test "x$enable_fuzzing" = xyes], [FUZZ_CFLAGS="-fsanitize=fuzzer-no-link"])
AC_SUBST([FUZZ_CFLAGS])
AM_CONDITIONAL([FUZZING], [test "x$enable_fuzzing" = xyes])
])
