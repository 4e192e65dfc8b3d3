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
