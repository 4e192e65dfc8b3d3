/* Writing the files apply and strip change, all or nothing, as fast as a
 * tree of thousands of files needs: every new text goes to a temporary file
 * next to its original (mode kept); then one sync(2) makes them all durable
 * (instead of one fsync per file, which costs seconds on a large tree); then
 * each is renamed over its original. When a temporary file cannot be
 * written, the others are removed and no original is touched. A symbolic
 * link is followed: its target is replaced and the link stays. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "edit.h"
#include "xalloc.h"

/* A temporary file next to `path` (the resolved target; `shown` names it in messages). */
static int write_temp(const char *path, const char *shown, const char *data, size_t len, char **tmp_out,
		      struct diag *diag)
{
	size_t n = strlen(path);
	char *tmp = xmalloc(n + 16);
	struct stat st;
	mode_t mode;
	int fd;

	snprintf(tmp, n + 16, "%s.at-XXXXXX", path);
	if (stat(path, &st) == 0) {
		mode = st.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		goto fail;
	if (atomic_write_fd(fd, data, len) != 0)
		goto fail_fd;
	if (fchmod(fd, mode) != 0)
		goto fail_fd;
	if (close(fd) != 0) {
		fd = -1;
		goto fail_fd;
	}
	*tmp_out = tmp;
	return 0;
fail_fd:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
fail:
	diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
	free(tmp);
	return -1;
}

int edit_write_files(const char *const *paths, const char *const *texts, const size_t *lens, size_t n,
		     struct diag *diag)
{
	char **tmps = xcalloc(n + 1, sizeof(*tmps));
	char **targets = xcalloc(n + 1, sizeof(*targets));
	int ret = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		bool in_place;
		if (atomic_resolve(paths[i], &targets[i], &in_place, diag) != 0)
			goto out;
		if (in_place) {
			diag_pos(diag, DIAG_ERROR, paths[i], 0, 0, "cannot edit: not a regular file");
			goto out;
		}
	}
	for (i = 0; i < n; i++)
		if (write_temp(targets[i], paths[i], texts[i], lens[i], &tmps[i], diag) != 0)
			goto out;
	sync();
	for (i = 0; i < n; i++) {
		if (rename(tmps[i], targets[i]) != 0) {
			diag_pos(diag, DIAG_ERROR, paths[i], 0, 0, "cannot replace the file: %s", strerror(errno));
			goto out;
		}
		free(tmps[i]);
		tmps[i] = NULL;
	}
	ret = 0;
out:
	for (i = 0; i < n; i++) {
		if (tmps[i])
			unlink(tmps[i]);
		free(tmps[i]);
		free(targets[i]);
	}
	free(tmps);
	free(targets);
	return ret;
}
