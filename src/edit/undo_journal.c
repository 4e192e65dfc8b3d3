/* The undo journal of the commands that edit an operator project.
 *
 * The journal lies in the tree (a clone brings it along when it was
 * committed), so undo trusts none of it: before anything is restored, every
 * entry of MANIFEST must name a file of the project (inside the tree the
 * command was given, `top`: the project root, else the operator directory),
 * by its words and through its symbolic links, a regular file or none, and
 * every record of it must be a regular file of the journal's own directory;
 * the first that does not is refused, located at its MANIFEST line, and
 * nothing is restored. */
#include "undo_journal.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_path.h"
#include "atomic_write.h"
#include "edit.h"
#include "edit_journal.h"
#include "path_glob.h"
#include "path_rel.h"
#include "sh_word.h"
#include "udiff.h"
#include "xalloc.h"

#define MANIFEST_HEAD "autotrace-wire-undo 1"

struct journal {
	const char *opdir;
	const char *top;              /* the tree entries may name (NULL: opdir) */
	char *dir;                    /* OPDIR/.autotrace/NAME */
	struct diag *diag;
};

/* The lock of the operator directory (edit_journal.h): the caller's when it
 * holds it (wire and instrument take it before they read the tree), else
 * taken here for the time of the call (*own set). NULL after reporting. */
static struct edit_lock *tree_lock(const char *opdir, const char *top, const char *cmd, bool *own,
				   struct diag *diag)
{
	struct edit_lock *l = edit_lock_covering(opdir);

	*own = !l;
	return l ? l : edit_lock_acquire_within(opdir, top, cmd, diag);
}

static void journal_open(struct journal *j, const char *opdir, const char *name, struct diag *diag)
{
	char *top = path_join(opdir, ".autotrace");

	j->opdir = opdir;
	j->top = NULL;
	j->dir = path_join(top, name);
	j->diag = diag;
	free(top);
}

static void journal_close(struct journal *j)
{
	free(j->dir);
}

/* OPDIR/.autotrace/NAME/<k>.<suffix> */
static char *entry_path(const struct journal *j, size_t k, const char *suffix)
{
	char name[48];

	snprintf(name, sizeof(name), "%zu.%s", k, suffix);
	return path_join(j->dir, name);
}

static int mkdir_p(const char *path, struct diag *diag)
{
	char *failed;

	if (path_mkdirs(path, &failed) == 0)
		return 0;
	diag_pos(diag, DIAG_ERROR, failed ? failed : path, 0, 0, "cannot create the undo journal: %s", strerror(errno));
	free(failed);
	return -1;
}

/* `path` relative to opdir: "op_host/x.cpp", "../../csrc/torch_binding.cpp"
 * (newly allocated). The file need not exist; its directory must. */
static char *rel_to(const char *opdir, const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), *dabs, *oabs, *full, *rel;
	const char *base = slash ? slash + 1 : path;

	if (slash)
		*slash = '\0';
	dabs = path_absolute(slash ? (dir[0] ? dir : "/") : ".");
	oabs = path_absolute(opdir);
	if (!dabs || !oabs) {
		free(dabs);
		free(oabs);
		free(dir);
		return xstrdup(path);
	}
	full = path_join(dabs, base);
	rel = path_relative(oabs, full);
	free(full);
	free(dabs);
	free(oabs);
	free(dir);
	return rel;
}

struct manifest {
	char **paths;                 /* relative to opdir */
	size_t n;
};

static void manifest_release(struct manifest *m)
{
	path_glob_free(m->paths, m->n);
	m->paths = NULL;
	m->n = 0;
}

