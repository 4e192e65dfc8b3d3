/* Atomic replacement of a file through a temporary file and rename(2), or
 * through the journal of a tree lock this process holds (atomic_write.h). */
#include "atomic_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_path.h"
#include "edit.h"
#include "edit_scratch.h"
#include "edit_journal.h"
#include "tmp_cleanup.h"
#include "xalloc.h"

/* A device, FIFO or stream: written as it is, there is nothing to replace.
 * Appending: a file behind /dev/stdout was opened by the shell, which already
 * truncated it for > and wants it kept for >>. */
static int write_in_place(const char *path, const char *shown, const char *data, size_t len, struct diag *diag)
{
	int fd = open(path, O_WRONLY | O_APPEND);

	if (fd < 0) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
		return -1;
	}
	if (atomic_write_fd(fd, data, len) != 0) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd) != 0) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int atomic_write(const char *path, const char *data, size_t len, struct diag *diag)
{
	return atomic_write_flags(path, data, len, 0, diag);
}

int atomic_write_flags(const char *shown, const char *data, size_t len, unsigned flags, struct diag *diag)
{
	char *path, *tmp;
	bool in_place;
	struct stat st;
	mode_t mode = 0666;
	bool have_mode = false;
	int fd = -1, ret = -1, cleanup;
	size_t n;

	if (atomic_resolve(shown, &path, &in_place, diag) != 0)
		return -1;
	if (in_place) {
		ret = write_in_place(path, shown, data, len, diag);
		free(path);
		return ret;
	}
	{
		/* under a tree lock this process holds, through the tree's journal */
		struct edit_lock *lock = edit_lock_covering(path);
		if (lock) {
			struct edit_batch *b = edit_batch_new(lock, flags & ATOMIC_WRITE_NO_SYNC ? EDIT_BATCH_NO_SYNC : 0);
			free(path);
			if (edit_batch_add(b, shown, data, len, diag) != 0) {
				edit_batch_abort(b);
				return -1;
			}
			return edit_batch_commit(b, diag);
		}
	}
	n = strlen(path);
	tmp = xmalloc(n + 16);
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
		have_mode = true;
	}
	snprintf(tmp, n + 16, "%s.at-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
		free(tmp);
		free(path);
		return -1;
	}
	cleanup = tmp_cleanup_add(tmp);
	if (atomic_write_fd(fd, data, len) != 0) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
		goto out;
	}
	if (have_mode) {
		if (fchmod(fd, mode) != 0) {
			diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot keep the file mode: %s", strerror(errno));
			goto out;
		}
	} else {
		mode_t mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask) != 0) {
			diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot set the file mode: %s", strerror(errno));
			goto out;
		}
	}
	if (!(flags & ATOMIC_WRITE_NO_SYNC) && !edit_scratch() && fsync(fd) != 0) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
		goto out;
	}
	if (close(fd) != 0) {
		fd = -1;
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot replace the file: %s", strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (ret != 0)
		unlink(tmp);
	tmp_cleanup_forget(cleanup);
	free(tmp);
	free(path);
	return ret;
}
