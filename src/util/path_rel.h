/* Relative and display forms of paths: what a path looks like from the
 * working directory, the way from one directory to a file, lexical
 * normalisation. Paths the user gives stay as they are written; paths the
 * tool finds on its own (a project root above the operator directory) are
 * shown relative to the working directory when it is inside or below them. */
#ifndef AUTOTRACE_PATH_REL_H
#define AUTOTRACE_PATH_REL_H

#include <stdbool.h>

/* `path` with "." and "dir/.." components removed and no trailing '/'
 * ("." for nothing left); lexical only. Newly allocated. */
char *path_normalize(const char *path);

/* The absolute form of an existing path (realpath), or NULL. Newly allocated. */
char *path_absolute(const char *path);

/* How the absolute path `abs` is best written from the working directory:
 * "." for the working directory itself, "a/b" below it, "../.." above it,
 * else `abs` itself. Newly allocated. */
char *path_display(const char *abs);

/* The same from the directory `cwd` (absolute) instead of the working one. */
char *path_display_from(const char *cwd, const char *abs);

/* The relative path from directory `from_abs` to `to_abs` (both absolute and
 * normalised): "x.h", "../../csrc/y.cpp", "." when they are the same.
 * Newly allocated. */
char *path_relative(const char *from_abs, const char *to_abs);

/* Creates directory `path` and its parents (mode 0777 before the umask).
 * Returns 0, or -1 with errno set (the component that failed in *failed
 * when not NULL, newly allocated). */
int path_mkdirs(const char *path, char **failed);
/* Removes `path` and everything under it (links not followed), as far as it can. */
void path_remove_tree(const char *path);

/* True when `path` (absolute) is `dir` or lies below it. */
bool path_within(const char *path, const char *dir);

/* The first directory from `abs_dir` (absolute) upwards that holds an entry
 * `name` (".git"), or NULL. Newly allocated. */
char *path_upwards_holding(const char *abs_dir, const char *name);

#endif
