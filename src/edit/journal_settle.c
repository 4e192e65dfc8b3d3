/* Settling a batch journal: read back, checked, rolled forward or back.
 * See journal_settle.h for the rules, edit_journal.c for the records.
 *
 * The journal lies in the tree, so it may come from anyone (committed with
 * the sources, crafted): before recovery renames or removes anything, every
 * path it names is checked to lie in the lock's tree (its top: the root, or
 * the project root a wire or instrument locks the operator directory for),
 * through the symbolic links of its directories, and every temporary file or
 * backup to be named as this tool names them (TARGET.at-XXXXXX); one that
 * does not is refused, located at its line, and nothing is touched. Whether
 * a file was replaced is told by identities, never by the journal's word
 * alone: a target is the batch's new text when it has the identity of the
 * temporary file (the I record: device, inode, size, modification time,
 * which a rename keeps), the original when it has the identity the batch
 * read (or a copied backup's). */
#include "journal_settle.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_path.h"
#include "path_rel.h"
#include "src_file.h"
#include "tmp_cleanup.h"
#include "xalloc.h"

#define JOURNAL_HEAD_V1 "autotrace-journal 1"

void journal_identity(char *out, size_t cap, const struct stat *st)
{
	if (!st)
		snprintf(out, cap, "-");
	else
		snprintf(out, cap, "%" PRIu64 " %" PRIu64 " %" PRId64 " %" PRId64 ".%09ld", (uint64_t)st->st_dev,
			 (uint64_t)st->st_ino, (int64_t)st->st_size, (int64_t)st->st_mtim.tv_sec, (long)st->st_mtim.tv_nsec);
}

struct entry {
	char *tmp, *target, *ident;   /* tmp NULL: a file the batch removes */
	char *bak;                    /* the original kept as TARGET.at-XXXXXX (a link, or a copy), or NULL */
	char tmp_id[96], bak_id[96];  /* the identity of the temporary file, of a copied backup; "" not recorded */
	bool theirs;                  /* an X line names its temporary file */
	bool stuck;                   /* its original could not be put back: the backup is kept */
	size_t line, bak_line;        /* of the journal */
};

struct journal {
	struct entry *e;
	size_t n, cap;
	bool committed, aborted;
	char cmd[64], pid[32];
};