/* Reads MANIFEST: 0 (m filled, maybe empty when absent), -1 when unreadable. */
static int manifest_read(const struct journal *j, struct manifest *m)
{
	char *path = path_join(j->dir, "MANIFEST");
	struct src_file *f = NULL;
	const char *s, *end;

	m->paths = NULL;
	m->n = 0;
	{
		/* the journal's directory and MANIFEST are read where they are, never
		 * through a symbolic link (see the top) */
		struct stat st;
		const char *bad = lstat(j->dir, &st) == 0 && !S_ISDIR(st.st_mode) ? j->dir
				  : lstat(path, &st) == 0 && !S_ISREG(st.st_mode) ? path
										    : NULL;
		if (bad) {
			diag_pos(j->diag, DIAG_ERROR, bad, 0, 0, "not the undo journal's own %s (a symbolic link?): refused",
				 bad == path ? "file" : "directory");
			free(path);
			return -1;
		}
	}
	f = src_file_load(path);
	if (!f) {
		int missing = errno == ENOENT;
		if (!missing)
			diag_pos(j->diag, DIAG_ERROR, path, 0, 0, "cannot read the undo journal: %s", strerror(errno));
		free(path);
		return missing ? 0 : -1;
	}
	s = f->data;
	end = f->data + f->len;
	if (f->len < strlen(MANIFEST_HEAD) + 1 || strncmp(s, MANIFEST_HEAD "\n", strlen(MANIFEST_HEAD) + 1) != 0) {
		diag_pos(j->diag, DIAG_ERROR, path, 1, 0, "not an autotrace undo journal");
		src_file_free(f);
		free(path);
		return -1;
	}
	s += strlen(MANIFEST_HEAD) + 1;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *tab;
		size_t idx = 0;
		if (!nl)
			nl = end;
		tab = memchr(s, '\t', (size_t)(nl - s));
		for (const char *q = s; tab && q < tab; q++)
			if (*q < '0' || *q > '9' || tab - s > 9)
				tab = NULL;
		if (!tab || tab == s) {
			diag_pos(j->diag, DIAG_ERROR, path, m->n + 2, 0, "bad line in the undo journal");
			src_file_free(f);
			free(path);
			manifest_release(m);
			return -1;
		}
		for (const char *q = s; q < tab; q++)
			idx = idx * 10 + (size_t)(*q - '0');
		if (idx != m->n) {
			diag_pos(j->diag, DIAG_ERROR, path, m->n + 2, 0, "bad entry number in the undo journal");
			src_file_free(f);
			free(path);
			manifest_release(m);
			return -1;
		}
		m->paths = xrealloc(m->paths, (m->n + 1) * sizeof(*m->paths));
		m->paths[m->n++] = xstrndup(tab + 1, (size_t)(nl - tab - 1));
		s = nl + 1;
	}
	src_file_free(f);
	free(path);
	return 0;
}

static long manifest_find(const struct manifest *m, const char *rel)
{
	for (size_t k = 0; k < m->n; k++)
		if (strcmp(m->paths[k], rel) == 0)
			return (long)k;
	return -1;
}

/* Writes MANIFEST with the first `keep` entries of m (into batch `b` when
 * not NULL). 0 or -1 (reported). */
static int manifest_write(const struct journal *j, const struct manifest *m, size_t keep, struct edit_batch *b)
{
	size_t len, cap = strlen(MANIFEST_HEAD) + 2;
	char *text, *mpath;
	int rc;

	for (size_t k = 0; k < keep; k++)
		cap += strlen(m->paths[k]) + 24;
	text = xmalloc(cap);
	len = (size_t)snprintf(text, cap, "%s\n", MANIFEST_HEAD);
	for (size_t k = 0; k < keep; k++)
		len += (size_t)snprintf(text + len, cap - len, "%zu\t%s\n", k, m->paths[k]);
	mpath = path_join(j->dir, "MANIFEST");
	rc = b ? edit_batch_add(b, mpath, text, len, j->diag) : atomic_write(mpath, text, len, j->diag);
	free(mpath);
	free(text);
	return rc;
}

/* Writes OPDIR/.autotrace/.gitignore ("*"), so the journal never shows in git. */
static int ignore_journal(const char *opdir, struct diag *diag)
{
	char *top = path_join(opdir, ".autotrace"), *gi = path_join(top, ".gitignore");
	struct stat st;
	int rc = 0;

	if (stat(gi, &st) != 0)
		rc = atomic_write(gi, "*\n", 2, diag);
	free(gi);
	free(top);
	return rc;
}

/* ---- journals of several operators of one directory ---- */

