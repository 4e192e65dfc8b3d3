/* The lock and the journal of a tree that autotrace rewrites: every command
 * that replaces files of a tree (apply, strip, wire, preprocess --in-place,
 * and instrument through them) takes ROOT/.autotrace/lock first, and writes
 * through an edit batch (edit.h) whose journal ROOT/.autotrace/journal
 * lists each temporary file and the file it replaces before the temporary
 * file exists, and each original kept for a rollback (a hard link
 * TARGET.at-XXXXXX, else a copy) before it is made, then a commit mark
 * before the first rename. When a rename fails half-way (an I/O error, a
 * full disk: what no check could see), an abort mark follows and the batch
 * is rolled back at once: every original already replaced put back from
 * its backup, the temporary files and backups removed.
 *
 * So whatever moment a run is killed at, every file is wholly old or wholly
 * new, every temporary file and backup is named in the journal, and the
 * next run that takes the lock settles the batch (journal_settle.h), and
 * says so: a batch without its commit mark is rolled back (its temporary
 * files removed, nothing had changed); a committed one is completed (the
 * files not renamed yet are renamed now, unless one changed since, which is
 * kept and reported; when a rename fails again, it is rolled back instead);
 * an aborted one is rolled back (each original the batch replaced put back,
 * unless it changed since). Recovery renames and removes only files of
 * the lock's tree that the journal names, and their TARGET.at-XXXXXX
 * names: a journal naming any other file is refused, nothing touched (so
 * the journal of a run killed while it wrote a map outside the tree,
 * preprocess --map, is refused too: it names its line).
 *
 * The lock is flock(2) on ROOT/.autotrace/lock: it dies with its process,
 * so no stale lock is ever left; a second run on the tree is refused with
 * the holder's pid and command. Within one process the lock is reentrant:
 * acquiring a root already held (the same directory by any path) returns
 * the held lock, counted, so a command that runs others (instrument: wire,
 * apply, hook, check) takes it once for its whole run and the commands it
 * calls take it again for free. */
#ifndef AUTOTRACE_EDIT_JOURNAL_H
#define AUTOTRACE_EDIT_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "diag.h"

#define EDIT_STATE_DIR ".autotrace"

struct edit_lock;

/* Takes the lock of the tree at `root` for `command` ("apply", ...),
 * creating ROOT/.autotrace (with a .gitignore holding "*") when needed, then
 * completes or rolls back what an interrupted run left. NULL after
 * reporting (held by another process, an unreadable journal, a directory
 * that cannot be created). Release with edit_lock_release. */
struct edit_lock *edit_lock_acquire(const char *root, const char *command, struct diag *diag);
/* The same for a command whose batches change files of a larger tree `top`
 * that holds root (wire and instrument: the project root of the operator
 * directory they lock). Recovery renames and removes only files inside the
 * lock's tree (top, else root), and a batch writes nothing outside it. */
struct edit_lock *edit_lock_acquire_within(const char *root, const char *top, const char *command, struct diag *diag);
/* The lock's tree as given (top, else root), for messages. */
const char *edit_lock_top(const struct edit_lock *l);
/* True when `target`, a path whose last component is not a symbolic link
 * (as atomic_resolve gives it), lies in the lock's tree; a path whose
 * directory does not exist is let through (nothing can be created there). */
bool edit_lock_holds(const struct edit_lock *l, const char *target);
/* Drops one hold; the last removes the lock file (and ROOT/.autotrace when
 * nothing but its .gitignore is left). Accepts NULL. */
void edit_lock_release(struct edit_lock *l);
/* The lock this process holds on a tree that holds `path` (the path of a
 * file, which need not exist), or NULL: atomic_write goes through the
 * lock's journal when there is one, so every file written under a lock
 * (a build script by hook, wire's undo records) is journaled too. */
struct edit_lock *edit_lock_covering(const char *path);

/* ROOT/.autotrace of the lock (borrowed). */
const char *edit_lock_dir(const struct edit_lock *l);
/* The command ("apply", ...) whose interrupted batch the acquire completed
 * wholly (every file as that run meant it), or NULL. */
const char *edit_lock_completed(const struct edit_lock *l);

/* The journal of one batch, written as the batch goes (edit_write.c). */
struct edit_journal;

enum { EDIT_JOURNAL_NO_SYNC = 1 };

struct edit_journal *edit_journal_begin(struct edit_lock *l, unsigned flags);
/* A new temporary file next to `target` (the resolved path to replace;
 * `st` its stat, or NULL for a new file), named TARGET.at-XXXXXX, recorded
 * in the journal before it is created. Returns the open descriptor (mode
 * 0600) and the name in *tmp (newly allocated), or -1 with errno set. */
int edit_journal_temp(struct edit_journal *j, const char *target, const struct stat *st, char **tmp_out);
/* The temporary file `tmp` (open at `fd`) is written: its identity
 * recorded, by which a rollback tells it once renamed over its target. 0,
 * or -1 with errno set. */
int edit_journal_written(struct edit_journal *j, const char *tmp, int fd);
/* The original `target` (an existing file the batch replaces or removes,
 * named in its T or R record before) kept reachable until the batch is
 * settled: a hard link TARGET.at-XXXXXX, recorded before it is made; a copy
 * where the file system refuses the link. 0, or -1 with errno set. */
int edit_journal_backup(struct edit_journal *j, const char *target);
/* `target` (its stat `st`) is to be removed by this batch: recorded. 0, or
 * -1 with errno set. */
int edit_journal_remove(struct edit_journal *j, const char *target, const struct stat *st);
/* Makes the temporary files (and copied backups) durable (unless NO_SYNC)
 * and writes the commit mark: from here on the batch completes, even across
 * a kill. 0 or -1 (errno set; nothing renamed yet, the caller aborts). */
int edit_journal_commit(struct edit_journal *j);
/* The renames are done: syncs the directories written (unless NO_SYNC),
 * removes the backups and the journal. */
void edit_journal_end(struct edit_journal *j, const char *const *targets, size_t n);
/* A rename (or removal) of the commit failed: writes the abort mark and
 * rolls the batch back (journal_settle.h), *put_back counting the files
 * restored or removed. 0 when every file is as it was before the batch (the
 * journal removed), or -1 after reporting each file that could not be put
 * back: the journal is kept for the next run to finish the rollback, and no
 * other batch is written under this lock (edit_lock_stuck). Frees j. */
int edit_journal_roll_back(struct edit_journal *j, size_t *put_back, struct diag *diag);
/* True when a batch under `l` could not be rolled back wholly. */
bool edit_lock_stuck(const struct edit_lock *l);
/* The batch is abandoned: removes its temporary files, backups and the
 * journal. */
void edit_journal_abort(struct edit_journal *j);

#endif
