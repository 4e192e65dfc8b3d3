/* Writing the files apply, strip, wire and preprocess change, all or
 * nothing, as fast as a tree of thousands of files needs: every new text
 * goes to a temporary file next to its original (mode kept), named in the
 * tree's journal before it exists (edit_journal.h), and every original it
 * replaces is kept reachable by a hard link next to it (a copy where links
 * fail), named there too; at the commit the temporary files are fsync'ed
 * together by a few threads (sync_files.h; not with the batch flag
 * EDIT_BATCH_NO_SYNC, edit.h), then the commit mark is written; then each is
 * renamed over its original, the fatal signals held meanwhile, the
 * directories written are fsync'ed and the backups removed. Only the files
 * written are synced, never the whole system (sync(2) would wait for every
 * other program's dirty data too). When a temporary file cannot be written,
 * the others are removed and no original is touched. A symbolic link is
 * followed: its target is replaced and the link stays.
 *
 * All or nothing also means: every target is checked before its temporary
 * file is written, so that no rename fails half-way for a reason known
 * beforehand -- a target outside the tree the lock covers (through a link),
 * an immutable or append-only file or directory (chattr +i, +a: rename(2)
 * fails on them, even for root), a file without write permission (mode 444;
 * unless EDIT_BATCH_READONLY_OK) -- each refused with its path, so the batch
 * is abandoned before anything changed. A rename that fails for a reason no
 * check sees (an I/O error, a full disk, EXDEV) rolls the batch back at once:
 * the originals already replaced are put back from their backups, and the
 * error says nothing changed. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/fs.h>
#endif

#include "atomic_path.h"
#include "edit.h"
#include "edit_scratch.h"
#include "edit_journal.h"
#include "index_table.h"
#include "tmp_cleanup.h"
#include "xalloc.h"

/* A temporary file next to `path` (the resolved target, `st` its stat or
 * NULL when new; `shown` names it in messages). It is fsync'ed with the
 * others at the commit (edit_journal_commit). */
static int write_temp(struct edit_journal *j, const char *path, const struct stat *st, const char *shown,
		      const char *data, size_t len, char **tmp_out, struct diag *diag)
{
	mode_t mode;
	int fd;

	if (st) {
		mode = st->st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
	}
	fd = edit_journal_temp(j, path, st, tmp_out);
	if (fd < 0)
		goto fail;
	if (atomic_write_fd(fd, data, len) != 0 || fchmod(fd, mode) != 0 || edit_journal_written(j, *tmp_out, fd) != 0)
		goto fail_fd;
	if (close(fd) != 0) {
		fd = -1;
		goto fail_fd;
	}
	return 0;
fail_fd:
	{
		int e = errno;
		if (fd >= 0)
			close(fd);
		unlink(*tmp_out);
		free(*tmp_out);
		*tmp_out = NULL;
		errno = e;
	}
fail:
	diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot write: %s", strerror(errno));
	return -1;
}

/* One file of a batch. A file is known by device and inode (0: a new file,
 * known by its path), so that one reached twice, through a link and its
 * target, is caught. */
struct batch_file {
	char *tmp, *target, *shown;   /* tmp NULL: the file is removed */
	dev_t dev;
	ino_t ino;
};

struct edit_batch {
	unsigned flags;
	char *dir;                    /* the directory checked last (check_replaceable), its flags */
	int dir_flags;
	struct edit_lock *lock;
	struct edit_journal *journal;
	struct batch_file *v;
	size_t n, cap;
	struct index_table index;     /* by (dev, ino), or by path for new files */
};

struct edit_batch *edit_batch_new(struct edit_lock *lock, unsigned flags)
{
	struct edit_batch *b = xcalloc(1, sizeof(*b));
	if (edit_scratch())
		flags |= EDIT_BATCH_NO_SYNC;
	b->flags = flags;
	b->lock = lock;
	b->journal = edit_journal_begin(lock, flags & EDIT_BATCH_NO_SYNC ? EDIT_JOURNAL_NO_SYNC : 0);
	return b;
}

static uint64_t file_hash(const struct batch_file *f)
{
	return f->ino ? index_hash_u64((uint64_t)f->dev * 0x9E3779B97F4A7C15ull ^ (uint64_t)f->ino)
		      : index_hash_bytes(f->target, strlen(f->target));
}

struct file_key {
	const struct edit_batch *b;
	const struct batch_file *f;
};

static bool same_file(const void *ctx, size_t item)
{
	const struct file_key *k = ctx;
	const struct batch_file *g = &k->b->v[item];

	return k->f->ino ? g->ino == k->f->ino && g->dev == k->f->dev : !g->ino && strcmp(g->target, k->f->target) == 0;
}

/* The inode flags of `path` (FS_IOC_GETFLAGS: immutable, append-only...),
 * 0 where the file system keeps none. */
