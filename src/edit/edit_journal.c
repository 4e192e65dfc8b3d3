/* The tree lock and the batch journal. See edit_journal.h.
 *
 * ROOT/.autotrace/journal, one record per line, fields separated by tabs,
 * paths absolute with '\\', tab and newline escaped:
 *   autotrace-journal 1
 *   command <TAB> apply
 *   pid <TAB> 1234
 *   batch <TAB> 2                              the run's second batch (for messages, tests)
 *   T <TAB> tmp <TAB> target <TAB> identity   a temporary file and what it replaces
 *   X <TAB> tmp                                a name taken already: not ours
 *   R <TAB> target <TAB> identity              a file the batch removes
 *   C                                          the commit mark
 * The identity of a target is "dev ino size mtime.ns" as stat(2) gave it
 * when the batch read it, "-" for a file the batch creates: a committed
 * batch is only completed over files still in that state. A line is
 * written whole before the file it names is created, so a line cut short
 * by a kill names nothing.
 *
 * The journal lies in the tree, so it may come from anyone (committed with
 * the sources, crafted): before recovery renames or removes anything, every
 * path it names is checked to lie in the lock's tree (its top: the root, or
 * the project root a wire or instrument locks the operator directory for),
 * through the symbolic links of its directories, and every temporary file to
 * be named as this tool names them (TARGET.at-XXXXXX); one that does not is
 * refused, located at its line, and nothing is touched. The state directory,
 * the lock and the journal are never followed through a symbolic link. */
#include "edit_journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic_path.h"
#include "path_glob.h"
#include "src_file.h"
#include "sync_files.h"
#include "tmp_cleanup.h"
#include "xalloc.h"

#define JOURNAL_HEAD "autotrace-journal 1"

struct edit_lock {
	char *root, *dir, *lock_path, *journal_path;
	char *real_root;              /* realpath of root, for edit_lock_covering */
	char *top, *real_top;         /* the tree the lock's batches may change (as given, realpath) */
	char *command;
	char *completed;              /* the command of a batch recovery completed, or NULL */
	dev_t dev;
	ino_t ino;                    /* of ROOT/.autotrace: the same tree by any path */
	int fd;
	unsigned holds;
	unsigned batches;             /* journals begun under this lock */
	int cleanup[3];               /* tmp_cleanup of the directory, its .gitignore, the lock */
	struct edit_lock *next;
};

static struct edit_lock *held;

struct edit_journal {
	struct edit_lock *lock;
	unsigned flags;
	int fd;                       /* -1 until the first temporary file */
	int fd_cleanup;               /* tmp_cleanup handle of the journal */
	char **tmps;
	int *cleanup;
	size_t n, cap;
	bool failed;
};

/* ---- paths ---- */

/* `path` made absolute and canonical in its directory part (the file itself
 * may not exist yet): the journal must name it whatever the working
 * directory of the run that reads it. */
static char *absolute_path(const char *path)
{
	/* the last directory resolved: a batch writes many files of a few (the
	 * tree is locked, its directories stay where they are meanwhile) */
	static char *last_dir, *last_real;
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	char *out;

	if (!last_dir || strcmp(dir, last_dir) != 0 || dir[0] != '/') {
		free(last_dir);
		free(last_real);
		last_dir = xstrdup(dir);
		last_real = realpath(dir, NULL);
	}
	out = last_real ? path_join(last_real, slash ? slash + 1 : path) : xstrdup(path);
	free(dir);
	return out;
}

static void put_escaped(char **buf, size_t *n, size_t *cap, const char *s)
{
	for (; *s; s++) {
		const char *e = NULL;
		if (*s == '\\')
			e = "\\\\";
		else if (*s == '\t')
			e = "\\t";
		else if (*s == '\n')
			e = "\\n";
		XGROW(*buf, *cap, *n + 3);
		if (e) {
			(*buf)[(*n)++] = e[0];
			(*buf)[(*n)++] = e[1];
		} else {
			(*buf)[(*n)++] = *s;
		}
	}
}

