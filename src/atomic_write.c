/* Atomic replacement of a file through a temporary file and rename(2). */
#include "atomic_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xalloc.h"

int atomic_write(const char *path, const char *data, size_t len, struct diag *diag)
{
	return atomic_write_flags(path, data, len, 0, diag);
}

int atomic_write_flags(const char *path, const char *data, size_t len, unsigned flags, struct diag *diag)
{
	size_t n = strlen(path);
	char *tmp = xmalloc(n + 16);
	struct stat st;
	mode_t mode = 0666;
	bool have_mode = false;
	int fd = -1, ret = -1;
	size_t done = 0;

	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
		have_mode = true;
	}
	snprintf(tmp, n + 16, "%s.at-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write: %s", strerror(errno));
		free(tmp);
		return -1;
	}
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write: %s", strerror(errno));
			goto out;
		}
		done += (size_t)w;
	}
	if (have_mode) {
		if (fchmod(fd, mode) != 0) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot keep the file mode: %s", strerror(errno));
			goto out;
		}
	} else {
		mode_t mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask) != 0) {
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot set the file mode: %s", strerror(errno));
			goto out;
		}
	}
	if (!(flags & ATOMIC_WRITE_NO_SYNC) && fsync(fd) != 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write: %s", strerror(errno));
		goto out;
	}
	if (close(fd) != 0) {
		fd = -1;
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write: %s", strerror(errno));
		goto out;
	}
	fd = -1;
	if (rename(tmp, path) != 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot replace the file: %s", strerror(errno));
		goto out;
	}
	ret = 0;
out:
	if (fd >= 0)
		close(fd);
	if (ret != 0)
		unlink(tmp);
	free(tmp);
	return ret;
}