/* "NAME.OP": the operator's part ("OP"), or NULL for a journal of a
 * directory of one operator. */
static const char *journal_op(const char *name)
{
	const char *dot = strchr(name, '.');

	return dot && dot[1] ? dot + 1 : NULL;
}

/* The other operators' journals of the same command ("NAME.*" beside
 * `name`) that exist now, newly allocated. */
static size_t sibling_journals(const char *opdir, const char *name, char ***out)
{
	char *top = path_join(opdir, ".autotrace");
	size_t fl = (size_t)(strchr(name, '.') - name) + 1, n = 0;
	DIR *d = opendir(top);
	struct dirent *de;

	*out = NULL;
	while (d && (de = readdir(d))) {
		char *dir, *mp;
		struct stat st;
		if (strncmp(de->d_name, name, fl) != 0 || strcmp(de->d_name, name) == 0 || !journal_op(de->d_name))
			continue;
		dir = path_join(top, de->d_name);
		mp = path_join(dir, "MANIFEST");
		if (stat(mp, &st) == 0) {
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = xstrdup(de->d_name);
		}
		free(mp);
		free(dir);
	}
	if (d)
		closedir(d);
	free(top);
	return n;
}

/* A new journal of one operator of several records which journals of the
 * other operators were there before it (AFTER, one name a line): undo goes
 * last in, first out (see undo_journal_restore). 0 or -1 (reported). */
static int record_after(const struct journal *j, const char *name, struct edit_batch *b)
{
	char **sib = NULL, *text, *path;
	size_t n, len = 0;
	int rc;

	if (!journal_op(name))
		return 0;
	n = sibling_journals(j->opdir, name, &sib);
	for (size_t i = 0; i < n; i++)
		len += strlen(sib[i]) + 1;
	text = xmalloc(len + 1);
	len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "%s\n", sib[i]);
	path = path_join(j->dir, "AFTER");
	rc = b ? edit_batch_add(b, path, text, len, j->diag) : atomic_write(path, text, len, j->diag);
	free(path);
	free(text);
	path_glob_free(sib, n);
	return rc;
}

/* True when journal `other` lists `name` in its AFTER: it was begun while
 * `name` was there. */
static bool written_after(const char *opdir, const char *other, const char *name)
{
	char *top = path_join(opdir, ".autotrace"), *dir = path_join(top, other), *ap = path_join(dir, "AFTER");
	struct src_file *f = src_file_load(ap);
	size_t nl = strlen(name);
	bool yes = false;

	for (size_t i = 0; f && i + nl <= f->len && !yes; i++)
		yes = (i == 0 || f->data[i - 1] == '\n') && memcmp(f->data + i, name, nl) == 0 &&
		      (i + nl == f->len || f->data[i + nl] == '\n');
	src_file_free(f);
	free(ap);
	free(dir);
	free(top);
	return yes;
}

bool undo_journal_exists(const char *opdir, const char *name)
{
	struct journal j;
	char *mp;
	struct stat st;
	bool yes;

	journal_open(&j, opdir, name, NULL);
	mp = path_join(j.dir, "MANIFEST");
	yes = stat(mp, &st) == 0;
	free(mp);
	journal_close(&j);
	return yes;
}