/* The field [s, e) unescaped (newly allocated). */
static char *unescape_field(const char *s, const char *e)
{
	char *out = xmalloc((size_t)(e - s) + 1), *w = out;

	while (s < e) {
		if (*s == '\\' && s + 1 < e) {
			*w++ = s[1] == 't' ? '\t' : s[1] == 'n' ? '\n' : s[1];
			s += 2;
		} else {
			*w++ = *s++;
		}
	}
	*w = '\0';
	return out;
}

static void identity_text(char *out, size_t cap, const struct stat *st)
{
	if (!st)
		snprintf(out, cap, "-");
	else
		snprintf(out, cap, "%" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64 ".%09ld", (uint64_t)st->st_dev,
			 (uint64_t)st->st_ino, (int64_t)st->st_size, (int64_t)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
}

/* ---- the lock ---- */

/* "pid<TAB>command" of the holder, for the message; "" when unreadable. */
static void holder_of(const char *lock_path, char *pid, size_t npid, char *cmd, size_t ncmd)
{
	struct src_file *f = src_file_load(lock_path);
	const char *tab;

	pid[0] = cmd[0] = '\0';
	if (!f)
		return;
	tab = memchr(f->data, '\t', f->len);
	if (tab) {
		const char *nl = memchr(tab, '\n', f->len - (size_t)(tab - f->data));
		snprintf(pid, npid, "%.*s", (int)(tab - f->data), f->data);
		snprintf(cmd, ncmd, "%.*s", nl ? (int)(nl - tab - 1) : (int)(f->len - (size_t)(tab - f->data) - 1), tab + 1);
	}
	src_file_free(f);
}

/* DIR/.gitignore holding "*", unless there is one: the lock, the journals
 * and wire's undo files stay out of git. True when it was written here. */
static bool write_gitignore(const char *dir)
{
	char *gi = path_join(dir, ".gitignore");
	int fd = open(gi, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	bool made = fd >= 0;

	if (fd >= 0) {
		if (atomic_write_fd(fd, "*\n", 2) != 0) {
			unlink(gi);
			made = false;
		}
		close(fd);
	}
	free(gi);
	return made;
}

/* ROOT/.autotrace, and what a signal must remove of it: the directory and
 * its .gitignore when this run made them (cleanup[0], [1]; else -1). */
static int make_state_dir(const char *dir, int *cleanup, struct diag *diag)
{
	bool made = mkdir(dir, 0777) == 0;
	struct stat st;

	cleanup[0] = cleanup[1] = -1;
	if (!made && errno != EEXIST) {
		diag_pos(diag, DIAG_ERROR, dir, 0, 0, "cannot create the lock directory: %s", strerror(errno));
		return -1;
	}
	if (!made && (lstat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
		/* a link would put the lock, the journal and the undo records elsewhere */
		diag_pos(diag, DIAG_ERROR, dir, 0, 0,
			 "%s, not autotrace's state directory: refused (it is a directory of the tree; remove it)",
			 S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
		return -1;
	}
	if (made)
		cleanup[0] = tmp_cleanup_add_dir(dir);
	if (write_gitignore(dir) && made) {
		char *gi = path_join(dir, ".gitignore");
		cleanup[1] = tmp_cleanup_add(gi);
		free(gi);
	}
	return 0;
}

/* Removes DIR when nothing but its .gitignore is left in it. */
static void remove_state_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool only = d != NULL;
	char *gi;

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 && strcmp(de->d_name, ".gitignore") != 0)
			only = false;
	if (d)
		closedir(d);
	if (!only)
		return;
	gi = path_join(dir, ".gitignore");
	unlink(gi);
	if (rmdir(dir) != 0)
		write_gitignore(dir); /* something appeared meanwhile */
	free(gi);
}

static void lock_free(struct edit_lock *l)
{
	for (int i = 0; i < 3; i++)
		tmp_cleanup_forget(l->cleanup[i]);
	free(l->root);
	free(l->real_root);
	free(l->top);
	free(l->real_top);
	free(l->command);
	free(l->completed);
	free(l->dir);
	free(l->lock_path);
	free(l->journal_path);
	free(l);
}

static int recover(struct edit_lock *l, struct diag *diag);

static bool within(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return strcmp(dir, "/") == 0 || (strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0'));
}

struct edit_lock *edit_lock_acquire(const char *root, const char *command, struct diag *diag)
{
	return edit_lock_acquire_within(root, NULL, command, diag);
}

struct edit_lock *edit_lock_acquire_within(const char *root, const char *top, const char *command, struct diag *diag)
{
	char *dir = path_join(root, EDIT_STATE_DIR), *real_root, *real_top;
	struct edit_lock *l;
	struct stat st, fst;
	char line[320];
	int fd = -1, cleanup[3] = { -1, -1, -1 };

	errno = 0;
	if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_pos(diag, DIAG_ERROR, root, 0, 0, "cannot lock: %s", errno ? strerror(errno) : "not a directory");
		free(dir);
		return NULL;
	}
	real_root = realpath(root, NULL);
	real_top = realpath(top ? top : root, NULL);
	if (!real_root || !real_top || !within(real_root, real_top)) {
		diag_pos(diag, DIAG_ERROR, top ? top : root, 0, 0, "cannot lock %s: %s", root,
			 real_root && real_top ? "the tree given for it does not hold it" : strerror(errno));
		free(real_root);
		free(real_top);
		free(dir);
		return NULL;
	}
	for (l = held; l; l = l->next)
		if (stat(dir, &st) == 0 && l->dev == st.st_dev && l->ino == st.st_ino) {
			l->holds++;
			free(real_root);
			free(real_top);
			free(dir);
			return l;
		}
	/* a fatal signal between creating the directory, its .gitignore or the
	 * lock and registering them for removal would leave them: held off */
	tmp_cleanup_hold(true);
	if (make_state_dir(dir, cleanup, diag) != 0 || stat(dir, &st) != 0) {
		for (int i = 0; i < 2; i++)
			tmp_cleanup_forget(cleanup[i]);
		tmp_cleanup_hold(false);
		free(real_root);
		free(real_top);
		free(dir);
		return NULL;
	}
	l = xcalloc(1, sizeof(*l));
	memcpy(l->cleanup, cleanup, sizeof(cleanup));
	l->root = xstrdup(root);
	l->real_root = real_root;
	l->top = xstrdup(top ? top : root);
	l->real_top = real_top;
	l->command = xstrdup(command);
	l->dir = dir;
	l->lock_path = path_join(dir, "lock");
	l->journal_path = path_join(dir, "journal");
	l->dev = st.st_dev;
	l->ino = st.st_ino;
	for (;;) {
		/* ours to remove on a signal only when this run created it */
		fd = open(l->lock_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd >= 0 && l->cleanup[2] < 0)
			l->cleanup[2] = tmp_cleanup_add(l->lock_path);
		else if (fd < 0 && errno == EEXIST)
			fd = open(l->lock_path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0666);
		if (fd >= 0 && (fstat(fd, &fst) != 0 || !S_ISREG(fst.st_mode))) {
			close(fd);
			fd = -1;
			errno = EINVAL; /* a FIFO or device planted in the tree */
		}
		if (fd < 0) {
			diag_pos(diag, DIAG_ERROR, l->lock_path, 0, 0, "cannot create the lock: %s", strerror(errno));
			goto fail;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			char pid[32], cmd[64];
			int e = errno;
			close(fd);
			fd = -1;
			if (e != EWOULDBLOCK) {
				diag_pos(diag, DIAG_ERROR, l->lock_path, 0, 0, "cannot lock: %s", strerror(e));
				goto fail;
			}
			holder_of(l->lock_path, pid, sizeof(pid), cmd, sizeof(cmd));
			if (pid[0])
				diag_pos(diag, DIAG_ERROR, root, 0, 0,
					 "`autotrace %s` (pid %s) is changing this tree: refused, so that neither run loses "
					 "the other's edits (lock %s); run again when it is done",
					 cmd, pid, l->lock_path);
			else
				diag_pos(diag, DIAG_ERROR, root, 0, 0,
					 "another autotrace is changing this tree: refused, so that neither run loses the "
					 "other's edits (lock %s); run again when it is done",
					 l->lock_path);
			goto fail;
		}
		/* the holder before us may have removed the file while we waited for
		 * it: a lock on a file no longer linked protects nothing */
		if (fstat(fd, &fst) == 0 && stat(l->lock_path, &st) == 0 && fst.st_ino == st.st_ino &&
		    fst.st_dev == st.st_dev)
			break;
		close(fd);
	}
	if (l->cleanup[2] < 0)
		l->cleanup[2] = tmp_cleanup_add(l->lock_path); /* ours now: released, it is unlinked */
	tmp_cleanup_hold(false);
	snprintf(line, sizeof(line), "%ld\t%s\n", (long)getpid(), command);
	if (ftruncate(fd, 0) != 0 || atomic_write_fd(fd, line, strlen(line)) != 0) {
		diag_pos(diag, DIAG_ERROR, l->lock_path, 0, 0, "cannot write the lock: %s", strerror(errno));
		goto fail;
	}
	l->fd = fd;
	l->holds = 1;
	l->next = held;
	held = l;
	if (recover(l, diag) != 0) {
		edit_lock_release(l);
		return NULL;
	}
	return l;
fail:
	if (fd >= 0)
		close(fd);
	tmp_cleanup_forget(l->cleanup[2]);
	l->cleanup[2] = -1;
	tmp_cleanup_hold(false);
	lock_free(l);
	return NULL;
}

const char *edit_lock_dir(const struct edit_lock *l)
{
	return l->dir;
}

const char *edit_lock_top(const struct edit_lock *l)
{
	return l->top;
}

bool edit_lock_holds(const struct edit_lock *l, const char *target)
{
	char *abs = absolute_path(target);
	bool yes = abs[0] != '/' || within(abs, l->real_top);

	free(abs);
	return yes;
}

struct edit_lock *edit_lock_covering(const char *path)
{
	char *abs;
	struct edit_lock *found = NULL;

	if (!held)
		return NULL;
	abs = absolute_path(path);
	for (struct edit_lock *l = held; l && !found; l = l->next) {
		size_t n = l->real_root ? strlen(l->real_root) : 0;
		if (n && strncmp(abs, l->real_root, n) == 0 && (abs[n] == '/' || abs[n] == '\0' || n == 1))
			found = l;
	}
	free(abs);
	return found;
}

const char *edit_lock_completed(const struct edit_lock *l)
{
	return l->completed;
}

void edit_lock_release(struct edit_lock *l)
{
	struct edit_lock **p;

	if (!l || --l->holds > 0)
		return;
	for (p = &held; *p; p = &(*p)->next)
		if (*p == l) {
			*p = l->next;
			break;
		}
	/* unlinked while still locked: a run waiting for it sees the file gone
	 * and takes a new one (see the fstat check in edit_lock_acquire) */
	unlink(l->lock_path);
	close(l->fd);
	remove_state_dir(l->dir);
	lock_free(l);
}

/* ---- writing a journal ---- */

struct edit_journal *edit_journal_begin(struct edit_lock *l, unsigned flags)
{
	struct edit_journal *j = xcalloc(1, sizeof(*j));

	j->lock = l;
	j->flags = flags;
	j->fd = -1;
	j->fd_cleanup = -1;
	return j;
}

static int journal_line(struct edit_journal *j, const char *text, size_t len)
{
	if (atomic_write_fd(j->fd, text, len) != 0) {
		j->failed = true;
		return -1;
	}
	return 0;
}

static int journal_open(struct edit_journal *j)
{
	char head[160];
	int n;

	if (j->fd >= 0)
		return 0;
	/* registered before it exists: a signal in between finds nothing to remove */
	j->fd_cleanup = tmp_cleanup_add(j->lock->journal_path);
	j->fd = open(j->lock->journal_path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		     0666);
	if (j->fd < 0)
		return -1;
	n = snprintf(head, sizeof(head), "%s\ncommand\t%s\npid\t%ld\nbatch\t%u\n", JOURNAL_HEAD, j->lock->command,
		     (long)getpid(), ++j->lock->batches);
	return journal_line(j, head, (size_t)n);
}

/* Six random letters: one getrandom(2) per process seeds a splitmix64. The
 * names need not be secret (the file is created with O_EXCL, in a tree the
 * lock guards), only unlikely to meet an existing one. */
static void random_suffix(char *out)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static uint64_t state;
	static bool seeded;
	uint64_t z;

	if (!seeded) {
		if (getrandom(&state, sizeof(state), 0) != (ssize_t)sizeof(state))
			state = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
		seeded = true;
	}
	z = (state += 0x9E3779B97F4A7C15ull);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	z ^= z >> 31;
	for (int i = 0; i < 6; i++, z >>= 8)
		out[i] = chars[(z & 0xFF) % (sizeof(chars) - 1)];
	out[6] = '\0';
}

int edit_journal_temp(struct edit_journal *j, const char *target, const struct stat *st, char **tmp_out)
{
	char *abs_target = absolute_path(target), ident[96];
	size_t tl = strlen(abs_target);

	if (journal_open(j) != 0) {
		free(abs_target);
		return -1;
	}
	identity_text(ident, sizeof(ident), st);
	for (int attempt = 0; attempt < 100; attempt++) {
		char *tmp = xmalloc(tl + 16), *line = NULL;
		size_t n = 0, cap = 0;
		int fd, e;
		memcpy(tmp, abs_target, tl);
		memcpy(tmp + tl, ".at-", 4);
		random_suffix(tmp + tl + 4);
		XGROW(line, cap, 8);
		line[n++] = 'T';
		line[n++] = '\t';
		put_escaped(&line, &n, &cap, tmp);
		XGROW(line, cap, n + 1);
		line[n++] = '\t';
		put_escaped(&line, &n, &cap, abs_target);
		XGROW(line, cap, n + strlen(ident) + 3);
		line[n++] = '\t';
		memcpy(line + n, ident, strlen(ident));
		n += strlen(ident);
		line[n++] = '\n';
		if (journal_line(j, line, n) != 0) {
			free(line);
			free(tmp);
			free(abs_target);
			return -1;
		}
		free(line);
		/* registered before it exists, as it is named in the journal before */
		XGROW(j->tmps, j->cap, j->n + 1);
		j->cleanup = xrealloc(j->cleanup, j->cap * sizeof(*j->cleanup));
		j->cleanup[j->n] = tmp_cleanup_add(tmp);
		fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0) {
			j->tmps[j->n] = tmp;
			j->n++;
			*tmp_out = xstrdup(tmp);
			free(abs_target);
			return fd;
		}
		e = errno;
		tmp_cleanup_forget(j->cleanup[j->n]);
		if (e == EEXIST) {
			/* someone else's file of that name: say so before anything else */
			char *x = NULL;
			size_t xn = 0, xcap = 0;
			XGROW(x, xcap, 4);
			x[xn++] = 'X';
			x[xn++] = '\t';
			put_escaped(&x, &xn, &xcap, tmp);
			XGROW(x, xcap, xn + 1);
			x[xn++] = '\n';
			e = journal_line(j, x, xn) == 0 ? EEXIST : errno;
			free(x);
			free(tmp);
			if (e == EEXIST)
				continue;
		} else {
			free(tmp);
		}
		free(abs_target);
		errno = e;
		return -1;
	}
	free(abs_target);
	errno = EEXIST;
	return -1;
}

