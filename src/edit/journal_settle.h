/* Acting on a batch journal (ROOT/.autotrace/journal, written by
 * edit_journal.c; its records are listed there): read back, checked, and
 * settled from the state the files are in, so that a kill at any moment of
 * the settling leaves a journal the next settling finishes the same way.
 *
 *   no commit mark          the renames never began: the temporary files
 *                           and the backups are removed, every file is old;
 *   commit mark             rolled forward: each temporary file not renamed
 *                           yet is renamed over its target (unless the
 *                           target changed since), the removals are done,
 *                           the backups removed; when a rename fails, an
 *                           abort mark is appended and the batch is rolled
 *                           back instead;
 *   commit and abort marks  rolled back: each target the batch replaced
 *                           (the identity of its temporary file) gets its
 *                           backup renamed over it again, each file it
 *                           created is removed, each file it removed comes
 *                           back from its backup; then the temporary files
 *                           and backups left are removed. A restore that
 *                           fails keeps the journal and that backup: the
 *                           next settling tries again.
 *
 * The recovery of a lock (edit_lock_acquire) settles the journal an
 * interrupted run left; the commit of a batch (edit_write.c) settles its
 * own when a rename fails half-way, after writing the abort mark. */
#ifndef AUTOTRACE_JOURNAL_SETTLE_H
#define AUTOTRACE_JOURNAL_SETTLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "diag.h"

/* The first line of the journals written now; "autotrace-journal 1" (the
 * same records without backups, I and A lines) is read too. */
#define JOURNAL_HEAD "autotrace-journal 2"

/* "dev ino size mtime.ns" of `st`, "-" when NULL: what a journal records of
 * a target when the batch read it. */
void journal_identity(char *out, size_t cap, const struct stat *st);

/* A journal and whom it may touch. */
struct journal_site {
	const char *path;             /* ROOT/.autotrace/journal */
	const char *real_top;         /* realpath of the tree every entry must lie in; NULL: not checked
	                                 (the journal this process wrote) */
	const char *top;              /* that tree as the command was given it, for messages */
	const char *command;          /* the command settling it ("apply", ...) */
};

/* The journal an interrupted run left, settled, with a note saying what
 * was done (nothing when there is no journal). *completed (NULL: unused) is
 * set to the interrupted command when its batch was rolled forward wholly,
 * newly allocated. 0, or -1 after reporting: the journal unreadable or
 * naming a path outside the tree (nothing touched then), or a file that
 * could not be put back (the journal kept). */
int journal_recover(const struct journal_site *s, char **completed, struct diag *diag);

/* The rollback of this process's own batch, whose abort mark is written:
 * *put_back counts the files restored or removed. 0 (the journal removed),
 * or -1 after reporting each file that could not be put back (the journal
 * and those backups kept for the next run). */
int journal_roll_back(const struct journal_site *s, size_t *put_back, struct diag *diag);

#endif
