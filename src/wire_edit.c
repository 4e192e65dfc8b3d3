/* The edit lists of `autotrace wire`, their application, and the undo
 * journal OPDIR/.autotrace/wire-undo/: N.orig holds the original bytes of
 * one file, N.wired what wire last wrote to it, MANIFEST
 * ("autotrace-wire-undo 1" then "N<TAB>path" lines, paths relative to OPDIR)
 * names them. The journal is written before any source is touched, so an
 * interrupted wire can always be undone; --undo refuses to overwrite a file
 * edited since wire wrote it (unless forced). The journal sits beside the
 * tree's lock (edit_journal.h), whose OPDIR/.autotrace/.gitignore keeps it
 * out of git. */
#include "wire.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
#include "edit.h"
#include "edit_journal.h"
#include "exit_status.h"
#include "path_glob.h"
#include "udiff.h"
#include "xalloc.h"

#define MANIFEST_HEAD "autotrace-wire-undo 1"

char *wire_fmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

static struct wire_file *file_of(struct wire *w, const struct src_file *f)
{
	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].f == f)
			return &w->files[i];
	w->files = xrealloc(w->files, (w->nfiles + 1) * sizeof(*w->files));
	memset(&w->files[w->nfiles], 0, sizeof(w->files[0]));
	w->files[w->nfiles].f = f;
	return &w->files[w->nfiles++];
}

void wire_edit(struct wire *w, const struct src_file *f, uint32_t start, uint32_t end, const char *text,
	       const char *what, ...)
{
	struct wire_file *wf = file_of(w, f);
	struct wire_edit *e;
	va_list ap;

	XGROW(wf->v, wf->cap, wf->n + 1);
	e = &wf->v[wf->n++];
	e->start = start;
	e->end = end;
	e->text = xstrdup(text);
	e->seq = w->seq++;
	va_start(ap, what);
	e->what = xvasprintf(what, ap);
	va_end(ap);
}

void wire_manual(struct wire *w, const struct src_file *f, uint32_t start, uint32_t end, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	w->manual++;
	if (f)
		diag_at(w->diag, DIAG_ERROR, src_loc_make(f, start, end), "manual step: %s", msg);
	else
		diag_pos(w->diag, DIAG_ERROR, w->opdir, 0, 0, "manual step: %s", msg);
	free(msg);
}

const struct src_file *wire_load(struct wire *w, const char *path)
{
	struct src_file *f;

	for (size_t i = 0; i < w->nextra; i++)
		if (strcmp(w->extra[i]->path, path) == 0)
			return w->extra[i];
	f = src_file_load(path);
	if (!f) {
		diag_pos(w->diag, DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(errno));
		return NULL;
	}
	w->extra = xrealloc(w->extra, (w->nextra + 1) * sizeof(*w->extra));
	w->extra[w->nextra++] = f;
	return f;
}

void wire_release(struct wire *w)
{
	for (size_t i = 0; i < w->nfiles; i++) {
		for (size_t k = 0; k < w->files[i].n; k++) {
			free(w->files[i].v[k].text);
			free(w->files[i].v[k].what);
		}
		free(w->files[i].v);
	}
	free(w->files);
	for (size_t i = 0; i < w->nextra; i++)
		src_file_free(w->extra[i]);
	free(w->extra);
	free(w->prof_camel);
}

