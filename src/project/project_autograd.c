/* The autograd Function a binding applies, and the facts of its form wire and G2 read. */
#include "project_autograd.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path_glob.h"
#include "path_rel.h"
#include "project_tokens.h"
#include "xalloc.h"

void autograd_cache_release(struct autograd_cache *c)
{
	for (size_t i = 0; i < c->n; i++) {
		pybind_file_release(&c->pbs[i]);
		src_file_free(c->files[i]);
	}
	free(c->files);
	free(c->pbs);
	memset(c, 0, sizeof(*c));
}

static bool found_in(const struct src_file *f, const struct pybind_file *pb, const char *name, struct autograd_ref *out)
{
	long k = pybind_autograd_named(pb, name);

	if (k < 0)
		return false;
	out->f = f;
	out->pb = pb;
	out->cls = k;
	return true;
}

/* The header at `path` (as paths are written), read once: from the model's
 * binding files, the cache, or the disk. NULL when it cannot be read. */
static const struct pybind_file *header(const struct project_model *p, const char *path, struct autograd_cache *c,
					const struct src_file **f)
{
	struct src_file *sf;

	for (size_t i = 0; i < p->npybinds; i++)
		if (strcmp(p->pybinds[i].f->path, path) == 0) {
			*f = p->pybinds[i].f;
			return &p->pybinds[i].pb;
		}
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->files[i]->path, path) == 0) {
			*f = c->files[i];
			return &c->pbs[i];
		}
	sf = src_file_load(path);
	if (!sf)
		return NULL;
	c->files = xrealloc(c->files, (c->n + 1) * sizeof(*c->files));
	c->pbs = xrealloc(c->pbs, (c->n + 1) * sizeof(*c->pbs));
	c->files[c->n] = sf;
	project_pybind(sf, &c->pbs[c->n]);
	*f = sf;
	return &c->pbs[c->n++];
}

/* The include `name` of file `from`, looked for from its directory and each
 * one above it inside the project root: the first that exists, its path as
 * paths are written (newly allocated), or NULL. */
static char *resolve_include(const struct project_model *p, const char *from, const char *name)
{
	char *dir, *slash, *found = NULL;

	if (name[0] == '/')
		return NULL;
	dir = xstrdup(from);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	for (int up = 0; up < 64 && !found; up++) {
		char *dabs = path_absolute(dir), *cand, *cabs, *parent;
		if (!dabs || !path_within(dabs, p->root.abs)) {
			free(dabs);
			break;
		}
		cand = path_join(dir, name);
		cabs = access(cand, R_OK) == 0 ? path_absolute(cand) : NULL;
		if (cabs && path_within(cabs, p->root.abs))
			found = path_normalize(cand);
		free(cabs);
		free(cand);
		free(dabs);
		parent = path_join(dir, "..");
		free(dir);
		dir = parent;
	}
	free(dir);
	return found;
}

bool project_autograd_find(const struct project_model *p, const struct src_file *bf, const struct pybind_file *bpb,
			   const char *name, struct autograd_cache *cache, struct autograd_ref *out)
{
	if (found_in(bf, bpb, name, out))
		return true;
	for (size_t i = 0; i < p->npybinds; i++)
		if (found_in(p->pybinds[i].f, &p->pybinds[i].pb, name, out))
			return true;
	for (size_t i = 0; i < bpb->nincludes; i++) {
		char *path = resolve_include(p, bf->path, bpb->includes[i]);
		const struct src_file *hf = NULL;
		const struct pybind_file *hpb = path ? header(p, path, cache, &hf) : NULL;
		free(path);
		if (hpb && found_in(hf, hpb, name, out))
			return true;
	}
	return false;
}

size_t project_autograd_appliers(const struct project_model *p, const struct src_file *f, const struct pybind_file *pb,
				 const char *api, struct autograd_cache *cache, void (*add)(const char *name, void *ctx),
				 void *ctx)
{
	size_t n = 0;

	for (size_t a = 0; a < pb->napplies; a++) {
		const struct pybind_apply *ap = &pb->applies[a];
		struct autograd_ref ref;
		bool runs = false;
		long fwd;
		if (ap->func < 0 || !project_autograd_find(p, f, pb, ap->cls, cache, &ref))
			continue;
		fwd = ref.pb->autograds[ref.cls].forward;
		for (size_t x = 0; fwd >= 0 && x < ref.pb->nexecs && !runs; x++)
			runs = ref.pb->execs[x].func == fwd && strcmp(ref.pb->execs[x].api, api) == 0;
		if (runs) {
			add(pb->funcs[ap->func].name, ctx);
			n++;
		}
	}
	return n;
}

/* `X::apply(` of class cls in text s. */
static bool applies(const char *s, const char *cls)
{
	size_t n = strlen(cls);

	for (const char *q = strstr(s, cls); q; q = strstr(q + 1, cls))
		if ((q == s || !tv_text_is_ident(q - 1, 1)) && strncmp(q + n, "::apply(", 8) == 0)
			return true;
	return false;
}

