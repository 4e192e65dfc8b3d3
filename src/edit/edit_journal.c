/* The tree lock and the batch journal. See edit_journal.h.
 *
 * ROOT/.autotrace/journal, one record per line, fields separated by tabs,
 * paths absolute with '\\', tab and newline escaped:
 *   autotrace-journal 2
 *   command <TAB> apply
 *   pid <TAB> 1234
 *   batch <TAB> 2                              the run's second batch (for messages, tests)
 *   T <TAB> tmp <TAB> target <TAB> identity   a temporary file and what it replaces
 *   I <TAB> file <TAB> identity               a temporary file (or a copied backup) once it is
 *                                              written: its identity, which a rename keeps
 *   B <TAB> backup <TAB> target                the original of target kept under another name
 *                                              (TARGET.at-XXXXXX, a hard link, else a copy)
 *   R <TAB> target <TAB> identity              a file the batch removes
 *   X <TAB> name                               a name taken already: not ours
 *   C                                          the commit mark
 *   A                                          the abort mark: a rename failed, the batch is
 *                                              rolled back
 * The identity of a target is "dev ino size mtime.ns" as stat(2) gave it
 * when the batch read it, "-" for a file the batch creates. A line is
 * written whole before the file it names is created, so a line cut short
 * by a kill names nothing; every temporary file and backup exists before
 * the commit mark. What the records mean to the run that finds them, and
 * why a crafted journal touches nothing outside the tree:
 * journal_settle.h. The state directory, the lock and the journal are
 * never followed through a symbolic link. */
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
#include "journal_settle.h"
#include "lock_overlap.h"
#include "path_glob.h"
#include "path_rel.h"
#include "project_root.h"
#include "src_file.h"
#include "sync_files.h"
#include "tmp_cleanup.h"
#include "xalloc.h"

struct edit_lock {
	char *root, *dir, *lock_path, *journal_path;
	char *real_root;              /* realpath of root, for edit_lock_covering */
	char *top, *real_top;         /* the tree the lock's batches may change (as given, realpath) */
	char *real_lock_root;         /* where the lock is: the project's (edit_journal.h) */
	char *command;
	char *completed;              /* the command of a batch recovery completed, or NULL */
	dev_t dev;
	ino_t ino;                    /* of ROOT/.autotrace: the same tree by any path */
	int fd;
	unsigned holds;
	unsigned batches;             /* journals begun under this lock */
	bool stuck;                   /* a batch could not be rolled back wholly: its journal is kept */
	int cleanup[3];               /* tmp_cleanup of the directory, its .gitignore, the lock */
	struct edit_lock *next;
};

static struct edit_lock *held;

/* A file a batch makes next to a target: removed by an abort (and a fatal
 * signal before the commit), a backup also by the end of the batch. */
struct journal_file {
	char *path;
	int cleanup;                  /* its tmp_cleanup handle */
	enum { FILE_TEMP, FILE_LINK, FILE_COPY } kind;
};

struct edit_journal {
	struct edit_lock *lock;
	unsigned flags;
	int fd;                       /* -1 until the first temporary file */
	int fd_cleanup;               /* tmp_cleanup handle of the journal */
	struct journal_file *v;       /* the temporary files and backups made */
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
	free(l->real_lock_root);
	free(l->command);
	free(l->completed);
	free(l->dir);
	free(l->lock_path);
	free(l->journal_path);
	free(l);
}

struct edit_lock *edit_lock_acquire(const char *root, const char *command, struct diag *diag)
{
	return edit_lock_acquire_within(root, NULL, command, diag);
}

/* The directory the lock of a tree goes in: the project's widest root
 * (project_root_bound: the git top level, or --project) when it holds the
 * tree the batches change, else that tree. */
static char *lock_root_of(const char *real_root, const char *real_top)
{
	char *b = project_root_bound(real_root), *rb = b ? realpath(b, NULL) : NULL;

	free(b);
	if (rb && path_within(real_top, rb))
		return rb;
	free(rb);
	return xstrdup(real_top);
}

/* Refuses the run when another one holds a lock above or below the lock's
 * root (lock_overlap.h): 0, or -1 after reporting. */
