/* The preprocessor defines an operator's own build passes to its kernel
 * sources: the -DNAME[=VALUE] flags of the operator's CMakeLists.txt files
 * (OPDIR/, OPDIR/op_host/, OPDIR/op_kernel/: add_ops_compile_options,
 * add_compile_options, target_compile_options, add_definitions) and the
 * definitions of add_compile_definitions / target_compile_definitions.
 * Those of test directories build tests, not the kernel (never read), and
 * words with ${...} are not known here (passed over). The build decides
 * which #if arm a file is compiled with; apply, check and the runtime's
 * include follow it (kernel_scan_defines), the rules' define and undef
 * statements winning over it. */
#ifndef AUTOTRACE_CMAKE_DEFINES_H
#define AUTOTRACE_CMAKE_DEFINES_H

#include <stddef.h>

struct cmake_define {
	char *name;
	char *value;   /* "1" when not given */
};

struct cmake_defines {
	struct cmake_define *v;
	size_t n;
};

/* Reads the operator's CMakeLists.txt files (none: no defines). */
void cmake_defines_read(const char *opdir, struct cmake_defines *d);
void cmake_defines_release(struct cmake_defines *d);

#endif