int undo_journal_save(const char *opdir, const char *name, const char *const *paths,
		      const struct src_file *const *orig, size_t n, struct diag *diag)
{
	struct journal j;
	struct manifest m;
	/* the records and the manifest as one batch of the operator directory's
	 * journal when it is locked, so a kill leaves all of them or none */
	struct edit_lock *lock = edit_lock_covering(opdir);
	struct edit_batch *b = NULL;
	int rc = -1;

	journal_open(&j, opdir, name, diag);
	if (manifest_read(&j, &m) != 0) {
		journal_close(&j);
		return -1;
	}
	if (mkdir_p(j.dir, diag) != 0 || ignore_journal(opdir, diag) != 0)
		goto out;
	if (lock)
		b = edit_batch_new(lock, 0);
	if (m.n == 0 && record_after(&j, name, b) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char *rel = rel_to(opdir, paths[i]), *p;
		if (manifest_find(&m, rel) >= 0) {
			free(rel); /* a file journaled before keeps its first original */
			continue;
		}
		p = entry_path(&j, m.n, orig[i] ? "orig" : "absent");
		if ((b ? edit_batch_add(b, p, orig[i] ? orig[i]->data : "", orig[i] ? orig[i]->len : 0, diag)
		       : atomic_write(p, orig[i] ? orig[i]->data : "", orig[i] ? orig[i]->len : 0, diag)) != 0) {
			free(p);
			free(rel);
			goto out;
		}
		free(p);
		m.paths = xrealloc(m.paths, (m.n + 1) * sizeof(*m.paths));
		m.paths[m.n++] = rel;
	}
	rc = manifest_write(&j, &m, m.n, b);
	if (b) {
		if (rc == 0)
			rc = edit_batch_commit(b, diag);
		else
			edit_batch_abort(b);
		b = NULL;
	}
out:
	edit_batch_abort(b);
	manifest_release(&m);
	journal_close(&j);
	return rc;
}

static bool bytes_equal(const struct src_file *f, const char *data, size_t len)
{
	return f && f->len == len && memcmp(f->data, data, len) == 0;
}

/* Entry k of the journal: the original (NULL with `absent`: the file was
 * created), what was written (NULL for a journal of an older autotrace), and
 * the file now (NULL when it is gone). */
struct undo_entry {
	char *target;
	bool absent;
	struct src_file *orig, *wired, *cur;
};

static void entry_load(const struct journal *j, size_t k, struct undo_entry *e)
{
	char *op = entry_path(j, k, "orig"), *ap = entry_path(j, k, "absent"), *wp = entry_path(j, k, "wired");
	struct stat st;

	e->orig = src_file_load(op);
	e->absent = !e->orig && stat(ap, &st) == 0;
	e->wired = src_file_load(wp);
	free(op);
	free(ap);
	free(wp);
}

static void entry_release(struct undo_entry *e)
{
	free(e->target);
	src_file_free(e->orig);
	src_file_free(e->wired);
	src_file_free(e->cur);
}

/* undo_journal_wired, the records going into batch `b` when not NULL (then
 * they change with the files they describe, or not at all). */
static int wired_records(const char *opdir, const char *name, struct edit_batch *b, const char *const *paths,
			 const struct src_file *const *orig, const char *const *texts, const size_t *lens, size_t n,
			 struct diag *diag)
{
	struct journal j;
	struct manifest m;
	int rc = 0;

	journal_open(&j, opdir, name, diag);
	if (manifest_read(&j, &m) != 0) {
		journal_close(&j);
		return -1;
	}
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *rel = rel_to(opdir, paths[i]), *wp;
		long k = manifest_find(&m, rel);
		struct undo_entry e;
		bool from_known;
		free(rel);
		if (k < 0)
			continue;
		memset(&e, 0, sizeof(e));
		entry_load(&j, (size_t)k, &e);
		/* recorded only when the run started from what the journal knows (the
		   original, or what was written last): text edited by hand in between
		   leaves the record behind, so undo will not discard it unasked; a file
		   put back to its original by hand starts afresh */
		if (e.absent)
			from_known = !orig[i] || (e.wired && bytes_equal(e.wired, orig[i]->data, orig[i]->len));
		else
			from_known = orig[i] && (bytes_equal(e.orig, orig[i]->data, orig[i]->len) ||
						 (e.wired && bytes_equal(e.wired, orig[i]->data, orig[i]->len)));
		if (from_known) {
			wp = entry_path(&j, (size_t)k, "wired");
			rc = b ? edit_batch_add(b, wp, texts[i], lens[i], diag) : atomic_write(wp, texts[i], lens[i], diag);
			free(wp);
		}
		entry_release(&e);
	}
	manifest_release(&m);
	journal_close(&j);
	return rc;
}

int undo_journal_wired(const char *opdir, const char *name, const char *const *paths,
		       const struct src_file *const *orig, const char *const *texts, const size_t *lens, size_t n,
		       struct diag *diag)
{
	return wired_records(opdir, name, NULL, paths, orig, texts, lens, n, diag);
}