static int no_overlap(const struct edit_lock *l, const char *root, struct diag *diag)
{
	size_t n = 0;
	dev_t *dev;
	ino_t *ino;
	char *other;

	for (const struct edit_lock *h = held; h; h = h->next)
		n++;
	dev = xmalloc((n + 1) * sizeof(*dev));
	ino = xmalloc((n + 1) * sizeof(*ino));
	n = 0;
	for (const struct edit_lock *h = held; h; h = h->next) {
		struct stat st;
		if (fstat(h->fd, &st) == 0) {
			dev[n] = st.st_dev;
			ino[n++] = st.st_ino;
		}
	}
	other = lock_overlap_find(l->real_lock_root, dev, ino, n);
	free(dev);
	free(ino);
	if (other) {
		char pid[32], cmd[64];
		holder_of(other, pid, sizeof(pid), cmd, sizeof(cmd));
		diag_pos(diag, DIAG_ERROR, root, 0, 0,
			 "`autotrace %s` (pid %s) is changing a tree that overlaps this one: refused, so that neither "
			 "run loses the other's edits (lock %s); run again when it is done",
			 cmd[0] ? cmd : "?", pid[0] ? pid : "?", other);
		free(other);
		return -1;
	}
	return 0;
}

struct edit_lock *edit_lock_acquire_within(const char *root, const char *top, const char *command, struct diag *diag)
{
	char *dir, *real_root, *real_top, *lock_root;
	struct edit_lock *l;
	struct stat st, fst;
	char line[320];
	int fd = -1, cleanup[3] = { -1, -1, -1 };