int edit_journal_remove(struct edit_journal *j, const char *target, const struct stat *st)
{
	char *abs = absolute_path(target), ident[96], *line = NULL;
	size_t n = 0, cap = 0;
	int rc;

	if (journal_open(j) != 0) {
		free(abs);
		return -1;
	}
	identity_text(ident, sizeof(ident), st);
	XGROW(line, cap, 4);
	line[n++] = 'R';
	line[n++] = '\t';
	put_escaped(&line, &n, &cap, abs);
	XGROW(line, cap, n + strlen(ident) + 3);
	line[n++] = '\t';
	memcpy(line + n, ident, strlen(ident));
	n += strlen(ident);
	line[n++] = '\n';
	rc = journal_line(j, line, n);
	free(line);
	free(abs);
	return rc;
}

int edit_journal_commit(struct edit_journal *j)
{
	if (j->fd < 0)
		return 0; /* nothing was written */
	if (j->failed) {
		errno = EIO;
		return -1;
	}
	if (!(j->flags & EDIT_JOURNAL_NO_SYNC) &&
	    (sync_files((const char *const *)j->tmps, j->n) != 0 || fsync(j->fd) != 0))
		return -1;
	if (journal_line(j, "C\n", 2) != 0)
		return -1;
	if (!(j->flags & EDIT_JOURNAL_NO_SYNC) && fsync(j->fd) != 0)
		return -1;
	return 0;
}