static bool same_bytes(const struct src_file *a, const struct src_file *b)
{
	return a && b && a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

/* True when `dir` holds nothing but a .gitignore. */
static bool only_gitignore(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool only = true;

	if (!d)
		return false;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 && strcmp(de->d_name, ".gitignore") != 0)
			only = false;
	closedir(d);
	return only;
}

static void remove_journal(const struct journal *j, size_t n)
{
	char *top = path_join(j->opdir, ".autotrace"), *mp, *gi;

	for (size_t k = 0; k < n; k++) {
		static const char *const suffix[] = { "orig", "absent", "wired" };
		for (int s = 0; s < 3; s++) {
			char *jp = entry_path(j, k, suffix[s]);
			unlink(jp);
			free(jp);
		}
	}
	mp = path_join(j->dir, "MANIFEST");
	unlink(mp);
	free(mp);
	mp = path_join(j->dir, "AFTER");
	unlink(mp);
	free(mp);
	rmdir(j->dir);
	/* .autotrace/ goes too when nothing but its .gitignore is left */
	if (only_gitignore(top)) {
		gi = path_join(top, ".gitignore");
		unlink(gi);
		free(gi);
	}
	rmdir(top);
	free(top);
}

/* `path` made absolute from the working directory and normalised, its
 * links not followed (newly allocated). */
static char *lexical_absolute(const char *path)
{
	char cwd[4096], *abs, *norm;

	if (path[0] == '/')
		return path_normalize(path);
	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	abs = path_join(cwd, path);
	norm = path_normalize(abs);
	free(abs);
	return norm;
}

/* Why entry k of the journal must not be restored (NULL: it may be): its
 * path leads out of the project by its words or through its links, or
 * names something that is not a regular file; or a record of it is not a
 * regular file of the journal (a link to a file elsewhere). */
static const char *entry_refused(const struct journal *j, size_t k, const char *rel, const char *top_real,
				 const char *top_lex)
{
	static const char *const suffix[] = { "orig", "absent", "wired" };
	char *target, *lex, *resolved = NULL, *dir, *real;
	const char *why = NULL, *slash;
	struct stat st;
	bool in_place = false;
	struct diag quiet;

	if (!rel[0] || rel[0] == '/')
		return rel[0] ? "an absolute path: entries are relative to the operator directory"
			      : "an empty path";
	target = path_join(j->opdir, rel);
	lex = lexical_absolute(target);
	if (!lex || !path_within(lex, top_lex)) {
		why = "outside the project";
		goto out;
	}
	/* where a write would land: the links of its last component followed as
	 * atomic_resolve follows them, its directory canonical */
	diag_init_quiet(&quiet);
	if (atomic_resolve(target, &resolved, &in_place, &quiet) != 0) {
		why = "a symbolic link that cannot be followed";
		goto out;
	}
	if (in_place || (lstat(resolved, &st) == 0 && !S_ISREG(st.st_mode))) {
		why = "not a regular file";
		goto out;
	}
	slash = strrchr(resolved, '/');
	dir = slash ? xstrndup(resolved, slash == resolved ? 1 : (size_t)(slash - resolved)) : xstrdup(".");
	real = realpath(dir, NULL);
	if (real && !path_within(real, top_real))
		why = "outside the project through a symbolic link";
	free(real);
	free(dir);
	for (int s = 0; s < 3 && !why; s++) {
		char *jp = entry_path(j, k, suffix[s]);
		if (lstat(jp, &st) == 0 && !S_ISREG(st.st_mode))
			why = "a record of the journal that is not a regular file (a symbolic link?)";
		free(jp);
	}
out:
	free(resolved);
	free(lex);
	free(target);
	return why;
}

/* Every entry of m checked before anything is read or restored: 0, or -1
 * after reporting the first refused one at its MANIFEST line. */