static void journal_release(struct journal *j)
{
	for (size_t i = 0; i < j->n; i++) {
		free(j->e[i].tmp);
		free(j->e[i].target);
		free(j->e[i].ident);
		free(j->e[i].bak);
	}
	free(j->e);
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

/* The tab-separated fields of the line [s, nl) after its type letter: 0
 * when there are not `n` of them. */
static size_t fields(const char *s, const char *nl, const char **at, size_t n)
{
	size_t k = 0;

	if (nl - s < 2 || s[1] != '\t')
		return 0;
	for (const char *p = s + 1; p < nl && k < n; p++)
		if (*p == '\t')
			at[k++] = p + 1;
	return k == n ? k : 0;
}

static struct entry *entry_add(struct journal *j, size_t line)
{
	struct entry *e;

	XGROW(j->e, j->cap, j->n + 1);
	e = &j->e[j->n++];
	memset(e, 0, sizeof(*e));
	e->line = line;
	return e;
}

/* The last entry of `target` that is the batch's own, or NULL. */
static struct entry *entry_of(struct journal *j, const char *target)
{
	for (size_t i = j->n; i-- > 0;)
		if (!j->e[i].theirs && strcmp(j->e[i].target, target) == 0)
			return &j->e[i];
	return NULL;
}

static void set_id(char *out, const char *s, const char *e)
{
	snprintf(out, 96, "%.*s", (int)(e - s < 95 ? e - s : 95), s);
}

/* One line [s, nl): 0, or -1 when it is no record. */
static int parse_line(struct journal *j, const char *s, const char *nl, size_t lineno)
{
	const char *f[3];
	size_t len = (size_t)(nl - s);

	if (len > 8 && memcmp(s, "command\t", 8) == 0) {
		snprintf(j->cmd, sizeof(j->cmd), "%.*s", (int)(len - 8), s + 8);
	} else if (len > 4 && memcmp(s, "pid\t", 4) == 0) {
		snprintf(j->pid, sizeof(j->pid), "%.*s", (int)(len - 4), s + 4);
	} else if (len > 6 && memcmp(s, "batch\t", 6) == 0) {
		/* informational */
	} else if (len == 1 && (*s == 'C' || *s == 'A')) {
		if (*s == 'C')
			j->committed = true;
		else
			j->aborted = true;
	} else if (*s == 'T' && fields(s, nl, f, 3)) {
		struct entry *e = entry_add(j, lineno);
		e->tmp = unescape_field(f[0], f[1] - 1);
		e->target = unescape_field(f[1], f[2] - 1);
		e->ident = xstrndup(f[2], (size_t)(nl - f[2]));
	} else if (*s == 'R' && fields(s, nl, f, 2)) {
		struct entry *e = entry_add(j, lineno);
		e->target = unescape_field(f[0], f[1] - 1);
		e->ident = xstrndup(f[1], (size_t)(nl - f[1]));
	} else if (*s == 'B' && fields(s, nl, f, 2)) {
		char *target = unescape_field(f[1], nl);
		struct entry *e = entry_of(j, target);
		free(target);
		if (!e)
			return -1; /* a backup of no file of the batch */
		free(e->bak);
		e->bak = unescape_field(f[0], f[1] - 1);
		e->bak_id[0] = '\0';
		e->bak_line = lineno;
	} else if ((*s == 'I' || *s == 'X') && fields(s, nl, f, *s == 'I' ? 2 : 1)) {
		char *name = unescape_field(f[0], *s == 'I' ? f[1] - 1 : nl);
		for (size_t i = 0; i < j->n; i++) {
			struct entry *e = &j->e[i];
			if (e->tmp && strcmp(e->tmp, name) == 0) {
				if (*s == 'X')
					e->theirs = true;
				else
					set_id(e->tmp_id, f[1], nl);
			} else if (e->bak && strcmp(e->bak, name) == 0) {
				if (*s == 'I') {
					set_id(e->bak_id, f[1], nl);
				} else {
					free(e->bak); /* someone else's file: a B line with another name follows */
					e->bak = NULL;
				}
			}
		}
		free(name);
	} else {
		return -1;
	}
	return 0;
}

/* Reads the journal at `path`: 1 when there is none, 0, or -1 after
 * reporting. A last line without its newline was cut short by a kill: it
 * names nothing that exists. */
static int journal_read(const char *path, struct journal *j, struct diag *diag)
{
	struct stat st;
	struct src_file *f;
	const char *s, *end;
	size_t lineno = 0;

	memset(j, 0, sizeof(*j));
	snprintf(j->cmd, sizeof(j->cmd), "?");
	snprintf(j->pid, sizeof(j->pid), "?");
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 1;
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read the journal of an interrupted run: %s", strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0,
			 "cannot read the journal of an interrupted run: not a regular file (a symbolic link?): remove it");
		return -1;
	}
	if (!(f = src_file_load(path))) {
		diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read the journal of an interrupted run: %s", strerror(errno));
		return -1;
	}
	for (s = f->data, end = f->data + f->len; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		lineno++;
		if (!nl)
			break;
		if (lineno == 1) {
			size_t len = (size_t)(nl - s);
			if (!(len == strlen(JOURNAL_HEAD) && memcmp(s, JOURNAL_HEAD, len) == 0) &&
			    !(len == strlen(JOURNAL_HEAD_V1) && memcmp(s, JOURNAL_HEAD_V1, len) == 0)) {
				diag_pos(diag, DIAG_ERROR, path, 1, 1,
					 "not an autotrace journal (expected \"%s\"): remove it if it is not yours", JOURNAL_HEAD);
				goto fail;
			}
		} else if (parse_line(j, s, nl, lineno) != 0) {
			diag_pos(diag, DIAG_ERROR, path, lineno, 1,
				 "unreadable line in the journal of an interrupted run: remove the journal to go on "
				 "(the temporary files it names end in .at-XXXXXX)");
			goto fail;
		}
		s = nl + 1;
	}
	src_file_free(f);
	return 0;
