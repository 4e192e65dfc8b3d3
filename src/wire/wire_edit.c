/* The edit lists of `autotrace wire` and their application; the text helpers
 * the layers share. (The undo journal is undo_journal.c.) */
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
#include "path_glob.h"
#include "udiff.h"
#include "xalloc.h"

#define MANIFEST_HEAD "autotrace-wire-undo 1"

/* The edit list of f: by its path, since two layers may read one file
 * (a _proto.cpp holding both the infer functions and the REG_OP) and their
 * edits must go into one list. */
static struct wire_file *file_of(struct wire *w, const struct src_file *f)
{
	for (size_t i = 0; i < w->nfiles; i++)
		if (w->files[i].f == f || strcmp(w->files[i].f->path, f->path) == 0)
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

/* A file of the project already read (by the layer readers or by wire). */
static const struct src_file *already_read(const struct wire *w, const char *path)
{
	const struct project_model *p = w->p;

	for (size_t i = 0; i < w->nfiles; i++)
		if (strcmp(w->files[i].f->path, path) == 0)
			return w->files[i].f;
	for (size_t i = 0; i < w->nextra; i++)
		if (strcmp(w->extra[i]->path, path) == 0)
			return w->extra[i];
	for (size_t i = 0; i < w->ag.n; i++)
		if (strcmp(w->ag.files[i]->path, path) == 0)
			return w->ag.files[i];
	if (!p)
		return NULL;
	for (size_t i = 0; p->kernels_read && i < p->kernels.nfiles; i++)
		if (strcmp(p->kernels.files[i]->path, path) == 0)
			return p->kernels.files[i];
	for (size_t i = 0; i < p->nhosts; i++)
		if (strcmp(p->hosts[i].f->path, path) == 0)
			return p->hosts[i].f;
	for (size_t i = 0; i < p->ninfers; i++)
		if (strcmp(p->infers[i].f->path, path) == 0)
			return p->infers[i].f;
	for (size_t i = 0; i < p->naclnns; i++)
		if (strcmp(p->aclnns[i].f->path, path) == 0)
			return p->aclnns[i].f;
	for (size_t i = 0; i < p->npybinds; i++)
		if (strcmp(p->pybinds[i].f->path, path) == 0)
			return p->pybinds[i].f;
	return NULL;
}

const struct src_file *wire_load(struct wire *w, const char *path)
{
	const struct src_file *known = already_read(w, path);
	struct src_file *f;

	if (known)
		return known;
	f = src_file_load(path);
	if (!f) {
		diag_pos(w->diag, DIAG_ERROR, path, 0, 0, "cannot read: %s", strerror(errno));
		return NULL;
	}
	w->extra = xrealloc(w->extra, (w->nextra + 1) * sizeof(*w->extra));
	w->extra[w->nextra++] = f;
	return f;
}

const struct src_file *wire_load_py_naming_op(struct wire *w, const char *path)
{
	const struct project_model *p = w->p;
	size_t len = strlen(path);
	struct src_file *peek;
	bool named = false;

	if (len < 3 || strcmp(path + len - 3, ".py") != 0)
		return NULL;
	peek = src_file_load(path);
	for (size_t k = 0; peek && k < p->npy_names && !named; k++)
		named = src_file_has_word(peek, p->py_names[k], false);
	src_file_free(peek);
	return named ? wire_load(w, path) : NULL;
}

void wire_create(struct wire *w, const char *path, const char *text, const char *what)
{
	struct src_file *f = src_file_from_buffer(path, "", 0);
	struct wire_file *wf;

	w->extra = xrealloc(w->extra, (w->nextra + 1) * sizeof(*w->extra));
	w->extra[w->nextra++] = f;
	wf = file_of(w, f);
	wf->create = true;
	wire_edit(w, f, 0, 0, text, "%s", what);
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
	autograd_cache_release(&w->ag);
	free(w->prof_camel);
	free(w->base_path);
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
	struct edit_span *v = xcalloc(wf->n + 1, sizeof(*v));
	size_t *at = xcalloc(wf->n + 1, sizeof(*at)), bad = 0;
	int rc;

	xqsort(wf->v, wf->n, sizeof(*wf->v), edit_cmp);
	for (size_t i = 0; i < wf->n; i++) {
		v[i].start = wf->v[i].start;
		v[i].end = wf->v[i].end;
		v[i].text = wf->v[i].text;
	}
	rc = edit_splice(f->data, f->len, v, wf->n, out, len, at, &bad);
	if (rc != 0)
		diag_pos(w->diag, DIAG_ERROR, f->path, src_file_line(f, wf->v[bad].start), 0,
			 "internal error: overlapping edits (%s)", wf->v[bad].what);
	else
		for (size_t i = 0; i < wf->n; i++)
			wf->v[i].new_at = at[i];
	free(v);
	free(at);
	return rc;
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


void wire_each_project_file(struct wire *w, void (*each)(struct wire *w, const char *path, void *ctx), void *ctx)
{
	const struct project_model *p = w->p;
	struct diag quiet;

	diag_init_quiet(&quiet);
	/* paths as the model writes them: the operator directory's under it, the
	   rest of the project's under the root */
	for (int root = 0; root < 2; root++) {
		const char *top = root ? p->root.path : p->opts->opdir;
		const char *own = p->root.opdir_rel;
		size_t ol = strlen(own);
		char **all = NULL;
		size_t n = 0;
		if (root && (p->root.how == PROJECT_ROOT_OPDIR || strcmp(own, ".") == 0))
			break;
		if (path_walk(top, &all, &n, &quiet) != 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			char *path;
			if (root && strncmp(all[i], own, ol) == 0 && all[i][ol] == '/')
				continue;
			path = path_join(top, all[i]);
			each(w, path, ctx);
			free(path);
		}
		path_glob_free(all, n);
	}
}