static int check_manifest(const struct journal *j, const struct manifest *m, struct diag *diag)
{
	const char *top = j->top ? j->top : j->opdir;
	char *top_real = path_absolute(top), *top_lex = lexical_absolute(top), *mp = path_join(j->dir, "MANIFEST");
	int rc = 0;

	for (size_t k = 0; k < m->n && rc == 0; k++) {
		const char *why = top_real && top_lex ? entry_refused(j, k, m->paths[k], top_real, top_lex)
						      : "the project cannot be resolved";
		if (why) {
			diag_pos(diag, DIAG_ERROR, mp, k + 2, 1,
				 "entry '%s': %s; the project is %s: refused, nothing restored (an undo journal holds files "
				 "of its project only)",
				 m->paths[k], why, top);
			rc = -1;
		}
	}
	free(mp);
	free(top_lex);
	free(top_real);
	return rc;
}

int undo_journal_restore(const char *opdir, const char *top, const char *name, const char *cmd, bool dry_run,
			 bool force, struct diag *diag)
{
	struct journal j;
	struct manifest m;
	struct undo_entry *e;
	int status = 0;
	size_t restored = 0, removed = 0, changed = 0;

	journal_open(&j, opdir, name, diag);
	j.top = top;
	if (manifest_read(&j, &m) != 0) {
		journal_close(&j);
		return -1;
	}
	if (m.n == 0) {
		printf("%s: nothing to undo (no journal)\n", j.dir);
		journal_close(&j);
		return 0;
	}
	if (check_manifest(&j, &m, diag) != 0) {
		manifest_release(&m);
		journal_close(&j);
		return -1;
	}
	if (journal_op(name)) {
		/* last in, first out: an operator instrumented after this one wrote on
		   top of what this one wrote (the build script's one hook, headers
		   both entries include), so it is undone first */
		char **sib = NULL;
		size_t ns = sibling_journals(opdir, name, &sib);
		for (size_t i = 0; i < ns; i++)
			if (written_after(opdir, sib[i], name)) {
				/* (the names of the journals are the tree's: words in the commands) */
				char *q = sh_quote(journal_op(sib[i]));
				diag_plain(diag, dry_run ? DIAG_WARNING : DIAG_ERROR,
					   "operator %s was done by `autotrace %s --op %s` after operator %s, on top of its "
					   "edits (the build script's hook, headers both include): undo it first with "
					   "`autotrace %s --undo --op %s`%s", journal_op(sib[i]), cmd, q, journal_op(name), cmd, q,
					   dry_run ? "" : "; nothing restored");
				free(q);
				if (!dry_run)
					status = -1;
			}
		path_glob_free(sib, ns);
		if (status != 0) {
			manifest_release(&m);
			journal_close(&j);
			return status;
		}
	}
	e = xcalloc(m.n, sizeof(*e));
	/* first every entry is read and checked: all files are restored or none */
	for (size_t k = 0; k < m.n; k++) {
		bool edited;
		e[k].target = path_join(opdir, m.paths[k]);
		entry_load(&j, k, &e[k]);
		if (!e[k].orig && !e[k].absent) {
			char *jp = entry_path(&j, k, "orig");
			diag_pos(diag, DIAG_ERROR, jp, 0, 0, "cannot read the undo journal: %s", strerror(errno));
			free(jp);
			status = -1;
		}
		e[k].cur = src_file_load(e[k].target);
		if (e[k].absent)
			edited = e[k].cur && e[k].wired && !same_bytes(e[k].cur, e[k].wired);
		else
			edited = e[k].orig && e[k].wired && !same_bytes(e[k].cur, e[k].orig) &&
				 !same_bytes(e[k].cur, e[k].wired);
		if (edited) {
			changed++;
			if (!force)
				diag_pos(diag, dry_run ? DIAG_WARNING : DIAG_ERROR, e[k].target, 0, 0,
					 "%s since `autotrace %s` wrote it: --undo would discard those edits",
					 e[k].cur ? "changed" : "removed", cmd);
		}
	}
	if (status == 0 && changed && !force && !dry_run) {
		const char *op = journal_op(name);
		char *q = op ? sh_quote(op) : NULL;
		diag_plain(diag, DIAG_NOTE,
			   "nothing restored; see what would be lost with `autotrace %s --undo%s%s --dry-run`, "
			   "then restore anyway with `autotrace %s --undo%s%s --force`", cmd, q ? " --op " : "", q ? q : "",
			   cmd, q ? " --op " : "", q ? q : "");
		free(q);
		status = -1;
	}
	if (status == 0) {
		/* the files to restore, written together: all or none; then the created ones go */
		const char **paths = xcalloc(m.n + 1, sizeof(*paths)), **texts = xcalloc(m.n + 1, sizeof(*texts));
		size_t *lens = xcalloc(m.n + 1, sizeof(*lens)), nw = 0;
		for (size_t k = 0; k < m.n; k++) {
			const struct undo_entry *x = &e[k];
			if (x->absent) {
				if (x->cur && dry_run)
					udiff_print(stdout, x->target, x->cur->data, x->cur->len, "", 0);
				continue;
			}
			if (same_bytes(x->cur, x->orig))
				continue; /* already the original */
			if (dry_run) {
				udiff_print(stdout, x->target, x->cur ? x->cur->data : "", x->cur ? x->cur->len : 0,
					    x->orig->data, x->orig->len);
				continue;
			}
			paths[nw] = x->target;
			texts[nw] = x->orig->data;
			lens[nw++] = x->orig->len;
		}
		if (!dry_run) {
			/* the restores and the removals of the files the command created,
			 * one batch: all or none, even across a kill */
			bool own = false;
			struct edit_lock *lock = tree_lock(opdir, top, cmd, &own, diag);
			struct edit_batch *b = lock ? edit_batch_new(lock, 0) : NULL;
			int rc = b ? 0 : -1;
			for (size_t i = 0; i < nw && rc == 0; i++)
				rc = edit_batch_add(b, paths[i], texts[i], lens[i], diag);
			for (size_t k = 0; k < m.n && rc == 0; k++)
				if (e[k].absent && e[k].cur) {
					rc = edit_batch_remove(b, e[k].target, diag);
					removed++;
				}
			if (rc == 0)
				rc = edit_batch_commit(b, diag);
			else
				edit_batch_abort(b);
			if (own)
				edit_lock_release(lock);
			if (rc != 0) {
				diag_plain(diag, DIAG_ERROR, "%s --undo: nothing restored, the journal is kept", cmd);
				status = -1;
				removed = 0;
			}
		}
		for (size_t i = 0; i < nw && status == 0; i++)
			printf("%s: restored\n", paths[i]);
		if (status == 0 && !dry_run)
			for (size_t k = 0; k < m.n; k++)
				if (e[k].absent && e[k].cur)
					printf("%s: removed (created by %s)\n", e[k].target, cmd);
		if (status == 0)
			restored = nw;
		free(paths);
		free(texts);
		free(lens);
	}
	if (!dry_run && status == 0) {
		remove_journal(&j, m.n);
		printf("%s --undo: %zu file%s restored%s, journal removed\n", cmd, restored + removed,
		       restored + removed == 1 ? "" : "s", removed ? " or removed" : "");
	}
	for (size_t k = 0; k < m.n; k++)
		entry_release(&e[k]);
	free(e);
	manifest_release(&m);
	journal_close(&j);
	return status;
}

