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

/* Every regular file under `root` (relative paths, sorted); links may lead
 * within `bound` (path_visit). */
int path_walk(const char *root, char ***out, size_t *n, struct diag *diag);
int path_walk_within(const char *root, const char *bound, char ***out, size_t *n, struct diag *diag);

/* The walk of a tree that every command makes (path_walk, path_glob, the
 * scan's directory walk, preprocess), with one policy for what a tree from
 * anyone may hold:
 *  - the tree is `bound` (NULL: `root` itself; else a directory holding
 *    it: the operator directory of a walk of its kernel directory);
 *  - a symbolic link whose target lies inside the tree is not followed: the
 *    file or directory it points to is walked under its own name (when it
 *    lies under `root`), so each file is read, and written, once and by its
 *    real path; one to a directory it lies in (`up -> ..`, `self -> .`) is
 *    a cycle: a warning, once per link and run;
 *  - a symbolic link whose target lies outside the tree is refused: an error
 *    located at the link, and the walk returns -1 (no command writes a file
 *    outside the tree it names, nor reads one as part of it);
 *  - a directory met again on the way down (by device and inode: a bind
 *    mount of a directory above) is a cycle too: a warning, not entered;
 *  - hidden entries (".git", ".autotrace") are not walked; nor are devices,
 *    FIFOs, sockets, nor dangling links; at most PATH_WALK_DEPTH levels.
 * fn(ctx, rel, path) is called for each regular file in name order within
 * each directory (`rel` relative to `root`, `path` as root/rel); a non-zero
 * return stops the walk. Returns 0, or -1 after reporting (an unreadable
 * root, or below it with PATH_WALK_STRICT; a link out of the tree, the root
 * itself reached through one). */
#define PATH_WALK_DEPTH 64
enum { PATH_WALK_STRICT = 1 };
typedef int (*path_visit_fn)(void *ctx, const char *rel, const char *path);
int path_visit(const char *root, const char *bound, unsigned flags, path_visit_fn fn, void *ctx, struct diag *diag);

void path_glob_free(char **paths, size_t n);

/* "dir/name" ("name" when dir is "." or empty); newly allocated. */
char *path_join(const char *dir, const char *name);

#endif