static int edit_cmp(const void *a, const void *b)
{
	const struct wire_edit *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int wire_file_result(struct wire *w, struct wire_file *wf, char **out, size_t *len)
{
	const struct src_file *f = wf->f;
	size_t cap = f->len + 1, n = 0;
	uint32_t at = 0;
	char *s;

	xqsort(wf->v, wf->n, sizeof(*wf->v), edit_cmp);
	for (size_t i = 0; i < wf->n; i++)
		cap += strlen(wf->v[i].text);
	s = xmalloc(cap);
	for (size_t i = 0; i < wf->n; i++) {
		const struct wire_edit *e = &wf->v[i];
		size_t tl = strlen(e->text);
		if (e->start < at || e->end < e->start || e->end > f->len) {
			diag_pos(w->diag, DIAG_ERROR, f->path, src_file_line(f, e->start), 0,
				 "internal error: overlapping edits (%s)", e->what);
			free(s);
			return -1;
		}
		memcpy(s + n, f->data + at, e->start - at);
		n += e->start - at;
		wf->v[i].new_at = n;
		memcpy(s + n, e->text, tl);
		n += tl;
		at = e->end;
	}
	memcpy(s + n, f->data + at, f->len - at);
	n += f->len - at;
	s[n] = '\0';
	*out = s;
	*len = n;
	return 0;
}

uint32_t wire_line_start(const struct src_file *f, uint32_t off)
{
	while (off > 0 && f->data[off - 1] != '\n')
		off--;
	return off;
}

char *wire_indent_at(const struct src_file *f, uint32_t off)
{
	uint32_t s = wire_line_start(f, off), e = s;

	while (e < f->len && (f->data[e] == ' ' || f->data[e] == '\t'))
		e++;
	return xstrndup(f->data + s, e - s);
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

bool wire_has_word(const struct src_file *f, uint32_t start, uint32_t end, const char *id)
{
	size_t n = strlen(id);

	if (end > f->len)
		end = (uint32_t)f->len;
	for (uint32_t i = start; i + n <= end; i++)
		if (memcmp(f->data + i, id, n) == 0 && (i == 0 || !word_char(f->data[i - 1])) &&
		    (i + n >= f->len || !word_char(f->data[i + n])))
			return true;
	return false;
}

/* ---- the undo journal ---- */

static char *journal_path(const char *opdir, const char *name)
{
	char *d = path_join(opdir, WIRE_UNDO_DIR), *p = path_join(d, name);

	free(d);
	return p;
}

static int mkdir_p(const char *path, struct diag *diag)
{
	char *s = xstrdup(path);

	for (char *q = s + 1;; q++) {
		if (*q == '/' || *q == '\0') {
			char c = *q;
			*q = '\0';
			if (mkdir(s, 0777) != 0 && errno != EEXIST) {
				diag_pos(diag, DIAG_ERROR, s, 0, 0, "cannot create the undo journal: %s", strerror(errno));
				free(s);
				return -1;
			}
			*q = c;
			if (c == '\0')
				break;
		}
	}
	free(s);
	return 0;
}

/* The path of `path` relative to opdir (borrowed from `path`). */
static const char *rel_to(const char *opdir, const char *path)
{
	size_t n = strlen(opdir);

	if (strcmp(opdir, ".") == 0)
		return path;
	if (strncmp(path, opdir, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

struct manifest {
	char **paths;                 /* relative to opdir */
	size_t n;
};

static void manifest_release(struct manifest *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->paths[i]);
	free(m->paths);
	m->paths = NULL;
	m->n = 0;
}

/* Reads MANIFEST: 0 (m filled, maybe empty when absent), -1 when unreadable. */
static int manifest_read(const char *opdir, struct manifest *m, struct diag *diag)
{
	char *path = journal_path(opdir, "MANIFEST");
	struct src_file *f = src_file_load(path);
	const char *s, *end;

	m->paths = NULL;
	m->n = 0;
	if (!f) {
		int missing = errno == ENOENT;
		if (!missing)
			diag_pos(diag, DIAG_ERROR, path, 0, 0, "cannot read the undo journal: %s", strerror(errno));
		free(path);
		return missing ? 0 : -1;
	}
	s = f->data;
	end = f->data + f->len;
	if (f->len < strlen(MANIFEST_HEAD) + 1 || strncmp(s, MANIFEST_HEAD "\n", strlen(MANIFEST_HEAD) + 1) != 0) {
		diag_pos(diag, DIAG_ERROR, path, 1, 0, "not an autotrace wire undo journal");
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
		if (!tab || tab == s) {
			diag_pos(diag, DIAG_ERROR, path, m->n + 2, 0, "bad line in the undo journal");
			src_file_free(f);
			free(path);
			manifest_release(m);
			return -1;
		}
		for (const char *q = s; q < tab; q++)
			idx = idx * 10 + (size_t)(*q - '0');
		if (idx != m->n) {
			diag_pos(diag, DIAG_ERROR, path, m->n + 2, 0, "bad entry number in the undo journal");
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

int wire_journal_save(struct wire *w, const char *const *paths, const struct src_file *const *orig, size_t n)
{
	struct manifest m;
	char *dir, *text, *mpath;
	size_t len = 0, cap;
	/* the records and the manifest as one batch of the operator directory's
	 * journal (cmd_wire holds its lock), so a kill leaves all or none */
	struct edit_lock *lock = edit_lock_covering(w->opdir[0] ? w->opdir : ".");
	struct edit_batch *b = NULL;
	int rc = -1;

	if (manifest_read(w->opdir, &m, w->diag) != 0)
		return -1;
	dir = path_join(w->opdir, WIRE_UNDO_DIR);
	/* OPDIR/.autotrace exists, with its .gitignore: the lock is in it */
	if (mkdir_p(dir, w->diag) != 0)
		goto out;
	if (lock)
		b = edit_batch_new(lock, 0);
	for (size_t i = 0; i < n; i++) {
		const char *rel = rel_to(w->opdir, paths[i]);
		size_t k = 0;
		char name[32], *p;
		while (k < m.n && strcmp(m.paths[k], rel) != 0)
			k++;
		if (k < m.n)
			continue; /* a file wired before keeps its first original */
		snprintf(name, sizeof(name), "%zu.orig", k);
		p = path_join(dir, name);
		if ((b ? edit_batch_add(b, p, orig[i]->data, orig[i]->len, w->diag)
		       : atomic_write(p, orig[i]->data, orig[i]->len, w->diag)) != 0) {
			free(p);
			goto out;
		}
		free(p);
		m.paths = xrealloc(m.paths, (m.n + 1) * sizeof(*m.paths));
		m.paths[m.n++] = xstrdup(rel);
	}
	cap = strlen(MANIFEST_HEAD) + 2;
	for (size_t k = 0; k < m.n; k++)
		cap += strlen(m.paths[k]) + 24;
	text = xmalloc(cap);
	len = (size_t)snprintf(text, cap, "%s\n", MANIFEST_HEAD);
	for (size_t k = 0; k < m.n; k++)
		len += (size_t)snprintf(text + len, cap - len, "%zu\t%s\n", k, m.paths[k]);
	mpath = path_join(dir, "MANIFEST");
	if (b) {
		rc = edit_batch_add(b, mpath, text, len, w->diag);
		if (rc == 0)
			rc = edit_batch_commit(b, w->diag);
		b = NULL;
	} else {
		rc = atomic_write(mpath, text, len, w->diag);
	}
	free(mpath);
	free(text);
out:
	edit_batch_abort(b);
	free(dir);
	manifest_release(&m);
	return rc;
}

static bool bytes_equal(const struct src_file *f, const char *data, size_t len)
{
	return f && f->len == len && memcmp(f->data, data, len) == 0;
}

int wire_journal_wired(struct wire *w, struct edit_batch *b, const char *const *paths,
		       const struct src_file *const *orig, const char *const *texts, const size_t *lens, size_t n)
{
	struct manifest m;
	int rc = 0;

	if (manifest_read(w->opdir, &m, w->diag) != 0)
		return -1;
	for (size_t i = 0; i < n && rc == 0; i++) {
		const char *rel = rel_to(w->opdir, paths[i]);
		size_t k = 0;
		char name[32], *op, *wp;
		struct src_file *o, *wd;
		while (k < m.n && strcmp(m.paths[k], rel) != 0)
			k++;
		if (k == m.n)
			continue;
		snprintf(name, sizeof(name), "%zu.orig", k);
		op = journal_path(w->opdir, name);
		snprintf(name, sizeof(name), "%zu.wired", k);
		wp = journal_path(w->opdir, name);
		o = src_file_load(op);
		wd = src_file_load(wp);
		/* recorded only when wire started from what the journal knows (the
		 * original, or what wire wrote last): text edited by hand in between
		 * leaves the record behind, so --undo will not discard it unasked */
		if (wd ? bytes_equal(wd, orig[i]->data, orig[i]->len) : bytes_equal(o, orig[i]->data, orig[i]->len))
			rc = edit_batch_add(b, wp, texts[i], lens[i], w->diag);
		src_file_free(o);
		src_file_free(wd);
		free(op);
		free(wp);
	}
	manifest_release(&m);
	return rc;
}

static bool same_bytes(const struct src_file *a, const struct src_file *b)
{
	return a && b && a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

/* Entry k of the journal: the original, what wire wrote (NULL for a journal
 * of an older autotrace) and the file now (NULL when it is gone). */
struct undo_entry {
	char *target;
	struct src_file *orig, *wired, *cur;
};

static void remove_journal(const char *opdir, size_t n)
{
	char *d = path_join(opdir, WIRE_UNDO_DIR), *mp;

	for (size_t k = 0; k < n; k++) {
		static const char *const suffix[] = { "orig", "wired" };
		for (int s = 0; s < 2; s++) {
			char name[32], *jp;
			snprintf(name, sizeof(name), "%zu.%s", k, suffix[s]);
			jp = journal_path(opdir, name);
			unlink(jp);
			free(jp);
		}
	}
	mp = journal_path(opdir, "MANIFEST");
	unlink(mp);
	free(mp);
	/* .autotrace/ itself goes with the lock, when nothing else is left in it */
	rmdir(d);
	free(d);
}

int wire_undo(struct edit_lock *lock, const char *opdir, bool dry_run, bool force, struct diag *diag)
{
	struct manifest m;
	struct undo_entry *e;
	int status = EXIT_OK;
	size_t restored = 0, changed = 0;

	if (manifest_read(opdir, &m, diag) != 0)
		return EXIT_BAD_INPUT;
	if (m.n == 0) {
		char *d = path_join(opdir, WIRE_UNDO_DIR);
		printf("%s: nothing to undo (no journal)\n", d);
		free(d);
		return EXIT_OK;
	}
	e = xcalloc(m.n, sizeof(*e));
	/* first every entry is read and checked: all files are restored or none */
	for (size_t k = 0; k < m.n; k++) {
		char name[32], *jp;
		e[k].target = path_join(opdir, m.paths[k]);
		snprintf(name, sizeof(name), "%zu.orig", k);
		jp = journal_path(opdir, name);
		e[k].orig = src_file_load(jp);
		if (!e[k].orig) {
			diag_pos(diag, DIAG_ERROR, jp, 0, 0, "cannot read the undo journal: %s", strerror(errno));
			status = EXIT_BAD_INPUT;
		}
		free(jp);
		snprintf(name, sizeof(name), "%zu.wired", k);
		jp = journal_path(opdir, name);
		e[k].wired = src_file_load(jp);
		free(jp);
		e[k].cur = src_file_load(e[k].target);
		if (e[k].orig && e[k].wired && !same_bytes(e[k].cur, e[k].orig) && !same_bytes(e[k].cur, e[k].wired)) {
			changed++;
			if (!force)
				diag_pos(diag, dry_run ? DIAG_WARNING : DIAG_ERROR, e[k].target, 0, 0,
					 "%s since `autotrace wire` wrote it: --undo would discard those edits",
					 e[k].cur ? "changed" : "removed");
		}
	}
	if (status == EXIT_OK && changed && !force && !dry_run) {
		diag_plain(diag, DIAG_NOTE,
			   "nothing restored; see what would be lost with `autotrace wire --undo --dry-run`, "
			   "then restore anyway with `autotrace wire --undo --force`");
		status = EXIT_BAD_INPUT;
	}
	if (status == EXIT_OK) {
		/* the files to restore, written together: all or none */
		const char **paths = xcalloc(m.n + 1, sizeof(*paths)), **texts = xcalloc(m.n + 1, sizeof(*texts));
		size_t *lens = xcalloc(m.n + 1, sizeof(*lens)), nw = 0;
		for (size_t k = 0; k < m.n; k++) {
			const struct undo_entry *x = &e[k];
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
		if (nw && edit_write_files(lock, paths, texts, lens, nw, diag) != 0) {
			diag_plain(diag, DIAG_ERROR, "wire --undo: nothing restored, the journal is kept");
			status = EXIT_BAD_INPUT;
		}
		for (size_t i = 0; i < nw && status == EXIT_OK; i++)
			printf("%s: restored\n", paths[i]);
		if (status == EXIT_OK)
			restored = nw;
		free(paths);
		free(texts);
		free(lens);
	}
	if (!dry_run && status == EXIT_OK) {
		remove_journal(opdir, m.n);
		printf("wire --undo: %zu file%s restored, journal removed\n", restored, restored == 1 ? "" : "s");
	}
	for (size_t k = 0; k < m.n; k++) {
		free(e[k].target);
		src_file_free(e[k].orig);
		src_file_free(e[k].wired);
		src_file_free(e[k].cur);
	}
	free(e);
	manifest_release(&m);
	return status;
}