/* Takes the journal back to its first `keep` entries (none: the journal
 * goes, and .autotrace/ with it when nothing else is left there). */
static void journal_truncate(const char *opdir, const char *name, size_t keep, struct diag *diag)
{
	struct journal j;
	struct manifest m;

	journal_open(&j, opdir, name, diag);
	if (manifest_read(&j, &m) == 0) {
		if (keep == 0) {
			remove_journal(&j, m.n);
		} else if (keep < m.n) {
			for (size_t k = keep; k < m.n; k++) {
				static const char *const suffix[] = { "orig", "absent", "wired" };
				for (int s = 0; s < 3; s++) {
					char *jp = entry_path(&j, k, suffix[s]);
					unlink(jp);
					free(jp);
				}
			}
			manifest_write(&j, &m, keep, NULL);
		}
		manifest_release(&m);
	}
	journal_close(&j);
}

/* The topmost directory of `path` that does not exist yet (newly
 * allocated), NULL when all do. */
static char *first_missing_dir(const char *path)
{
	char *dir = xstrdup(path), *missing = NULL, *slash;
	struct stat st;

	while ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		if (stat(dir, &st) == 0)
			break;
		free(missing);
		missing = xstrdup(dir);
	}
	free(dir);
	return missing;
}

/* Removes the empty directories from `path`'s directory up to `top`. */
static void remove_dirs_up_to(const char *path, const char *top)
{
	char *dir = xstrdup(path), *slash;

	while ((slash = strrchr(dir, '/')) && slash != dir) {
		*slash = '\0';
		if (rmdir(dir) != 0 || strcmp(dir, top) == 0)
			break;
	}
	free(dir);
}