fail:
	src_file_free(f);
	journal_release(j);
	return -1;
}

/* ---- checks ---- */

/* True when `tmp` is a name edit_journal.c gives a temporary file or a
 * backup of `target`: TARGET.at-XXXXXX, six letters or digits. */
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
 * tree (its links followed). A directory that is not there holds nothing
 * to rename or remove. */
static const char *outside_tree(const char *real_top, const char *path)
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
	if (real && !path_within(real, real_top))
		why = "outside the tree";
	else if (!real && errno != ENOENT && errno != ENOTDIR)
		why = "a directory that cannot be resolved";
	free(real);
	free(dir);
	return why;
}

/* Every entry checked before any is acted on: 0, or -1 after reporting
 * the first one that names something recovery must not touch. */
static int check_entries(const struct journal_site *site, const struct journal *j, struct diag *diag)
{
	static const char not_ours[] = "not a temporary file of autotrace (TARGET.at-XXXXXX)";

	for (size_t i = 0; i < j->n; i++) {
		const struct entry *e = &j->e[i];
		const char *bad = e->target, *why = outside_tree(site->real_top, e->target);
		size_t line = e->line;
		if (!why && e->tmp && !temp_name_of(e->tmp, e->target)) {
			bad = e->tmp;
			why = not_ours;
		} else if (!why && e->bak && !temp_name_of(e->bak, e->target)) {
			bad = e->bak;
			why = not_ours;
			line = e->bak_line;
		}
		if (!why)
			continue;
		diag_pos(diag, DIAG_ERROR, site->path, line, 1,
			 "the journal of the interrupted `autotrace %s` (pid %s) names %s: %s (the tree this `autotrace "
			 "%s` may change is %s): refused, nothing renamed or removed; if that run was `autotrace %s` on "
			 "this tree, run it again to complete it, else remove the journal",
			 j->cmd, j->pid, bad, why, site->command, site->top, j->cmd);
		return -1;
	}
	return 0;
}

/* ---- the state of a file ---- */

static bool same_ident(const char *path, const char *ident)
{
	struct stat st;
	char now[96];

	journal_identity(now, sizeof(now), stat(path, &st) == 0 ? &st : NULL);
	return strcmp(now, ident) == 0;
}

/* Is the file at `path` the one the I record `id` names (an identity a
 * rename keeps)? */
static bool same_file(const char *path, const char *id)
{
	return id[0] && same_ident(path, id);
}