/* `v[i]` or `std::get<i>(v)`: the variable (newly allocated) and i; NULL otherwise. */
static char *indexed(const char *e, bool *get, long *i)
{
	const char *b = strchr(e, '['), *end;
	char *num_end;

	if (strncmp(e, "std::get<", 9) == 0) {
		*i = strtol(e + 9, &num_end, 10);
		if (num_end == e + 9 || strncmp(num_end, ">(", 2) != 0)
			return NULL;
		b = num_end + 2;
		end = strchr(b, ')');
		if (!end || end[1] || !tv_text_is_ident(b, (size_t)(end - b)))
			return NULL;
		*get = true;
		return xstrndup(b, (size_t)(end - b));
	}
	if (!b || !tv_text_is_ident(e, (size_t)(b - e)))
		return NULL;
	*i = strtol(b + 1, &num_end, 10);
	if (num_end == b + 1 || strcmp(num_end, "]") != 0)
		return NULL;
	*get = false;
	return xstrndup(e, (size_t)(b - e));
}

void autograd_return_of(const struct pybind_file *pb, long fi, const struct pybind_return *ret, const char *cls,
			struct autograd_return_form *out)
{
	memset(out, 0, sizeof(*out));
	out->kind = AUTOGRAD_RETURN_OTHER;
	if (ret->elems.n == 0)
		return;
	if (ret->elems.n == 1 && !ret->tuple) {
		const char *e = ret->elems.v[0];
		const struct pybind_var *v = tv_text_is_ident(e, strlen(e)) ? pybind_var_before(pb, fi, e, ret->range.start) : NULL;
		if (applies(e, cls) || (v && applies(v->init, cls))) {
			out->kind = AUTOGRAD_RETURN_WHOLE;
			return;
		}
	}
	for (size_t k = 0; k < ret->elems.n; k++) {
		bool get = false;
		long i = -1;
		char *var = indexed(ret->elems.v[k], &get, &i);
		const struct pybind_var *v = var ? pybind_var_before(pb, fi, var, ret->range.start) : NULL;
		if (!var || i != (long)k || !v || !applies(v->init, cls) || (k > 0 && (get != out->get || strcmp(var, out->var) != 0))) {
			free(var);
			free(out->var);
			memset(out, 0, sizeof(*out));
			out->kind = AUTOGRAD_RETURN_OTHER;
			return;
		}
		if (k == 0) {
			out->var = var;
			out->get = get;
		} else {
			free(var);
		}
	}
	out->kind = AUTOGRAD_RETURN_INDEXED;
	out->n = ret->elems.n;
}

void autograd_return_form_release(struct autograd_return_form *r)
{
	free(r->var);
	r->var = NULL;
}

bool autograd_marks(const struct src_file *f, const struct pybind_file *pb, long fi, const char *name,
		    struct pybind_range *call, struct pybind_range *list, bool *found)
{
	const struct pybind_func *fn = &pb->funcs[fi];
	struct tok_view tv;
	bool marks = false;

	*found = false;
	tok_view_init(&tv, f->data, f->len);
	for (size_t i = tv_at(&tv, fn->body.start); i + 1 < tv.n && tv.v[i].start < fn->body.end; i++) {
		size_t open = i + 1, close;
		if (!tv_is(&tv, i, "mark_non_differentiable") || !tv_punct(&tv, open, CXX_P_LPAREN) ||
		    tv.match[open] == TV_NONE)
			continue;
		close = tv.match[open];
		if (!*found) {
			*found = true;
			call->start = tv.v[i].start;
			call->end = tv.v[close].end;
			if (tv_punct(&tv, open + 1, CXX_P_LBRACE) && tv.match[open + 1] + 1 == close) {
				list->start = tv.v[open + 1].end;
				list->end = tv.v[close - 1].start;
			} else {
				list->start = list->end = tv.v[open].end;
			}
		}
		for (size_t k = open + 1; k < close; k++)
			marks = marks || (tv_ident(&tv, k) && tv_is(&tv, k, name));
	}
	tok_view_release(&tv);
	return marks;
}

bool autograd_grad_count(const struct src_file *f, const struct pybind_file *pb, long fi, struct pybind_range *num,
			 long *value)
{
	const struct pybind_func *fn = &pb->funcs[fi];
	const char *grads = fn->nparams >= 2 ? fn->params[1].name : NULL;
	struct tok_view tv;
	bool yes = false;

	if (!grads)
		return false;
	tok_view_init(&tv, f->data, f->len);
	for (size_t i = tv_at(&tv, fn->body.start); i + 5 < tv.n && tv.v[i].start < fn->body.end && !yes; i++) {
		size_t n;
		/* grads.size() == N, or N == grads.size() */
		if (!tv_is(&tv, i, grads) || !tv_punct(&tv, i + 1, CXX_P_DOT) || !tv_is(&tv, i + 2, "size") ||
		    !tv_punct(&tv, i + 3, CXX_P_LPAREN) || !tv_punct(&tv, i + 4, CXX_P_RPAREN))
			continue;
		if ((tv_punct(&tv, i + 5, CXX_P_EQ) || tv_punct(&tv, i + 5, CXX_P_NE)) && tv.v[i + 6].kind == CXX_TOK_NUMBER)
			n = i + 6;
		else if (i >= 2 && (tv_punct(&tv, i - 1, CXX_P_EQ) || tv_punct(&tv, i - 1, CXX_P_NE)) &&
			 tv.v[i - 2].kind == CXX_TOK_NUMBER)
			n = i - 2;
		else
			continue;
		num->start = tv.v[n].start;
		num->end = tv.v[n].end;
		*value = strtol(f->data + num->start, NULL, 0);
		yes = true;
	}
	tok_view_release(&tv);
	return yes;
}