static void sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void journal_free(struct edit_journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		tmp_cleanup_forget(j->cleanup[i]);
		free(j->tmps[i]);
	}
	free(j->tmps);
	free(j->cleanup);
	if (j->fd >= 0)
		close(j->fd);
	tmp_cleanup_forget(j->fd_cleanup);
	free(j);
}

void edit_journal_end(struct edit_journal *j, const char *const *targets, size_t n)
{
	if (!j)
		return;
	if (!(j->flags & EDIT_JOURNAL_NO_SYNC) && n) {
		/* the renames are durable once their directories are */
		char **dirs = xcalloc(n, sizeof(*dirs));
		for (size_t i = 0; i < n; i++) {
			const char *slash = strrchr(targets[i], '/');
			dirs[i] = slash ? xstrndup(targets[i], (size_t)(slash - targets[i]) + 1) : xstrdup("./");
		}
		size_t k = 0;
		xqsort(dirs, n, sizeof(*dirs), cmp_str);
		for (size_t i = 0; i < n; i++) {
			if (k && strcmp(dirs[i], dirs[k - 1]) == 0)
				free(dirs[i]);
			else
				dirs[k++] = dirs[i];
		}
		sync_files((const char *const *)dirs, k);
		for (size_t i = 0; i < k; i++)
			free(dirs[i]);
		free(dirs);
	}
	if (j->fd >= 0)
		unlink(j->lock->journal_path);
	journal_free(j);
}

