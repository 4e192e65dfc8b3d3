/* The edit lists of `autotrace wire`, their application, and the undo
 * journal OPDIR/.autotrace/wire-undo/: N.orig holds the original bytes of
 * one file, MANIFEST ("autotrace-wire-undo 1" then "N<TAB>path" lines,
 * paths relative to OPDIR) names them. The originals are written before the
 * manifest and the manifest before any source is touched, so an interrupted
 * wire can always be undone. */
#include "wire.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_write.h"
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
	int rc = -1;

	if (manifest_read(w->opdir, &m, w->diag) != 0)
		return -1;
	dir = path_join(w->opdir, WIRE_UNDO_DIR);
	if (mkdir_p(dir, w->diag) != 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const char *rel = rel_to(w->opdir, paths[i]);
		bool known = false;
		char name[32], *p;
		for (size_t k = 0; k < m.n && !known; k++)
			known = strcmp(m.paths[k], rel) == 0;
		if (known)
			continue;
		snprintf(name, sizeof(name), "%zu.orig", m.n);
		p = path_join(dir, name);
		if (atomic_write(p, orig[i]->data, orig[i]->len, w->diag) != 0) {
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
	rc = atomic_write(mpath, text, len, w->diag);
	free(mpath);
	free(text);
out:
	free(dir);
	manifest_release(&m);
	return rc;
}

int wire_undo(const char *opdir, bool dry_run, struct diag *diag)
{
	struct manifest m;
	int status = EXIT_OK;
	size_t restored = 0;

	if (manifest_read(opdir, &m, diag) != 0)
		return EXIT_BAD_INPUT;
	if (m.n == 0) {
		char *d = path_join(opdir, WIRE_UNDO_DIR);
		printf("%s: nothing to undo (no journal)\n", d);
		free(d);
		return EXIT_OK;
	}
	for (size_t k = 0; k < m.n; k++) {
		char name[32], *jp, *target = path_join(opdir, m.paths[k]);
		struct src_file *orig, *cur;
		snprintf(name, sizeof(name), "%zu.orig", k);
		jp = journal_path(opdir, name);
		orig = src_file_load(jp);
		if (!orig) {
			diag_pos(diag, DIAG_ERROR, jp, 0, 0, "cannot read the undo journal: %s", strerror(errno));
			status = EXIT_BAD_INPUT;
			free(jp);
			free(target);
			continue;
		}
		cur = src_file_load(target);
		if (cur && cur->len == orig->len && memcmp(cur->data, orig->data, orig->len) == 0) {
			/* already the original */
		} else if (dry_run) {
			udiff_print(stdout, target, cur ? cur->data : "", cur ? cur->len : 0, orig->data, orig->len);
		} else if (atomic_write(target, orig->data, orig->len, diag) != 0) {
			status = EXIT_INTERNAL;
		} else {
			printf("%s: restored\n", target);
			restored++;
		}
		src_file_free(cur);
		src_file_free(orig);
		free(jp);
		free(target);
	}
	if (!dry_run && status == EXIT_OK) {
		char *d = path_join(opdir, WIRE_UNDO_DIR), *top = path_join(opdir, ".autotrace"), *mp;
		for (size_t k = 0; k < m.n; k++) {
			char name[32], *jp;
			snprintf(name, sizeof(name), "%zu.orig", k);
			jp = journal_path(opdir, name);
			unlink(jp);
			free(jp);
		}
		mp = journal_path(opdir, "MANIFEST");
		unlink(mp);
		free(mp);
		rmdir(d);
		rmdir(top);  /* only when empty */
		printf("wire --undo: %zu file%s restored, journal removed\n", restored, restored == 1 ? "" : "s");
		free(d);
		free(top);
	}
	manifest_release(&m);
	return status;
}
