/* The undo journal of a command that edits an operator project (`autotrace
 * wire`, `autotrace instrument`): OPDIR/.autotrace/NAME/ holds N.orig, the
 * original bytes of one file (N.absent instead when the command created the
 * file), N.wired, what the command last wrote to it, and MANIFEST
 * ("autotrace-wire-undo 1", then "N<TAB>path" lines, paths relative to OPDIR,
 * "../" for files of the project outside it). The journal is written before
 * any source is touched, so an interrupted run can always be undone; undo
 * refuses to overwrite a file edited since the command wrote it (unless
 * forced). OPDIR/.autotrace/.gitignore keeps the journal out of git.
 *
 * In a directory of several operators each has its own journal,
 * NAME.<operator> (project_ops.h), begun with AFTER: the other operators'
 * journals there were then. Undo goes last in, first out: an operator done
 * after this one wrote on top of its edits (the build script's one hook, a
 * header both entries include), so its journal, while it is there, stops the
 * undo of this one (exit 2, nothing restored, the command to run first). */
#ifndef AUTOTRACE_UNDO_JOURNAL_H
#define AUTOTRACE_UNDO_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "src_file.h"

/* Saves the original bytes of every file about to change (orig[i] NULL: the
 * file is about to be created); files already in the journal keep their
 * first original. Returns 0 or -1 (reported). */
int undo_journal_save(const char *opdir, const char *name, const char *const *paths,
		      const struct src_file *const *orig, size_t n, struct diag *diag);

/* After the files are written: records `texts` as what was written to each
 * (N.wired), for the files whose text before this run (`orig`, NULL for
 * none) was the journal's original or its last record; a file edited by
 * hand in between keeps its old record, so undo refuses to discard those
 * edits. 0 or -1. */
int undo_journal_wired(const char *opdir, const char *name, const char *const *paths,
		       const struct src_file *const *orig, const char *const *texts, const size_t *lens, size_t n,
		       struct diag *diag);

/* Writes the n files (texts[i], lens[i] to paths[i]; orig[i] is the file
 * before, NULL for one to create, whose directories are made as needed) all
 * or none, as apply writes them: the originals saved first, what was written
 * recorded after. When no file could be replaced, the journal and the
 * directories are left as they were ("CMD: nothing changed"). `cmd` names the
 * command in messages; `top` is the project root the files lie in (NULL:
 * opdir), the tree the lock of opdir, taken here unless held, may change
 * (edit_journal.h). Returns 0 or -1 (reported). */
int undo_journal_write(const char *opdir, const char *top, const char *name, const char *cmd,
		       const char *const *paths, const struct src_file *const *orig, const char *const *texts,
		       const size_t *lens, size_t n, struct diag *diag);

/* Restores every file of the journal (removing those the command created)
 * and removes the journal; all or nothing. A file edited since the command
 * wrote it is an error (nothing restored) unless `force`; with `dry_run` a
 * warning, and the diff is printed. `cmd` names the command in messages
 * ("wire", "instrument"). Every entry must name a file inside `top` (the
 * project root the command wrote in; NULL: opdir), by its words and through
 * its symbolic links: else it is refused at its MANIFEST line and nothing is
 * restored (the journal may come from anyone with the tree). 0, or -1 with
 * the reason reported. */
int undo_journal_restore(const char *opdir, const char *top, const char *name, const char *cmd, bool dry_run,
			 bool force, struct diag *diag);

/* True when OPDIR has a journal NAME. */
bool undo_journal_exists(const char *opdir, const char *name);

#endif