static int inode_flags(const char *path, bool dir)
{
	int flags = 0;
#ifdef FS_IOC_GETFLAGS
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (dir ? O_DIRECTORY : 0));

	if (fd < 0)
		return 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) != 0)
		flags = 0;
	close(fd);
#else
	(void)path;
	(void)dir;
#endif
	return flags;
}

#ifndef FS_IMMUTABLE_FL
#define FS_IMMUTABLE_FL 0x10
#endif
#ifndef FS_APPEND_FL
#define FS_APPEND_FL 0x20
#endif

/* Whether the batch can replace (or remove) `target` (resolved; `st` its
 * stat, NULL for a new file) when it commits: 0, or -1 after reporting why
 * not, with `shown`. A path the user named (`given`) may lie anywhere. */
static int check_replaceable(struct edit_batch *b, const char *shown, const char *target, const struct stat *st,
			     bool given, struct diag *diag)
{
	const char *slash = strrchr(target, '/');
	char *dir = slash ? xstrndup(target, slash == target ? 1 : (size_t)(slash - target)) : xstrdup(".");
	int flags;

	if (!given && b->lock && !edit_lock_holds(b->lock, target)) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0,
			 "leads to %s, outside %s (the tree this command may change): refused, nothing changed", target,
			 edit_lock_top(b->lock));
		free(dir);
		return -1;
	}
	if (!b->dir || strcmp(b->dir, dir) != 0) {
		free(b->dir);
		b->dir = xstrdup(dir);
		b->dir_flags = inode_flags(dir, true);
	}
	free(dir);
	if (b->dir_flags & FS_IMMUTABLE_FL || (st && b->dir_flags & FS_APPEND_FL)) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot %s: its directory is %s; nothing changed",
			 b->dir_flags & FS_IMMUTABLE_FL ? "write" : "replace the file",
			 b->dir_flags & FS_IMMUTABLE_FL ? "immutable (chattr +i)" : "append-only (chattr +a)");
		return -1;
	}
	if (!st)
		return 0;
	flags = inode_flags(target, false);
	if (flags & (FS_IMMUTABLE_FL | FS_APPEND_FL)) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0, "cannot replace the file: it is %s; nothing changed",
			 flags & FS_IMMUTABLE_FL ? "immutable (chattr +i)" : "append-only (chattr +a)");
		return -1;
	}
	if (!(b->flags & EDIT_BATCH_READONLY_OK) && !(st->st_mode & 0222)) {
		diag_pos(diag, DIAG_ERROR, shown, 0, 0,
			 "the file is read-only (mode %04o): refused, nothing changed (make it writable, chmod u+w, "
			 "for autotrace to edit it)",
			 (unsigned)(st->st_mode & 07777));
		return -1;
	}
	return 0;
}

/* A file about to join the batch, as batch_entry found it. */
struct batch_entry {
	struct batch_file f;
	struct stat st;
	bool have_st;           /* the file exists (st is filled) */
	uint64_t h;             /* its file_hash */
};

/* Resolves `path` and checks it is not in the batch already, and that it
 * can be replaced (inside the lock's tree unless `given`): 0 with *e
 * filled, or -1 after reporting. */
static int batch_entry(struct edit_batch *b, const char *path, bool given, struct batch_entry *e, struct diag *diag)
{
	struct batch_file *f = &e->f;
	struct stat *st = &e->st;
	struct file_key key = { b, f };
	bool in_place;
	size_t k;

	memset(f, 0, sizeof(*f));
	if (edit_lock_stuck(b->lock)) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "not written: a batch of this run could not be rolled back wholly, and its journal (%s/journal) "
			 "must stay for the next run to finish the rollback", edit_lock_dir(b->lock));
		return -1;
	}
	if (atomic_resolve(path, &f->target, &in_place, diag) != 0)
		return -1;
	if (in_place) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot edit: not a regular file");
		free(f->target);
		return -1;
	}
	if (stat(f->target, st) == 0) {
		f->dev = st->st_dev;
		f->ino = st->st_ino;
	}
	e->have_st = f->ino != 0;
	if (check_replaceable(b, path, f->target, e->have_st ? st : NULL, given, diag) != 0) {
		free(f->target);
		return -1;
	}
	/* one file reached twice (a link and its target): two new texts for one
	 * file, and the second rename would silently drop the first */
	e->h = file_hash(f);
	k = index_table_find(&b->index, e->h, same_file, &key);
	if (k != SIZE_MAX) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot edit: the same file as %s (a symbolic link?)", b->v[k].shown);
		free(f->target);
		return -1;
	}
	return 0;
}

static void batch_push(struct edit_batch *b, struct batch_entry *e, const char *path)
{
	e->f.shown = xstrdup(path);
	XGROW(b->v, b->cap, b->n + 1);
	b->v[b->n] = e->f;
	index_table_add(&b->index, e->h, b->n);
	b->n++;
}

