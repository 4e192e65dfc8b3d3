/* Atomic replacement of a file through a temporary file and rename(2). */
#include "atomic_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "edit.h"
#include "edit_journal.h"
#include "tmp_cleanup.h"
#include "xalloc.h"

/* The target of the link `path`: its text, relative to the link's directory
 * unless absolute. Newly allocated; NULL with errno set. */
static char *link_target(const char *path)
{
	size_t cap = 256;
	char *text = NULL;
	ssize_t n;

	for (;;) {
		text = xrealloc(text, cap);
		n = readlink(path, text, cap);
		if (n < 0) {
			free(text);
			return NULL;
		}
		if ((size_t)n < cap)
			break;
		cap *= 2;
	}
	text[n] = '\0';
	if (text[0] != '/' && strrchr(path, '/')) {
		const char *slash = strrchr(path, '/');
		char *joined = xasprintf("%.*s/%s", (int)(slash - path), path, text);
		free(text);
		return joined;
	}
	return text;
}

/* /dev/stdout, /dev/fd/N, /proc/self/fd/N...: a stream the caller's shell
 * opened, whatever it points at (a pipe, a terminal, or a file opened with
 * > or >>). Other files under /dev (say /dev/shm, a tmpfs) are ordinary. */
static bool is_stream_path(const char *path)
{
	return strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/stderr") == 0 ||
	       strncmp(path, "/dev/fd/", 8) == 0 || (strncmp(path, "/proc/", 6) == 0 && strstr(path + 6, "/fd/"));
}

int atomic_resolve(const char *path, char **target, bool *in_place, struct diag *diag)
{
	struct stat st;
	char *p;

	*target = NULL;
	*in_place = false;
	/* what the path names in the end (links followed by the kernel) */
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write: it is a directory");
			return -1;
		}
		if (!S_ISREG(st.st_mode) || is_stream_path(path)) {
			/* written through the path as given: the kernel knows where a
			 * pipe:[N] or a descriptor link leads, a hand-made path would not */
			*target = xstrdup(path);
			*in_place = true;
			return 0;
		}
	}
	/* a regular file (or a new one): follow the links by hand to the file the
	 * rename must replace, so that the links stay */
	p = xstrdup(path);
	for (int hops = 0;; hops++) {
		char *next;
		if (lstat(p, &st) != 0) {
			*target = p; /* a new file (maybe the missing target of a link): created */
			return 0;
		}
		if (!S_ISLNK(st.st_mode))
			break;
		if (hops == 40 || !(next = link_target(p))) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write through this symbolic link: %s",
				 hops == 40 ? strerror(ELOOP) : strerror(errno));
			free(p);
			return -1;
		}
		free(p);
		p = next;
	}
	*target = p;
	return 0;
}

int atomic_write_fd(int fd, const char *data, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		done += (size_t)w;
	}
	return 0;
}

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
	if (!(flags & ATOMIC_WRITE_NO_SYNC) && fsync(fd) != 0) {
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