	errno = 0;
	if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_pos(diag, DIAG_ERROR, root, 0, 0, "cannot lock: %s", errno ? strerror(errno) : "not a directory");
		return NULL;
	}
	real_root = realpath(root, NULL);
	real_top = realpath(top ? top : root, NULL);
	if (!real_root || !real_top || !path_within(real_root, real_top)) {
		diag_pos(diag, DIAG_ERROR, top ? top : root, 0, 0, "cannot lock %s: %s", root,
			 real_root && real_top ? "the tree given for it does not hold it" : strerror(errno));
		free(real_root);
		free(real_top);
		return NULL;
	}
	/* one lock per project: two operators of one project share files (the
	 * binding, the build script), and a run on a part of a tree changes
	 * what a run on the whole does */
	lock_root = lock_root_of(real_root, real_top);
	{
		/* named in messages as the command was given it, where it can be */
		char *shown = strcmp(lock_root, real_root) == 0   ? xstrdup(root)
			      : strcmp(lock_root, real_top) == 0 ? xstrdup(top)
								  : path_display(lock_root);
		dir = path_join(shown, EDIT_STATE_DIR);
		free(shown);
	}
	for (l = held; l; l = l->next)
		if (stat(dir, &st) == 0 && l->dev == st.st_dev && l->ino == st.st_ino) {
			l->holds++;
			free(real_root);
			free(real_top);
			free(lock_root);
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
		free(lock_root);
		free(dir);
		return NULL;
	}
	l = xcalloc(1, sizeof(*l));
	memcpy(l->cleanup, cleanup, sizeof(cleanup));
	l->root = xstrdup(root);
	l->real_root = real_root;
	l->top = xstrdup(top ? top : root);
	l->real_top = real_top;
	l->real_lock_root = lock_root;
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
	if (no_overlap(l, root, diag) != 0) {
		close(l->fd);
		l->fd = -1;
		unlink(l->lock_path);
		tmp_cleanup_forget(l->cleanup[2]);
		l->cleanup[2] = -1;
		remove_state_dir(l->dir);
		lock_free(l);
		return NULL;
	}
	l->next = held;
	held = l;
	{
		/* what an interrupted run left, settled before anything is read:
		 * the journal of any run under this lock, whose tree lies in the
		 * lock's root */
		const char *shown = strcmp(l->real_lock_root, l->real_top) == 0 ? l->top : l->real_lock_root;
		struct journal_site site = { l->journal_path, l->real_lock_root, shown, l->command };
		if (journal_recover(&site, &l->completed, diag) != 0) {
			edit_lock_release(l);
			return NULL;
		}
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
	bool yes = abs[0] != '/' || path_within(abs, l->real_top);

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

/* A record: `type`, then each of the fields `a`, `b` escaped and `c` as
 * it is (those not NULL), tab-separated, and the newline. Newly allocated,
 * its length in *n. */
static char *record(char type, const char *a, const char *b, const char *c, size_t *n)
{
	char *line = NULL;
	size_t cap = 0;
	const char *f[3] = { a, b, c };

	*n = 0;
	XGROW(line, cap, 2);
	line[(*n)++] = type;
	for (int k = 0; k < 3; k++) {
		if (!f[k])
			continue;
		XGROW(line, cap, *n + 2);
		line[(*n)++] = '\t';
		if (k < 2) {
			put_escaped(&line, n, &cap, f[k]);
		} else {
			XGROW(line, cap, *n + strlen(f[k]) + 1);
			memcpy(line + *n, f[k], strlen(f[k]));
			*n += strlen(f[k]);
		}
	}
	XGROW(line, cap, *n + 1);
	line[(*n)++] = '\n';
	return line;
}

static int put_record(struct edit_journal *j, char type, const char *a, const char *b, const char *c)
{
	size_t n;
	char *line = record(type, a, b, c, &n);
	int rc = journal_line(j, line, n);

	free(line);
	return rc;
}

/* The I record of the file open at `fd` (named `name`), written whole. */
static int put_identity(struct edit_journal *j, const char *name, int fd)
{
	struct stat st;
	char id[96];

	if (fstat(fd, &st) != 0)
		return -1;
	journal_identity(id, sizeof(id), &st);
	return put_record(j, 'I', name, NULL, id);
}

/* `from` copied to the new file `to` (created with O_EXCL, given the mode
 * of `from`): the backup where a file system has no hard links. The open
 * descriptor of `to`, or -1 with errno set (`to` removed again). */
static int copy_file(const char *from, const char *to)
{
	/* a backup is never refused for its size: the bound is on what is parsed */
	struct src_file *f = src_file_load_max(from, SRC_FILE_MAX_LIMIT);
	struct stat st;
	int fd = -1, e;

	if (!f || stat(from, &st) != 0)
		goto out;
	fd = open(to, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 && (atomic_write_fd(fd, f->data, f->len) != 0 || fchmod(fd, st.st_mode & 07777) != 0)) {
		e = errno;
		close(fd);
		unlink(to);
		errno = e;
		fd = -1;
	}
out:
	e = errno;
	src_file_free(f);
	errno = e;
	return fd;
}

enum made { MADE_TEMP, MADE_BACKUP };

/* A new file next to `target` (absolute), TARGET.at-XXXXXX, named in the
 * journal before it exists and registered for removal by a fatal signal
 * (*cleanup): a temporary file (its T record holds `ident`; *fd the open
 * descriptor, mode 0600) or the backup of the original (its B record; a
 * hard link to it, else a copy: *fd the copy's descriptor, else -1). A name
 * taken already is said (an X record) and another one tried. The name
 * (newly allocated), or NULL with errno set. */
static char *make_named(struct edit_journal *j, const char *target, const char *ident, enum made kind, int *fd,
			int *cleanup)
{
	size_t tl = strlen(target);

	*fd = -1;
	for (int attempt = 0; attempt < 100; attempt++) {
		char *name = xmalloc(tl + 16);
		int h, e;
		bool made;
		memcpy(name, target, tl);
		memcpy(name + tl, ".at-", 4);
		random_suffix(name + tl + 4);
		if (kind == MADE_BACKUP && j->n && strcmp(name, j->v[j->n - 1].path) == 0) {
			free(name); /* the temporary file of the same target, made just before */
			continue;
		}
		if ((kind == MADE_TEMP ? put_record(j, 'T', name, target, ident) : put_record(j, 'B', name, target, NULL)) != 0) {
			free(name);
			return NULL;
		}
		/* registered before it exists, as it is named in the journal before */
		h = tmp_cleanup_add(name);
		if (kind == MADE_TEMP) {
			*fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
			made = *fd >= 0;
		} else {
			made = link(target, name) == 0;
			if (!made && errno != EEXIST)
				made = (*fd = copy_file(target, name)) >= 0; /* no hard links here */
		}
		if (made) {
			*cleanup = h;
			return name;
		}
		e = errno;
		tmp_cleanup_forget(h);
		/* someone else's file of that name: say so before anything else */
		if (e == EEXIST && put_record(j, 'X', name, NULL, NULL) == 0) {
			free(name);
			continue;
		}
		if (e == EEXIST)
			e = errno;
		free(name);
		errno = e;
		return NULL;
	}
	errno = EEXIST;
	return NULL;
}

static void file_add(struct edit_journal *j, char *path, int cleanup, int kind)
{
	XGROW(j->v, j->cap, j->n + 1);
	j->v[j->n].path = path;
	j->v[j->n].cleanup = cleanup;
	j->v[j->n++].kind = kind;
}

int edit_journal_temp(struct edit_journal *j, const char *target, const struct stat *st, char **tmp_out)
{
	char *abs_target = absolute_path(target), ident[96], *tmp;
	int fd = -1, h;

	if (journal_open(j) != 0) {
		free(abs_target);
		return -1;
	}
	journal_identity(ident, sizeof(ident), st);
	tmp = make_named(j, abs_target, ident, MADE_TEMP, &fd, &h);
	free(abs_target);
	if (!tmp)
		return -1;
	file_add(j, tmp, h, FILE_TEMP);
	*tmp_out = xstrdup(tmp);
	return fd;
}

int edit_journal_written(struct edit_journal *j, const char *tmp, int fd)
{
	return put_identity(j, tmp, fd);
}

int edit_journal_backup(struct edit_journal *j, const char *target)
{
	char *abs_target = absolute_path(target), *bak;
	int fd, h, rc = 0;

	if (journal_open(j) != 0) {
		free(abs_target);
		return -1;
	}
	bak = make_named(j, abs_target, NULL, MADE_BACKUP, &fd, &h);
	free(abs_target);
	if (!bak)
		return -1;
	file_add(j, bak, h, fd >= 0 ? FILE_COPY : FILE_LINK);
	if (fd >= 0) {
		/* a copy is another inode: recorded, so that a rollback knows it in place */
		rc = put_identity(j, bak, fd);
		if (close(fd) != 0)
			rc = -1;
	}
	return rc;
}

int edit_journal_remove(struct edit_journal *j, const char *target, const struct stat *st)
{
	char *abs = absolute_path(target), ident[96];
	int rc;

	if (journal_open(j) != 0) {
		free(abs);
		return -1;
	}
	journal_identity(ident, sizeof(ident), st);
	rc = put_record(j, 'R', abs, NULL, ident);
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
	if (!(j->flags & EDIT_JOURNAL_NO_SYNC)) {
		/* the new texts and the copied originals durable, then the journal */
		const char **sync = xcalloc(j->n + 1, sizeof(*sync));
		size_t k = 0;
		int rc;
		for (size_t i = 0; i < j->n; i++)
			if (j->v[i].kind != FILE_LINK)
				sync[k++] = j->v[i].path;
		rc = sync_files(sync, k);
		free(sync);
		if (rc != 0 || fsync(j->fd) != 0)
			return -1;
	}
	if (journal_line(j, "C\n", 2) != 0)
		return -1;
	if (!(j->flags & EDIT_JOURNAL_NO_SYNC) && fsync(j->fd) != 0)
		return -1;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void journal_free(struct edit_journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		tmp_cleanup_forget(j->v[i].cleanup);
		free(j->v[i].path);
	}
	free(j->v);
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
	/* the originals are no longer needed: a kill before the journal is
	 * gone completes the batch, which needs none of them */
	for (size_t i = 0; i < j->n; i++)
		if (j->v[i].kind != FILE_TEMP)
			unlink(j->v[i].path);
	if (j->fd >= 0)
		unlink(j->lock->journal_path);
	journal_free(j);
}

int edit_journal_roll_back(struct edit_journal *j, size_t *put_back, struct diag *diag)
{
	struct journal_site site = { j->lock->journal_path, NULL, j->lock->top, j->lock->command };
	int rc;

	/* the abort mark first: from here on a kill leaves a batch the next run
	 * rolls back (the mark written or not, every file is whole; without it
	 * that run completes the batch instead, or rolls it back when it cannot) */
	if (journal_line(j, "A\n", 2) != 0 || (!(j->flags & EDIT_JOURNAL_NO_SYNC) && fsync(j->fd) != 0))
		diag_pos(diag, DIAG_WARNING, j->lock->journal_path, 0, 0, "cannot write the abort mark: %s", strerror(errno));
	rc = journal_roll_back(&site, put_back, diag);
	if (rc != 0)
		j->lock->stuck = true; /* the journal is kept: no other batch may take its place */
	journal_free(j);
	return rc;
}

bool edit_lock_stuck(const struct edit_lock *l)
{
	return l && l->stuck;
}

void edit_journal_abort(struct edit_journal *j)
{
	if (!j)
		return;
	for (size_t i = 0; i < j->n; i++)
		unlink(j->v[i].path);
	if (j->fd >= 0)
		unlink(j->lock->journal_path);
	journal_free(j);
}
