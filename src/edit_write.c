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

struct file_id {
	dev_t dev;
	ino_t ino;                    /* 0: a new file, told apart by its path */
};

struct edit_batch {
	unsigned flags;
	char **tmps, **targets, **shown;
	struct file_id *ids;
	size_t n, cap;
};

struct edit_batch *edit_batch_new(unsigned flags)
{
	struct edit_batch *b = xcalloc(1, sizeof(*b));
	b->flags = flags;
	return b;
}

int edit_batch_add(struct edit_batch *b, const char *path, const char *text, size_t len, struct diag *diag)
{
	char *target, *tmp;
	bool in_place;

	if (atomic_resolve(path, &target, &in_place, diag) != 0)
		return -1;
	if (in_place) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot edit: not a regular file");
		free(target);
		return -1;
	}
	{
		/* one file reached twice (a link and its target): two new texts for one
		 * file, and the second rename would silently drop the first */
		struct stat st;
		struct file_id id = { 0, 0 };
		if (stat(target, &st) == 0) {
			id.dev = st.st_dev;
			id.ino = st.st_ino;
		}
		for (size_t i = 0; i < b->n; i++)
			if (id.ino ? b->ids[i].ino == id.ino && b->ids[i].dev == id.dev : strcmp(b->targets[i], target) == 0) {
				diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot edit: the same file as %s (a symbolic link?)",
					 b->shown[i]);
				free(target);
				return -1;
			}
		if (b->n == b->cap) {
			b->cap = b->cap ? b->cap * 2 : 16;
			b->tmps = xrealloc(b->tmps, b->cap * sizeof(*b->tmps));
			b->targets = xrealloc(b->targets, b->cap * sizeof(*b->targets));
			b->shown = xrealloc(b->shown, b->cap * sizeof(*b->shown));
			b->ids = xrealloc(b->ids, b->cap * sizeof(*b->ids));
		}
		b->ids[b->n] = id;
	}
	if (write_temp(target, path, text, len, &tmp, diag) != 0) {
		free(target);
		return -1;
	}
	b->tmps[b->n] = tmp;
	b->targets[b->n] = target;
	b->shown[b->n] = xstrdup(path);
	b->n++;
	return 0;
}

static void batch_free(struct edit_batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		if (b->tmps[i])
			unlink(b->tmps[i]);
		free(b->tmps[i]);
		free(b->targets[i]);
		free(b->shown[i]);
	}
	free(b->tmps);
	free(b->targets);
	free(b->shown);
	free(b->ids);
	free(b);
}

int edit_batch_commit(struct edit_batch *b, struct diag *diag)
{
	int ret = 0;

	if (!(b->flags & EDIT_BATCH_NO_SYNC))
		sync();
	for (size_t i = 0; i < b->n; i++) {
		if (rename(b->tmps[i], b->targets[i]) != 0) {
			diag_pos(diag, DIAG_ERROR, b->shown[i], 0, 0, "cannot replace the file: %s", strerror(errno));
			ret = -1;
			break;
		}
		free(b->tmps[i]);
		b->tmps[i] = NULL;
	}
	batch_free(b);
	return ret;
}

void edit_batch_abort(struct edit_batch *b)
{
	if (b)
		batch_free(b);
}

int edit_write_files(const char *const *paths, const char *const *texts, const size_t *lens, size_t n,
		     struct diag *diag)
{
	struct edit_batch *b = edit_batch_new(0);

	for (size_t i = 0; i < n; i++)
		if (edit_batch_add(b, paths[i], texts[i], lens[i], diag) != 0) {
			edit_batch_abort(b);
			return -1;
		}
	return edit_batch_commit(b, diag);
}