/* The original of an existing target kept for a rollback (edit_journal_backup):
 * 0, or -1 after reporting with `shown`. */
static int keep_original(struct edit_batch *b, const struct batch_entry *e, const char *shown, struct diag *diag)
{
	if (edit_journal_backup(b->journal, e->f.target) == 0)
		return 0;
	diag_pos(diag, DIAG_ERROR, shown, 0, 0,
		 "cannot keep the original for a rollback (a link or a copy next to it): %s; nothing changed",
		 strerror(errno));
	return -1;
}

static int batch_add(struct edit_batch *b, const char *path, bool given, const char *text, size_t len,
		     struct diag *diag)
{
	struct batch_entry e;

	if (batch_entry(b, path, given, &e, diag) != 0)
		return -1;
	if (write_temp(b->journal, e.f.target, e.have_st ? &e.st : NULL, path, text, len, &e.f.tmp, diag) != 0) {
		free(e.f.target);
		return -1;
	}
	if (e.have_st && keep_original(b, &e, path, diag) != 0) {
		free(e.f.tmp);
		free(e.f.target);
		return -1;
	}
	batch_push(b, &e, path);
	return 0;
}

int edit_batch_add(struct edit_batch *b, const char *path, const char *text, size_t len, struct diag *diag)
{
	return batch_add(b, path, false, text, len, diag);
}

int edit_batch_add_given(struct edit_batch *b, const char *path, const char *text, size_t len, struct diag *diag)
{
	return batch_add(b, path, true, text, len, diag);
}

int edit_batch_remove(struct edit_batch *b, const char *path, struct diag *diag)
{
	struct batch_entry e;

	if (batch_entry(b, path, false, &e, diag) != 0)
		return -1;
	if (!e.have_st) {
		free(e.f.target);
		return 0; /* nothing to remove */
	}
	if (edit_journal_remove(b->journal, e.f.target, &e.st) != 0) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot write the journal: %s", strerror(errno));
		free(e.f.target);
		return -1;
	}
	if (keep_original(b, &e, path, diag) != 0) {
		free(e.f.target);
		return -1;
	}
	batch_push(b, &e, path);
	return 0;
}

static void batch_free(struct edit_batch *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i].tmp);
		free(b->v[i].target);
		free(b->v[i].shown);
	}
	free(b->v);
	free(b->dir);
	index_table_free(&b->index);
	free(b);
}

int edit_batch_commit(struct edit_batch *b, struct diag *diag)
{
	const char **targets;
	size_t done = 0, put_back;
	int ret = 0, e = 0;

	if (edit_journal_commit(b->journal) != 0) {
		diag_pos(diag, DIAG_ERROR, edit_lock_dir(b->lock), 0, 0, "cannot write the journal: %s: nothing changed",
			 strerror(errno));
		edit_batch_abort(b);
		return -1;
	}
	targets = xcalloc(b->n + 1, sizeof(*targets));
	/* from the commit mark on, the batch completes or is rolled back: no
	 * signal cuts it short */
	tmp_cleanup_hold(true);
	for (; done < b->n; done++) {
		if (!b->v[done].tmp ? unlink(b->v[done].target) != 0 && errno != ENOENT
				    : rename(b->v[done].tmp, b->v[done].target) != 0) {
			e = errno;
			ret = -1;
			break;
		}
		targets[done] = b->v[done].target;
	}
	if (ret == 0) {
		edit_journal_end(b->journal, targets, b->n);
	} else if (edit_journal_roll_back(b->journal, &put_back, diag) == 0) {
		diag_pos(diag, DIAG_ERROR, b->v[done].shown, 0, 0,
			 "cannot %s the file: %s; nothing changed (the batch of %zu files was rolled back, %zu undone)",
			 b->v[done].tmp ? "replace" : "remove", strerror(e), b->n, put_back);
	} else {
		diag_pos(diag, DIAG_ERROR, b->v[done].shown, 0, 0,
			 "cannot %s the file: %s; the batch of %zu files could not be rolled back wholly (see above): the "
			 "next autotrace run on this tree finishes the rollback (journal %s/journal)",
			 b->v[done].tmp ? "replace" : "remove", strerror(e), b->n, edit_lock_dir(b->lock));
	}
	tmp_cleanup_hold(false);
	free(targets);
	batch_free(b);
	return ret;
}

void edit_batch_abort(struct edit_batch *b)
{
	if (!b)
		return;
	edit_journal_abort(b->journal);
	batch_free(b);
}

int edit_write_files(struct edit_lock *lock, const char *const *paths, const char *const *texts, const size_t *lens,
		     size_t n, struct diag *diag)
{
	struct edit_batch *b = edit_batch_new(lock, 0);

	for (size_t i = 0; i < n; i++)
		if (edit_batch_add(b, paths[i], texts[i], lens[i], diag) != 0) {
			edit_batch_abort(b);
			return -1;
		}
	return edit_batch_commit(b, diag);
}