int undo_journal_write(const char *opdir, const char *top, const char *name, const char *cmd,
		       const char *const *paths, const struct src_file *const *orig, const char *const *texts,
		       const size_t *lens, size_t n, struct diag *diag)
{
	struct journal j;
	struct manifest m;
	struct edit_batch *batch = NULL;
	char **made = xcalloc(n + 1, sizeof(*made)); /* per created file, the directory made for it */
	size_t keep;
	bool own = false;
	struct edit_lock *lock = tree_lock(opdir, top, cmd, &own, diag);
	int rc = -1;

	if (!lock) {
		free(made);
		return -1;
	}

	journal_open(&j, opdir, name, diag);
	if (manifest_read(&j, &m) != 0) {
		journal_close(&j);
		free(made);
		if (own)
			edit_lock_release(lock);
		return -1;
	}
	keep = m.n;
	manifest_release(&m);
	journal_close(&j);
	if (undo_journal_save(opdir, name, paths, orig, n, diag) != 0) {
		diag_plain(diag, DIAG_ERROR, "%s: nothing changed (the undo journal could not be written)", cmd);
		goto undo;
	}
	/* a created file's directory may be new too */
	for (size_t i = 0; i < n; i++) {
		char *dir, *failed;
		int made_ok;
		if (orig[i] || !(made[i] = first_missing_dir(paths[i])))
			continue;
		dir = xstrndup(paths[i], (size_t)(strrchr(paths[i], '/') - paths[i]));
		made_ok = path_mkdirs(dir, &failed);
		free(dir);
		if (made_ok != 0) {
			diag_pos(diag, DIAG_ERROR, failed, 0, 0, "cannot create the directory: %s", strerror(errno));
			free(failed);
			diag_plain(diag, DIAG_ERROR, "%s: nothing changed", cmd);
			goto undo;
		}
	}
	/* all files or none, as apply writes them, with the records of what was
	 * written to them in the same batch */
	batch = edit_batch_new(lock, 0);
	for (size_t i = 0; i < n; i++)
		if (edit_batch_add(batch, paths[i], texts[i], lens[i], diag) != 0) {
			edit_batch_abort(batch);
			diag_plain(diag, DIAG_ERROR, "%s: nothing changed", cmd);
			goto undo;
		}
	if (wired_records(opdir, name, batch, paths, orig, texts, lens, n, diag) != 0) {
		edit_batch_abort(batch);
		diag_plain(diag, DIAG_ERROR, "%s: nothing changed (the undo journal could not record the edits)", cmd);
		goto undo;
	}
	if (edit_batch_commit(batch, diag) != 0) {
		if (!edit_lock_stuck(lock)) {
			/* rolled back: not one file replaced, the records go too */
			diag_plain(diag, DIAG_ERROR, "%s: nothing changed", cmd);
			goto undo;
		}
		/* the next run finishes the rollback: the records stay until then */
		diag_plain(diag, DIAG_ERROR, "%s: stopped while replacing files (see above)", cmd);
		goto out;
	}
	rc = 0;
	goto out;
undo:
	/* nothing was replaced: the journal and the directories are as they were */
	journal_truncate(opdir, name, keep, diag);
	for (size_t i = n; i-- > 0;)
		if (made[i])
			remove_dirs_up_to(paths[i], made[i]);
out:
	for (size_t i = 0; i < n; i++)
		free(made[i]);
	free(made);
	if (own)
		edit_lock_release(lock);
	return rc;
}
