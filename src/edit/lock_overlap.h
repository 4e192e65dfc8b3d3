/* Runs of autotrace whose trees overlap: the lock of a project root
 * (edit_journal.h) covers one tree, but a run on a directory above or below
 * it (strip OP while preprocess --in-place OP/op_kernel runs, outside git
 * where each names its own root) changes the same files. After taking its
 * own lock, a run looks for the locks of the directories above its root and
 * of the directories below it: one that another process holds is an
 * overlapping run, and this one is refused. Each of two runs starting at
 * once takes its own lock before it looks, so at least one of them sees
 * the other (both may be refused; never both go on). */
#ifndef AUTOTRACE_LOCK_OVERLAP_H
#define AUTOTRACE_LOCK_OVERLAP_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The held lock that overlaps the tree `root` (absolute, real), other than
 * the locks this process holds (their lock files' device and inode in
 * `own_dev`, `own_ino`, `nown` of them): its lock file's path, newly
 * allocated, or NULL when there is none. Reads only; follows no link; walks
 * at most 64 levels below root, skipping hidden directories. */
char *lock_overlap_find(const char *root, const dev_t *own_dev, const ino_t *own_ino, size_t nown);

#endif
