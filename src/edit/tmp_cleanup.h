/* Temporary files that must not outlive the process: a fatal signal
 * (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) removes every file registered
 * here, then ends the process with that signal as before. SIGKILL cannot be
 * caught: what it leaves is found again by the next run (edit_journal.h for
 * the edit batches, trace_out.h for collect's output).
 *
 * tmp_cleanup_hold brackets a commit (the renames of a batch): the signals
 * wait until it is over, so a batch is never cut in the middle by them. */
#ifndef AUTOTRACE_TMP_CLEANUP_H
#define AUTOTRACE_TMP_CLEANUP_H

#include <stdbool.h>

/* Registers `path` (copied); returns a handle for tmp_cleanup_forget.
 * Removed newest first, so a directory registered before the files made in
 * it (tmp_cleanup_add_dir) is empty when its turn comes. */
int tmp_cleanup_add(const char *path);
int tmp_cleanup_add_dir(const char *path);
/* The file is gone or has become permanent: no longer removed. */
void tmp_cleanup_forget(int handle);
/* hold(true) delays the fatal signals; hold(false) lets a pending one act. */
void tmp_cleanup_hold(bool hold);

#endif