static bool present(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
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

/* ---- settling ---- */

struct counts {
	size_t now, before, kept, stuck;
	const struct entry *failed;   /* roll forward: the rename that failed */
	int failed_errno;
};

/* Each file not replaced or removed yet, done now; the backups removed.
 * 0, or -1 when a rename or removal failed (c->failed): nothing more is
 * done, the caller rolls back. */
static int roll_forward(const struct journal *j, struct counts *c, struct diag *diag)
{
	for (size_t i = 0; i < j->n; i++) {
		const struct entry *e = &j->e[i];
		int rc;
		if (e->theirs)
			continue;
		if (e->tmp ? !present(e->tmp) : !present(e->target)) {
			c->before++; /* renamed or removed before the interruption */
			continue;
		}
		if (!same_ident(e->target, e->ident)) {
			diag_pos(diag, DIAG_WARNING, e->target, 0, 0,
				 e->tmp ? "changed after the interrupted `autotrace %s` (pid %s): kept as it is, the text that "
					  "run meant for it dropped"
					: "changed after the interrupted `autotrace %s` (pid %s): kept, not removed",
				 j->cmd, j->pid);
			if (e->tmp)
				unlink(e->tmp);
			c->kept++;
			continue;
		}
		rc = e->tmp ? rename(e->tmp, e->target) : unlink(e->target);
		if (rc != 0) {
			c->failed = e;
			c->failed_errno = errno;
			return -1;
		}
		sync_dir_of(e->target);
		c->now++;
	}
	for (size_t i = 0; i < j->n; i++)
		if (!j->e[i].theirs && j->e[i].bak)
			unlink(j->e[i].bak);
	return 0;
}

/* Whether target `e` is its original: the identity the batch read, or the
 * identity of the copy a restore put there. */
static bool is_original(const struct entry *e)
{
	return same_ident(e->target, e->ident) || (e->bak_id[0] && same_file(e->target, e->bak_id));
}

/* Each file the batch replaced, created or removed put back as it was; the
 * temporary files and backups removed but those of a file that could not
 * be put back. */
static void roll_back(struct journal *j, struct counts *c, struct diag *diag)
{
	for (size_t i = j->n; i-- > 0;) {
		struct entry *e = &j->e[i];
		const char *why = NULL;
		if (e->theirs)
			continue;
		if (e->tmp && present(e->tmp)) {
			unlink(e->tmp); /* never renamed: the target was not replaced */
		} else if (e->tmp && !same_file(e->target, e->tmp_id)) {
			/* not the batch's file: the original (never replaced, or put back
			 * already), nothing, or someone else's since */
			if (present(e->target) && !is_original(e)) {
				diag_pos(diag, DIAG_WARNING, e->target, 0, 0,
					 "changed after `autotrace %s` (pid %s) replaced it: kept as it is, not put back", j->cmd,
					 j->pid);
				c->kept++;
			} else if (!present(e->target) && e->bak && present(e->bak)) {
				if (rename(e->bak, e->target) == 0)
					c->now++;
				else
					why = strerror(errno);
			}
		} else if (e->tmp) {
			/* the batch's new text: the original back over it, or a file the
			 * batch created removed */
			if (e->bak && rename(e->bak, e->target) == 0)
				c->now++;
			else if (e->bak)
				why = strerror(errno);
			else if (strcmp(e->ident, "-") != 0)
				why = "no copy of it was kept";
			else if (unlink(e->target) == 0)
				c->now++;
			else
				why = strerror(errno);
		} else if (!present(e->target)) {
			/* a removal done: the file back */
			if (e->bak && rename(e->bak, e->target) == 0)
				c->now++;
			else
				why = e->bak ? strerror(errno) : "no copy of it was kept";
		} else if (!is_original(e)) {
			diag_pos(diag, DIAG_WARNING, e->target, 0, 0,
				 "created after `autotrace %s` (pid %s) removed the file: kept as it is", j->cmd, j->pid);
			c->kept++;
		}
		if (why) {
			diag_pos(diag, DIAG_ERROR, e->target, 0, 0, "cannot put the original back: %s%s%s", why,
				 e->bak ? "; it is kept in " : "", e->bak ? e->bak : "");
			e->stuck = true;
			c->stuck++;
			continue;
		}
		if (e->bak)
			unlink(e->bak);
		sync_dir_of(e->target);
	}
}

/* Appends the abort mark to the journal at `path`: the settling from here
 * on rolls back, even across a kill. */
static int mark_aborted(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -1;
	rc = atomic_write_fd(fd, "A\n", 2) == 0 && fsync(fd) == 0 ? 0 : -1;
	close(fd);
	return rc;
}

static size_t removed_temps(const struct journal *j)
{
	size_t n = 0;

	for (size_t i = 0; i < j->n; i++)
		if (!j->e[i].theirs && j->e[i].tmp && present(j->e[i].tmp) && unlink(j->e[i].tmp) == 0)
			n++;
	for (size_t i = 0; i < j->n; i++)
		if (!j->e[i].theirs && j->e[i].bak)
			unlink(j->e[i].bak);
	return n;
}

int journal_recover(const struct journal_site *s, char **completed, struct diag *diag)
{
	struct journal j;
	struct counts c;
	int rc = journal_read(s->path, &j, diag);

	if (completed)
		*completed = NULL;
	if (rc != 0)
		return rc > 0 ? 0 : -1;
	if (s->real_top && check_entries(s, &j, diag) != 0) {
		journal_release(&j);
		return -1;
	}
	memset(&c, 0, sizeof(c));
	/* the signals wait: the settling is not cut by them */
	tmp_cleanup_hold(true);
	if (!j.committed) {
		size_t removed = removed_temps(&j);
		diag_pos(diag, DIAG_NOTE, s->path, 0, 0,
			 "`autotrace %s` (pid %s) was interrupted before it replaced any file: removed its %zu temporary "
			 "file%s; every file is as it was before that run",
			 j.cmd, j.pid, removed, removed == 1 ? "" : "s");
	} else if (!j.aborted && roll_forward(&j, &c, diag) == 0) {
		diag_pos(diag, DIAG_NOTE, s->path, 0, 0,
			 "`autotrace %s` (pid %s) was interrupted while it replaced files: completed now (%zu file%s "
			 "replaced or removed now, %zu before the interruption%s)",
			 j.cmd, j.pid, c.now, c.now == 1 ? "" : "s", c.before, c.kept ? ", the others kept as they are" : "");
		if (!c.kept && completed)
			*completed = xstrdup(j.cmd);
	} else {
		char failed[512] = "";
		if (!j.aborted) {
			/* completing it failed: it is rolled back instead */
			snprintf(failed, sizeof(failed), ", and completing it failed (%s: %s)", c.failed->target,
				 strerror(c.failed_errno));
			if (mark_aborted(s->path) != 0)
				diag_pos(diag, DIAG_WARNING, s->path, 0, 0, "cannot write the abort mark: %s", strerror(errno));
		}
		memset(&c, 0, sizeof(c));
		roll_back(&j, &c, diag);
		if (c.stuck)
			diag_pos(diag, DIAG_ERROR, s->path, 0, 0,
				 "`autotrace %s` (pid %s) was interrupted while it %s%s: %zu file%s could not be put back "
				 "(see above); the journal is kept, run again once they can be written",
				 j.cmd, j.pid, j.aborted ? "put back the files of a batch it could not complete" : "replaced files",
				 failed, c.stuck, c.stuck == 1 ? "" : "s");
		else
			diag_pos(diag, DIAG_NOTE, s->path, 0, 0,
				 "`autotrace %s` (pid %s) was interrupted while it %s%s: rolled back now (%zu file%s put back "
				 "now%s); every file is as it was before that run",
				 j.cmd, j.pid, j.aborted ? "put back the files of a batch it could not complete" : "replaced files",
				 failed, c.now, c.now == 1 ? "" : "s", c.kept ? ", the others changed since kept as they are" : "");
	}
	if (!c.stuck)
		unlink(s->path);
	tmp_cleanup_hold(false);
	journal_release(&j);
	return c.stuck ? -1 : 0;
}

int journal_roll_back(const struct journal_site *s, size_t *put_back, struct diag *diag)
{
	struct journal j;
	struct counts c;

	*put_back = 0;
	if (journal_read(s->path, &j, diag) != 0)
		return -1;
	memset(&c, 0, sizeof(c));
	roll_back(&j, &c, diag);
	*put_back = c.now;
	if (!c.stuck)
		unlink(s->path);
	journal_release(&j);
	return c.stuck ? -1 : 0;
}