void edit_journal_keep(struct edit_journal *j)
{
	if (j)
		journal_free(j);
}

void edit_journal_abort(struct edit_journal *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++)
		unlink(j->tmps[i]);
	if (j->fd >= 0)
		unlink(j->lock->journal_path);
	journal_free(j);
}

/* ---- recovery ---- */

struct entry {
	char *tmp, *target, *ident;   /* tmp NULL: a file the batch removes */
	bool theirs;                  /* an X line names it */
	size_t line;                  /* of the journal */
};

/* True when `tmp` is a name edit_journal_temp gives a temporary file of
 * `target`: TARGET.at-XXXXXX, six letters or digits. */
static bool temp_name_of(const char *tmp, const char *target)
{
	size_t n = strlen(target);

	if (strncmp(tmp, target, n) != 0 || strncmp(tmp + n, ".at-", 4) != 0 || strlen(tmp + n + 4) != 6)
		return false;
	for (const char *c = tmp + n + 4; *c; c++)
		if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9')))
			return false;
	return true;
}

/* Why recovery must not touch `path` (NULL: it may): a relative path, a
 * last component that is no name, or a directory that leads outside the
 * lock's tree (its links followed). A directory that is not there holds
 * nothing to rename or remove. */
static const char *outside_tree(const struct edit_lock *l, const char *path)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char *dir, *real;
	const char *why = NULL;

	if (path[0] != '/')
		return "not an absolute path";
	if (!base[0] || strcmp(base, ".") == 0 || strcmp(base, "..") == 0)
		return "not the path of a file";
	dir = xstrndup(path, slash == path ? 1 : (size_t)(slash - path));
	real = realpath(dir, NULL);
	if (real && !within(real, l->real_top))
		why = "outside the tree";
	else if (!real && errno != ENOENT && errno != ENOTDIR)
		why = "a directory that cannot be resolved";
	free(real);
	free(dir);
	return why;
}

