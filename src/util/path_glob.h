/* Finding an operator's files by the globs of the rules: `*` and `?` stay
 * within one path segment, `**` spans any number of segments. The walk is
 * sorted, so results do not depend on the file system's directory order. */
#ifndef AUTOTRACE_PATH_GLOB_H
#define AUTOTRACE_PATH_GLOB_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* True when `path` (relative, '/'-separated) matches `pattern`. */
bool path_glob_match(const char *pattern, const char *path);

/* The files under `root` matching any of the `nglobs` patterns, as paths
 * relative to `root`, sorted bytewise, each once. Hidden directories
 * (".git") are not entered. Returns 0, or -1 after reporting an unreadable
 * root. */
int path_glob(const char *root, char *const *globs, size_t nglobs, char ***out, size_t *n, struct diag *diag);

/* Every regular file under `root` (relative paths, sorted). */
int path_walk(const char *root, char ***out, size_t *n, struct diag *diag);

void path_glob_free(char **paths, size_t n);

/* "dir/name" ("name" when dir is "." or empty); newly allocated. */
char *path_join(const char *dir, const char *name);

#endif