/* Every entry checked before any is acted on: 0, or -1 after reporting
 * the first one that names something recovery must not touch. */
static int check_entries(const struct edit_lock *l, const struct entry *e, size_t n, const char *cmd, const char *pid,
			 struct diag *diag)
{
	for (size_t i = 0; i < n; i++) {
		const char *bad = e[i].target, *why = outside_tree(l, e[i].target);
		if (!why && e[i].tmp && !temp_name_of(e[i].tmp, e[i].target)) {
			bad = e[i].tmp;
			why = "not a temporary file of autotrace (TARGET.at-XXXXXX)";
		}
		if (!why)
			continue;
		diag_pos(diag, DIAG_ERROR, l->journal_path, e[i].line, 1,
			 "the journal of the interrupted `autotrace %s` (pid %s) names %s: %s (the tree this `autotrace "
			 "%s` may change is %s): refused, nothing renamed or removed; if that run was `autotrace %s` on "
			 "this tree, run it again to complete it, else remove the journal",
			 cmd, pid, bad, why, l->command, l->top, cmd);
		return -1;
	}
	return 0;
}

static int recover(struct edit_lock *l, struct diag *diag)
{
	struct stat jst;
	struct src_file *f = lstat(l->journal_path, &jst) == 0 && !S_ISREG(jst.st_mode) ? NULL : src_file_load(l->journal_path);
	struct entry *e = NULL;
	size_t n = 0, cap = 0, lineno = 0, removed = 0, renamed = 0, kept = 0, done = 0;
	char cmd[64] = "?", pid[32] = "?";
	bool committed = false;
	const char *s, *end;

	if (!f) {
		if (lstat(l->journal_path, &jst) != 0 && errno == ENOENT)
			return 0;
		diag_pos(diag, DIAG_ERROR, l->journal_path, 0, 0, "cannot read the journal of an interrupted run: %s",
			 S_ISREG(jst.st_mode) ? strerror(errno) : "not a regular file (a symbolic link?): remove it");
		return -1;
	}
	s = f->data;
	end = f->data + f->len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *t1, *t2, *t3;
		lineno++;
		if (!nl)
			break; /* cut short by the kill: it names nothing that exists */
		if (lineno == 1) {
			if ((size_t)(nl - s) != strlen(JOURNAL_HEAD) || memcmp(s, JOURNAL_HEAD, (size_t)(nl - s)) != 0) {
				diag_pos(diag, DIAG_ERROR, l->journal_path, 1, 1,
					 "not an autotrace journal (expected \"%s\"): remove it if it is not yours", JOURNAL_HEAD);
				src_file_free(f);
				return -1;
			}
		} else if (nl - s > 8 && memcmp(s, "command\t", 8) == 0) {
			snprintf(cmd, sizeof(cmd), "%.*s", (int)(nl - s - 8), s + 8);
		} else if (nl - s > 4 && memcmp(s, "pid\t", 4) == 0) {
			snprintf(pid, sizeof(pid), "%.*s", (int)(nl - s - 4), s + 4);
		} else if (nl - s > 6 && memcmp(s, "batch\t", 6) == 0) {
			/* informational */
		} else if (nl - s == 1 && *s == 'C') {
			committed = true;
		} else if (nl - s > 2 && s[0] == 'R' && s[1] == '\t' && (t1 = memchr(s + 2, '\t', (size_t)(nl - s - 2)))) {
			XGROW(e, cap, n + 1);
			e[n].tmp = NULL;
			e[n].target = unescape_field(s + 2, t1);
			e[n].ident = xstrndup(t1 + 1, (size_t)(nl - t1 - 1));
			e[n].theirs = false;
			e[n].line = lineno;
			n++;
		} else if (nl - s > 2 && s[0] == 'X' && s[1] == '\t') {
			char *x = unescape_field(s + 2, nl);
			for (size_t i = 0; i < n; i++)
				if (e[i].tmp && strcmp(e[i].tmp, x) == 0)
					e[i].theirs = true;
			free(x);
		} else if (nl - s > 2 && s[0] == 'T' && s[1] == '\t' && (t1 = memchr(s + 2, '\t', (size_t)(nl - s - 2))) &&
			   (t2 = memchr(t1 + 1, '\t', (size_t)(nl - t1 - 1)))) {
			t3 = nl;
			XGROW(e, cap, n + 1);
			e[n].tmp = unescape_field(s + 2, t1);
			e[n].target = unescape_field(t1 + 1, t2);
			e[n].ident = xstrndup(t2 + 1, (size_t)(t3 - t2 - 1));
			e[n].theirs = false;
			e[n].line = lineno;
			n++;
		} else {
			diag_pos(diag, DIAG_ERROR, l->journal_path, lineno, 1,
				 "unreadable line in the journal of an interrupted run: remove the journal to go on "
				 "(the temporary files it names end in .at-XXXXXX)");
			for (size_t i = 0; i < n; i++) {
				free(e[i].tmp);
				free(e[i].target);
				free(e[i].ident);
			}
			free(e);
			src_file_free(f);
			return -1;
		}
		s = nl + 1;
	}
	src_file_free(f);
	if (check_entries(l, e, n, cmd, pid, diag) != 0) {
		for (size_t i = 0; i < n; i++) {
			free(e[i].tmp);
			free(e[i].target);
			free(e[i].ident);
		}
		free(e);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		char ident[96];
		if (e[i].theirs)
			continue;
		if (!e[i].tmp) {
			/* a removal: done by the commit, after the mark only */
			identity_text(ident, sizeof(ident), stat(e[i].target, &st) == 0 ? &st : NULL);
			if (!committed || strcmp(ident, "-") == 0)
				done += committed;
			else if (strcmp(ident, e[i].ident) == 0 && unlink(e[i].target) == 0)
				renamed++;
			else {
				diag_pos(diag, DIAG_WARNING, e[i].target, 0, 0,
					 "changed after the interrupted `autotrace %s` (pid %s): kept, not removed", cmd, pid);
				kept++;
			}
			continue;
		}
		if (lstat(e[i].tmp, &st) != 0) {
			done++; /* renamed before the interruption, or never created */
			continue;
		}
		if (!committed) {
			unlink(e[i].tmp);
			removed++;
			continue;
		}
		identity_text(ident, sizeof(ident), stat(e[i].target, &st) == 0 ? &st : NULL);
		if (strcmp(ident, e[i].ident) != 0) {
			diag_pos(diag, DIAG_WARNING, e[i].target, 0, 0,
				 "changed after the interrupted `autotrace %s` (pid %s): kept as it is, the text that run "
				 "meant for it dropped",
				 cmd, pid);
		} else if (rename(e[i].tmp, e[i].target) != 0) {
			diag_pos(diag, DIAG_WARNING, e[i].target, 0, 0,
				 "cannot replace the file to complete the interrupted `autotrace %s` (pid %s): %s; kept as "
				 "it is",
				 cmd, pid, strerror(errno));
		} else {
			renamed++;
			sync_dir_of(e[i].target);
			continue;
		}
		unlink(e[i].tmp);
		kept++;
	}
	if (!committed)
		diag_pos(diag, DIAG_NOTE, l->journal_path, 0, 0,
			 "`autotrace %s` (pid %s) was interrupted before it replaced any file: removed its %zu temporary "
			 "file%s; every file is as it was before that run",
			 cmd, pid, removed, removed == 1 ? "" : "s");
	else
		diag_pos(diag, DIAG_NOTE, l->journal_path, 0, 0,
			 "`autotrace %s` (pid %s) was interrupted while it replaced files: completed now (%zu file%s "
			 "replaced or removed now, %zu before the interruption%s)",
			 cmd, pid, renamed, renamed == 1 ? "" : "s", done, kept ? ", the others kept as they are" : "");
	if (committed && !kept)
		l->completed = xstrdup(cmd);
	unlink(l->journal_path);
	for (size_t i = 0; i < n; i++) {
		free(e[i].tmp);
		free(e[i].target);
		free(e[i].ident);
	}
	free(e);
	return 0;
}
