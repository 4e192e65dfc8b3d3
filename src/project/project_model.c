/* Loading an operator project for the gates: rules, globs, layer readers. */
#define _GNU_SOURCE /* memmem(3) */
#include "project_model.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "project_autograd.h"
#include "project_tokens.h"
#include "path_glob.h"
#include "path_rel.h"
#include "rule_find.h"
#include "xalloc.h"

/* Does a `from MODULE import ...` of m, MODULE not torch's, bind `name` (a
 * Python function of another module, maybe named as the op)? */
static bool imported_python(const struct py_module *m, const char *name)
{
	size_t nl = strlen(name);

	for (size_t s = 0; s < m->nstmts; s++) {
		const struct py_stmt *st = &m->stmts[s];
		size_t i = st->tok_start, e = st->tok_end;
		if (st->kind != PY_STMT_SIMPLE || i >= e || !py_tok_is(m, i, "from"))
			continue;
		if (i + 1 < e && (py_tok_is(m, i + 1, "torch") || py_tok_is(m, i + 1, "torch_npu")))
			continue;
		while (i < e && !py_tok_is(m, i, "import"))
			i++;
		for (i++; i < e; i++) {
			const struct py_token *t = &m->toks[i];
			/* the bound name: the one after `as`, else the imported one */
			if (i + 2 < e && py_tok_is(m, i + 1, "as"))
				continue;
			if (t->end - t->start == nl && memcmp(m->data + t->start, name, nl) == 0)
				return true;
		}
	}
	return false;
}

/* Is `name` a parameter of a function of m, or assigned in m a value that
 * is no torch.ops reference (`compressor = self.compressor`: an object
 * called as a function)? */
static bool bound_locally(const struct py_module *m, const char *name)
{
	for (size_t i = 0; i < m->nfuncs; i++)
		for (size_t k = 0; k < m->funcs[i].nparams; k++)
			if (strcmp(m->funcs[i].params[k], name) == 0)
				return true;
	for (size_t i = 0; i < m->nassigns; i++) {
		const struct py_assign *a = &m->assigns[i];
		bool named = false;
		for (size_t t = 0; t < a->ntargets && !named; t++)
			named = strcmp(a->targets[t].text, name) == 0;
		if (named && !memmem(m->data + a->value.start, a->value.end - a->value.start, "ops.", 4))
			return true;
	}
	return false;
}

bool project_is_op_call(const struct project_model *p, const struct py_module *m, const struct py_call *c)
{
	bool named = false;

	for (size_t i = 0; i < p->npy_names && !named; i++)
		named = strcmp(c->name, p->py_names[i]) == 0;
	if (!named)
		return false;
	if (!c->callee_text)
		return true;
	if (strchr(c->callee_text, '.')) {
		/* mod.name(...) of a Python module or object the module imports
		   from one not torch's (`from pkg import chunk_o`) */
		char *first = xstrndup(c->callee_text, strcspn(c->callee_text, "."));
		bool python = imported_python(m, first);
		free(first);
		return !python;
	}
	/* a bare name the module defines a function of is that function (a
	   Python wrapper named as the op, with arguments of its own) */
	for (size_t i = 0; i < m->nfuncs; i++)
		if (strcmp(m->funcs[i].name, c->name) == 0)
			return false;
	return !imported_python(m, c->name) && !bound_locally(m, c->name);
}

bool project_profiling_suffix(const char *name)
{
	char *k = tv_name_key(name);
	size_t n = strlen(k);
	bool yes = n > 9 && strcmp(k + n - 9, "profiling") == 0;

	free(k);
	return yes;
}

const char *project_anchor(const struct project_model *p)
{
	for (size_t i = 0; i < p->policy->nsources; i++) {
		const char *path = p->policy->sources[i]->path;
		const char *base = strrchr(path, '/');
		if (strcmp(base ? base + 1 : path, "autotrace.rules") == 0)
			return path;
	}
	if (p->op_file)
		return p->op_file->path;
	if (p->kernels_read && p->kernels.n)
		return p->kernels.v[0].file->path;
	return NULL;
}

struct project_text project_globs_text(const struct rule_strlist *l)
{
	struct project_text t;
	size_t len = 0, room = sizeof(t.s) - 8; /* ", ..." and the NUL */

	t.s[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		size_t n = strlen(l->v[i]) + (i ? 2 : 0);
		if (len + n > room) {
			memcpy(t.s + len, ", ...", 6);
			break;
		}
		len += (size_t)snprintf(t.s + len, sizeof(t.s) - len, "%s%s", i ? ", " : "", l->v[i]);
	}
	return t;
}

static void add_py_name(struct project_model *p, const char *name)
{
	for (size_t i = 0; i < p->npy_names; i++)
		if (strcmp(p->py_names[i], name) == 0)
			return;
	p->py_names = xrealloc(p->py_names, (p->npy_names + 1) * sizeof(*p->py_names));
	p->py_names[p->npy_names++] = xstrdup(name);
}

/* ---- project-level layers ---- */

/* The files of one search: paths as they are written, from the operator
 * directory or from the project root. */
struct search {
	char **paths;
	size_t n;
};

static void search_release(struct search *s)
{
	path_glob_free(s->paths, s->n);
	s->paths = NULL;
	s->n = 0;
}

/* True when rel (relative to the root) lies in another operator's directory:
 * one that holds op_host/ or op_kernel/ and is not the operator's. */
static bool in_other_operator(char *const *opdirs, size_t nopdirs, const char *rel)
{
	for (size_t i = 0; i < nopdirs; i++) {
		size_t n = strlen(opdirs[i]);
		if (strncmp(rel, opdirs[i], n) == 0 && rel[n] == '/')
			return true;
	}
	return false;
}

/* Every file under the project root, outside the operator directory, once per
 * project; with the operator directories found on the way. */
struct project_files {
	bool walked;
	char **rel;
	size_t n;
	char **opdirs;
	size_t nopdirs;
};

static void project_files_walk(struct project_model *p, struct project_files *pf, struct diag *diag)
{
	char **all = NULL;
	size_t n = 0, k = 0;
	const char *own = p->root.opdir_rel;
	size_t ol = strlen(own);

	if (pf->walked)
		return;
	pf->walked = true;
	if (p->root.how == PROJECT_ROOT_OPDIR || strcmp(own, ".") == 0)
		return;
	if (path_walk(p->root.path, &all, &n, diag) != 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const char *seg = strstr(all[i], "op_host/") ? strstr(all[i], "op_host/") : strstr(all[i], "op_kernel/");
		if (seg && (seg == all[i] || seg[-1] == '/')) {
			size_t dl = seg == all[i] ? 0 : (size_t)(seg - all[i] - 1);
			if (dl && !(dl == ol && strncmp(all[i], own, ol) == 0) &&
			    (pf->nopdirs == 0 || strlen(pf->opdirs[pf->nopdirs - 1]) != dl ||
			     strncmp(pf->opdirs[pf->nopdirs - 1], all[i], dl) != 0)) {
				pf->opdirs = xrealloc(pf->opdirs, (pf->nopdirs + 1) * sizeof(*pf->opdirs));
				pf->opdirs[pf->nopdirs++] = xstrndup(all[i], dl);
			}
		}
		if (strncmp(all[i], own, ol) == 0 && all[i][ol] == '/')
			free(all[i]); /* the operator directory is searched on its own */
		else
			all[k++] = all[i];
	}
	pf->rel = all;
	pf->n = k;
}

static void project_files_release(struct project_files *pf)
{
	path_glob_free(pf->rel, pf->n);
	path_glob_free(pf->opdirs, pf->nopdirs);
	memset(pf, 0, sizeof(*pf));
}

/* The candidates of a layer: under the operator directory, or (root) under the
 * project root, outside other operators' directories unless `others`. */
static void candidates(struct project_model *p, struct project_files *pf, const struct rule_strlist *globs, bool root,
		       bool others, struct search *out, struct diag *diag)
{
	memset(out, 0, sizeof(*out));
	if (!root) {
		char **found = NULL;
		size_t n = 0;
		if (path_glob(p->opts->opdir, globs->v, globs->n, &found, &n, diag) != 0)
			return;
		out->paths = xmalloc((n ? n : 1) * sizeof(*out->paths));
		for (size_t i = 0; i < n; i++)
			out->paths[out->n++] = path_join(p->opts->opdir, found[i]);
		path_glob_free(found, n);
		return;
	}
	project_files_walk(p, pf, diag);
	out->paths = xmalloc((pf->n ? pf->n : 1) * sizeof(*out->paths));
	for (size_t i = 0; i < pf->n; i++) {
		bool keep = false;
		for (size_t g = 0; g < globs->n && !keep; g++)
			keep = path_glob_match(globs->v[g], pf->rel[i]);
		if (keep && (others || !in_other_operator(pf->opdirs, pf->nopdirs, pf->rel[i])))
			out->paths[out->n++] = path_join(p->root.path, pf->rel[i]);
	}
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* True when `word` occurs in the file as a whole identifier (`prefix` allowed
 * right before it: "aclnn" + "Foo" + "GetWorkspaceSize"). */
static bool text_has(const struct src_file *f, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= f->len; i++)
		if (f->data[i] == word[0] && memcmp(f->data + i, word, n) == 0 && (i == 0 || !word_char(f->data[i - 1])) &&
		    (i + n == f->len || !word_char(f->data[i + n])))
			return true;
	return false;
}

/* A string literal that starts with `name` and ends it (`"name(` or `"name"`). */
static bool text_has_literal(const struct src_file *f, const char *name)
{
	size_t n = strlen(name);

	for (size_t i = 0; i + n + 2 <= f->len; i++)
		if (f->data[i] == '"' && memcmp(f->data + i + 1, name, n) == 0 &&
		    (f->data[i + 1 + n] == '"' || f->data[i + 1 + n] == '(' || f->data[i + 1 + n] == ' '))
			return true;
	return false;
}

/* aclnn: the files that declare, define or call aclnn[Inner]<Op>GetWorkspaceSize. */
static bool aclnn_relevant(const struct project_model *p, const struct src_file *f)
{
	char *a, *b;
	bool yes;

	if (!p->op || !p->op->name[0])
		return false;
	a = xasprintf("aclnn%sGetWorkspaceSize", p->op->name);
	b = xasprintf("aclnnInner%sGetWorkspaceSize", p->op->name);
	yes = text_has(f, a) || text_has(f, b);
	free(a);
	free(b);
	return yes;
}

static void add_file(struct src_file ***v, size_t *n, struct src_file *f)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = f;
}

static void load_aclnn(struct project_model *p, struct project_files *pf, struct diag *diag)
{
	struct src_file **files = NULL;
	size_t n = 0;

	/* the operator directory's, and the project's (a header of the API may
	   sit in a shared include directory) */
	for (int root = 0; root < 2; root++) {
		struct search c;
		size_t before = n;
		if (root && p->root.how == PROJECT_ROOT_OPDIR)
			break;
		candidates(p, pf, &p->policy->aclnn, root, false, &c, diag);
		for (size_t i = 0; i < c.n; i++) {
			struct src_file *f = src_file_load(c.paths[i]);
			if (f && aclnn_relevant(p, f))
				add_file(&files, &n, f);
			else
				src_file_free(f);
		}
		search_release(&c);
		if (n > before && (root || p->aclnn_where == PROJECT_WHERE_NONE))
			p->aclnn_where = root ? PROJECT_WHERE_ROOT : PROJECT_WHERE_OPDIR;
	}
	p->aclnns = n ? xcalloc(n, sizeof(*p->aclnns)) : NULL;
	for (size_t i = 0; i < n; i++) {
		p->aclnns[i].f = files[i];
		project_aclnn(files[i]->data, files[i]->len, &p->aclnns[i].ac);
	}
	p->naclnns = n;
	free(files);
}

static void add_name(char ***v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], name) == 0)
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(name);
}

static bool has_name(char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], name) == 0)
			return true;
	return false;
}

static void add_pybind(struct project_model *p, struct src_file *f, struct pybind_file *pb)
{
	for (size_t i = 0; i < p->npybinds; i++)
		if (strcmp(p->pybinds[i].f->path, f->path) == 0) {
			pybind_file_release(pb);
			src_file_free(f);
			return;
		}
	p->pybinds = xrealloc(p->pybinds, (p->npybinds + 1) * sizeof(*p->pybinds));
	p->pybinds[p->npybinds].f = f;
	p->pybinds[p->npybinds].pb = *pb;
	p->npybinds++;
}

struct bind_names {
	struct project_model *p;
};

static void add_bind_name(const char *name, void *ctx)
{
	struct bind_names *bn = ctx;

	add_name(&bn->p->bind_funcs, &bn->p->nbind_funcs, name);
}

/* The candidates of a layer in the operator directory and under the project
 * root together (the root's without the operator directory's, which it
 * searches on its own). */
static void candidates_both(struct project_model *p, struct project_files *pf, const struct rule_strlist *globs,
			    bool others, struct search *out, struct diag *diag)
{
	struct search r;

	candidates(p, pf, globs, false, others, out, diag);
	if (p->root.how == PROJECT_ROOT_OPDIR)
		return;
	candidates(p, pf, globs, true, others, &r, diag);
	out->paths = xrealloc(out->paths, (out->n + r.n + 1) * sizeof(*out->paths));
	memcpy(out->paths + out->n, r.paths, r.n * sizeof(*r.paths));
	out->n += r.n;
	free(r.paths);
}

/* pybind: the files that run EXEC_NPU_CMD(aclnn<Op>, ...), in the operator
 * directory and under the project root alike (an adapter inside the operator
 * directory is registered by a binding file of the project); then the files
 * that register the torch.ops names those functions are registered under
 * (the schema, meta functions), wherever they are. */
static void load_pybind(struct project_model *p, struct project_files *pf, struct diag *diag)
{
	char *api;
	char **names = NULL;
	size_t nnames = 0;
	struct search c;

	if (!p->op || !p->op->name[0])
		return;
	api = xasprintf("aclnn%s", p->op->name);
	/* bindings shared by several operators live in any directory */
	candidates_both(p, pf, &p->policy->pybind, true, &c, diag);
	for (size_t i = 0; i < c.n; i++) {
		struct src_file *f = src_file_load(c.paths[i]);
		struct pybind_file pb;
		bool ours = false;
		if (!f || !((text_has(f, "EXEC_NPU_CMD") && text_has(f, api)) || strstr(f->data, "::apply("))) {
			src_file_free(f);
			continue;
		}
		project_pybind(f, &pb);
		for (size_t x = 0; x < pb.nexecs; x++)
			if (strcmp(pb.execs[x].api, api) == 0 && pb.execs[x].func >= 0) {
				ours = true;
				add_name(&p->bind_funcs, &p->nbind_funcs, pb.funcs[pb.execs[x].func].name);
			}
		/* a function returning what an autograd Function runs (project_autograd.h) */
		{
			struct autograd_cache ag = { NULL, NULL, 0 };
			struct bind_names bn = { p };
			if (project_autograd_appliers(p, f, &pb, api, &ag, add_bind_name, &bn))
				ours = true;
			autograd_cache_release(&ag);
		}
		if (ours)
			add_pybind(p, f, &pb);
		else {
			pybind_file_release(&pb);
			src_file_free(f);
		}
	}
	/* the torch.ops names of those functions, then every file registering them */
	for (size_t i = 0; i < c.n && p->npybinds; i++) {
		struct src_file *f = src_file_load(c.paths[i]);
		bool maybe = false;
		for (size_t k = 0; f && k < p->nbind_funcs && !maybe; k++)
			maybe = text_has(f, p->bind_funcs[k]);
		if (maybe) {
			struct pybind_file pb;
			project_pybind(f, &pb);
			for (size_t o = 0; o < pb.nnames; o++)
				if (pb.names[o].impl_fn && has_name(p->bind_funcs, p->nbind_funcs, pb.names[o].impl_fn))
					add_name(&names, &nnames, pb.names[o].name);
			pybind_file_release(&pb);
		}
		src_file_free(f);
	}
	for (size_t i = 0; i < c.n && nnames; i++) {
		struct src_file *f = src_file_load(c.paths[i]);
		struct pybind_file pb;
		bool reg = false;
		for (size_t k = 0; f && k < nnames && !reg; k++)
			reg = text_has_literal(f, names[k]);
		if (!reg) {
			src_file_free(f);
			continue;
		}
		project_pybind(f, &pb);
		reg = false;
		for (size_t o = 0; o < pb.nnames; o++)
			if (has_name(names, nnames, pb.names[o].name)) {
				reg = true;
				if (pb.names[o].impl_fn)
					add_name(&p->bind_funcs, &p->nbind_funcs, pb.names[o].impl_fn);
			}
		if (reg)
			add_pybind(p, f, &pb);
		else {
			pybind_file_release(&pb);
			src_file_free(f);
		}
	}
	search_release(&c);
	p->pybind_where = PROJECT_WHERE_NONE;
	for (size_t b = 0; b < p->npybinds; b++) {
		size_t ol = strlen(p->opts->opdir);
		/* the operator directory's candidates are written under it */
		bool inside = strncmp(p->pybinds[b].f->path, p->opts->opdir, ol) == 0 && p->pybinds[b].f->path[ol] == '/';
		if (!inside || p->pybind_where == PROJECT_WHERE_NONE)
			p->pybind_where = inside ? PROJECT_WHERE_OPDIR : PROJECT_WHERE_ROOT;
	}
	for (size_t i = 0; i < nnames; i++) {
		if (!project_profiling_suffix(names[i]))
			add_py_name(p, names[i]);
		free(names[i]);
	}
	free(names);
	free(api);
}

/* The direct launches of the operator's kernel entries (the chosen one, else
 * every entry of its kernel directory), in the C/C++ files of the operator
 * directory and of the project that are not its device code. */
static void load_launch(struct project_model *p, struct project_files *pf, struct diag *diag)
{
	struct search c, h;
	char **entries = NULL, **paths;
	size_t nentries = 0, n = 0, kl = p->kernel_root ? strlen(p->kernel_root) : 0;

	if (!p->kernels_read || p->naclnns || p->npybinds)
		return;
	for (size_t k = 0; k < p->kernels.n; k++) {
		const char *name = p->kernels.v[k].name, *colon = strrchr(name, ':');
		if (!p->choice.entry || strcmp(colon ? colon + 1 : name, p->choice.entry) == 0)
			add_name(&entries, &nentries, colon ? colon + 1 : name);
	}
	/* the bindings' files, and the operator's host sources whatever the pybind patterns say */
	candidates_both(p, pf, &p->policy->pybind, true, &c, diag);
	candidates(p, pf, &p->policy->host, false, false, &h, diag);
	paths = xmalloc((c.n + h.n + 1) * sizeof(*paths));
	for (size_t i = 0; i < c.n + h.n; i++) {
		char *path = i < c.n ? c.paths[i] : h.paths[i - c.n];
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = strcmp(paths[k], path) == 0;
		if (!seen && !(kl && strncmp(path, p->kernel_root, kl) == 0 && path[kl] == '/'))
			paths[n++] = path;
	}
	project_launch_read(&p->launch, paths, n, entries, nentries, p->profiling);
	free(paths);
	search_release(&c);
	search_release(&h);
	path_glob_free(entries, nentries);
	project_launch_names(p);
}

void project_launch_names(struct project_model *p)
{
	if (!p->launch.nsites || !p->launch.nnames)
		return;
	path_glob_free(p->py_names, p->npy_names);
	p->py_names = NULL;
	p->npy_names = 0;
	for (size_t i = 0; i < p->launch.nnames; i++)
		if (!project_profiling_suffix(p->launch.names[i]))
			add_py_name(p, p->launch.names[i]);
}

bool project_launch_form(const struct project_model *p)
{
	return p->launch.nsites > 0 && p->naclnns == 0 && p->npybinds == 0;
}

/* The operator: the one chosen, else the first OpDef op with the profiling
 * output (else the first op). */
static void derive_op(struct project_model *p)
{
	p->prof_out = -1;
	p->py_returns = -1;
	p->py_main = -1;
	if (p->choice.host >= 0) {
		const struct opdef_op *op = &p->hosts[p->choice.host].od.ops[p->choice.op];
		p->op = op;
		p->op_file = p->hosts[p->choice.host].f;
		for (size_t i = 0, k = 0; i < op->nparams && p->prof_out < 0; i++)
			if (op->params[i].output && tv_names_profiling(op->params[i].name, p->profiling))
				p->prof_out = (long)k;
			else if (op->params[i].output)
				k++;
		if (p->choice.count > 1)
			return;
	}
	for (size_t h = 0; h < p->nhosts && p->prof_out < 0; h++)
		for (size_t o = 0; o < p->hosts[h].od.nops; o++) {
			const struct opdef_op *op = &p->hosts[h].od.ops[o];
			long k = 0;
			if (op->nparams == 0)
				continue;
			if (!p->op) {
				p->op = op;
				p->op_file = p->hosts[h].f;
			}
			for (size_t i = 0; i < op->nparams; i++) {
				if (!op->params[i].output)
					continue;
				if (tv_names_profiling(op->params[i].name, p->profiling)) {
					p->op = op;
					p->op_file = p->hosts[h].f;
					p->prof_out = k;
					break;
				}
				k++;
			}
			if (p->prof_out >= 0)
				break;
		}
}

/* True when the file name of `path` holds `key` (lowercase, no underscores). */
static bool file_names_key(const char *path, const char *key)
{
	const char *b = strrchr(path, '/');
	char *k = tv_name_key(b ? b + 1 : path);
	bool yes = *key && strstr(k, key) != NULL;

	free(k);
	return yes;
}

bool project_sample_read(const struct project_model *p, const char *path, struct project_sample *out)
{
	struct src_file *f = src_file_load(path);
	struct py_module *m;
	bool calls = false, mentions = false;

	for (size_t k = 0; f && k < p->npy_names && !mentions; k++)
		mentions = text_has(f, p->py_names[k]);
	if (!mentions) {
		src_file_free(f);
		return false;
	}
	m = py_scan(f->data, f->len);
	for (size_t k = 0; k < m->ncalls && !calls; k++)
		calls = project_is_op_call(p, m, &m->calls[k]);
	if (!calls) {
		py_module_free(m);
		src_file_free(f);
		return false;
	}
	out->f = f;
	out->py = m;
	return true;
}

/* samples: the scripts that call one of the torch.ops names. */
static void load_samples(struct project_model *p, struct project_files *pf, struct diag *diag)
{
	char *key = NULL;

	if (p->npy_names == 0)
		return;
	for (int root = 0; root < 2 && p->nsamples == 0; root++) {
		struct search c;
		size_t named = 0;
		if (root && p->root.how == PROJECT_ROOT_OPDIR)
			break;
		candidates(p, pf, &p->policy->samples, root, false, &c, diag);
		for (size_t i = 0; i < c.n; i++) {
			struct project_sample sm;
			if (!project_sample_read(p, c.paths[i], &sm))
				continue;
			p->samples = xrealloc(p->samples, (p->nsamples + 1) * sizeof(*p->samples));
			p->samples[p->nsamples++] = sm;
		}
		search_release(&c);
		if (!p->nsamples)
			continue;
		p->samples_where = root ? PROJECT_WHERE_ROOT : PROJECT_WHERE_OPDIR;
		/* a project's tests call shared torch.ops names for other operators too:
		   under the root, the scripts named after the operator, when there are such */
		if (root && p->op) {
			const char *base = strrchr(p->root.opdir_abs, '/');
			key = tv_name_key(base ? base + 1 : p->root.opdir_abs);
			for (size_t i = 0; i < p->nsamples; i++)
				named += file_names_key(p->samples[i].f->path, key);
			if (named && named < p->nsamples) {
				size_t k = 0;
				for (size_t i = 0; i < p->nsamples; i++) {
					if (file_names_key(p->samples[i].f->path, key)) {
						p->samples[k++] = p->samples[i];
					} else {
						py_module_free(p->samples[i].py);
						src_file_free(p->samples[i].f);
					}
				}
				p->nsamples = k;
			}
			free(key);
			key = NULL;
		}
	}
}

const struct infer_impl *project_infer_impl(const struct project_model *p, const struct project_infer **file)
{
	if (file)
		*file = NULL;
	if (!p->op)
		return NULL;
	for (size_t i = 0; i < p->ninfers; i++)
		for (size_t m = 0; m < p->infers[i].inf.nimpls; m++) {
			const struct infer_impl *impl = &p->infers[i].inf.impls[m];
			if (strcmp(impl->op, p->op->name) != 0 || (!impl->shape_func && !impl->dtype_func))
				continue;
			if (file)
				*file = &p->infers[i];
			return impl;
		}
	return NULL;
}

const struct infer_impl *project_infer_registration(const struct project_model *p, enum infer_use_kind kind,
						    const struct project_infer **file)
{
	for (size_t i = 0; p->op && i < p->ninfers; i++)
		for (size_t m = 0; m < p->infers[i].inf.nimpls; m++) {
			const struct infer_impl *impl = &p->infers[i].inf.impls[m];
			if (strcmp(impl->op, p->op->name) == 0 && (kind == INFER_SHAPE ? impl->shape_func : impl->dtype_func)) {
				if (file)
					*file = &p->infers[i];
				return impl;
			}
		}
	return NULL;
}

/* A layer that nothing in the project holds is absent: left out like the
 * rules' `without`, and said so. The binding is absent when no binding file
 * runs the op and the op is not a direct launch (whose host function is its
 * binding); the samples when no script calls one of its torch.ops names, or
 * when the binding is absent (no Python call can receive the tensor). */
static void mark_absent(struct project_model *p)
{
	if (!p->without_binding && p->npybinds == 0 && !project_launch_form(p) && (p->op || p->naclnns)) {
		p->absent_binding = true;
		p->without_binding = true;
	}
	/* with no binding, nothing returns the tensor to Python: the samples
	   that call the op cannot take it, whatever they are */
	if (!p->without_samples && (p->absent_binding || p->nsamples == 0) && (p->op || project_launch_form(p))) {
		p->absent_samples = true;
		p->without_samples = true;
	}
}

/* The values binding function fi returns before the profiling tensor, when
 * every return statement of it agrees; -1 otherwise (none, a bare return,
 * a list of tensors, returns that disagree). */
static long binding_arity(const struct src_file *f, const struct pybind_file *pb, long fi, const char *prof)
{
	const struct pybind_func *fn = &pb->funcs[fi];
	char *rtype = xstrndup(f->data + fn->return_type.start, fn->return_type.end - fn->return_type.start);
	bool list = pybind_type_is_tensor_list(rtype);
	long n = -1;

	free(rtype);
	/* an autograd Function's forward: what its applier returns is counted there */
	if (list || pybind_autograd_of_func(pb, fi) >= 0)
		return -1;
	for (size_t r = 0; r < pb->nreturns; r++) {
		const struct pybind_return *ret = &pb->returns[r];
		const char *last;
		long k;
		if (ret->func != fi)
			continue;
		if (ret->elems.n == 0)
			return -1;
		last = ret->elems.v[ret->elems.n - 1];
		if (ret->tuple)
			k = (long)ret->elems.n - (tv_names_profiling(last, prof) ? 1 : 0);
		else if (fn->tuple_arity > 0)
			/* `return outs;` of a std::tuple, or std::tuple_cat(outs, make_tuple(prof)) */
			k = fn->tuple_arity - (pybind_tuple_cat_last(last, prof) ? 1 : 0);
		else
			k = tv_names_profiling(last, prof) ? 0 : 1;
		if (k <= 0 || (n >= 0 && k != n))
			return -1;
		n = k;
	}
	return n;
}

/* p->py_main: the arity every binding function that runs the op agrees on. */
static void read_py_main(struct project_model *p)
{
	char *api;

	p->py_main = -1;
	if (!p->op || !p->op->name[0])
		return;
	api = xasprintf("aclnn%s", p->op->name);
	for (size_t b = 0; b < p->npybinds; b++) {
		const struct pybind_file *pb = &p->pybinds[b].pb;
		for (size_t x = 0; x < pb->nexecs; x++) {
			long k;
			if (strcmp(pb->execs[x].api, api) != 0 || pb->execs[x].func < 0)
				continue;
			k = binding_arity(p->pybinds[b].f, pb, pb->execs[x].func, p->profiling);
			if (k < 0 || (p->py_main >= 0 && k != p->py_main)) {
				p->py_main = -1;
				free(api);
				return;
			}
			p->py_main = k;
		}
	}
	free(api);
}

/* Mode `auto`: A when the binding returns only what its caller passed in. */
static void decide_mode(struct project_model *p)
{
	bool any = false, caller_outputs = true;
	char *api;

	if (p->policy->mode != RULE_MODE_AUTO) {
		p->required = p->policy->mode == RULE_MODE_REQUIRED;
		return;
	}
	if (p->without_binding) {
		p->required = true;
		p->mode_reason = p->absent_binding ? "no torch binding in the project runs the op: mode B, the default"
						   : "the binding is left out of this project (without binding): mode B, the default";
		return;
	}
	if (project_launch_form(p)) {
		p->required = true;
		p->mode_reason = "the host function launches the kernel directly: mode B (it allocates the profiling tensor, "
				 "passes it to the kernel and returns it last)";
		return;
	}
	if (!p->op) {
		p->required = true;
		p->mode_reason = "no OpDef: mode B, the default";
		return;
	}
	api = xasprintf("aclnn%s", p->op->name);
	for (size_t b = 0; b < p->npybinds; b++) {
		const struct pybind_file *pb = &p->pybinds[b].pb;
		for (size_t x = 0; x < pb->nexecs; x++) {
			const struct pybind_func *fn;
			if (strcmp(pb->execs[x].api, api) != 0 || pb->execs[x].func < 0)
				continue;
			fn = &pb->funcs[pb->execs[x].func];
			for (size_t r = 0; r < pb->nreturns; r++) {
				if (pb->returns[r].func != pb->execs[x].func)
					continue;
				for (size_t e = 0; e < pb->returns[r].elems.n; e++) {
					bool param = false;
					any = true;
					for (size_t k = 0; k < fn->nparams; k++)
						param = param || (fn->params[k].name &&
								  strcmp(fn->params[k].name, pb->returns[r].elems.v[e]) == 0);
					caller_outputs = caller_outputs && param;
				}
			}
			if (!any) {
				/* a binding that returns nothing writes into the caller's tensors */
				const char *rt = p->pybinds[b].f->data + fn->return_type.start;
				size_t rl = fn->return_type.end - fn->return_type.start;
				for (size_t i = 0; i + 4 <= rl; i++)
					if (memcmp(rt + i, "void", 4) == 0)
						any = true;
			}
		}
	}
	free(api);
	if (!any) {
		p->required = true;
		p->mode_reason = p->npybinds ? "the binding's returns are not read: mode B, the default"
					     : "no binding: mode B, the default";
	} else if (caller_outputs) {
		p->required = false;
		p->mode_reason = "the binding returns the output tensors its caller passes in: mode A (an optional "
				 "profiling tensor from the caller, the return arity unchanged)";
	} else {
		p->required = true;
		p->mode_reason = "the binding allocates the outputs it returns: mode B (one more returned value, last)";
	}
}

struct project_model *project_load(const struct project_opts *opts, struct diag *diag)
{
	struct project_model *p;
	struct src_file **files;
	struct project_files pf;
	size_t n;
	struct stat st;

	if (stat(opts->opdir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_plain(diag, DIAG_ERROR, "gate: %s is not a directory", opts->opdir);
		return NULL;
	}
	memset(&pf, 0, sizeof(pf));
	p = xcalloc(1, sizeof(*p));
	p->opts = opts;
	p->policy = rule_find_and_load(opts->rules, opts->opdir, diag);
	if (!p->policy)
		goto fail;
	p->profiling = p->policy->profiling.value ? p->policy->profiling.value : "profiling_data";
	if (project_root_find(opts->opdir, p->policy, &p->root, diag) != 0)
		goto fail;

	if (project_hosts_load(opts->opdir, p->policy, &p->hosts, &p->nhosts, diag) != 0 ||
	    project_op_choose(p->hosts, p->nhosts, opts->opdir, p->policy, opts->op, &p->choice, diag) != 0)
		goto fail;

	if (project_layer_load(opts->opdir, &p->policy->infer, &files, &n, diag) != 0)
		goto fail;
	p->infers = n ? xcalloc(n, sizeof(*p->infers)) : NULL;
	for (size_t i = 0; i < n; i++) {
		p->infers[i].f = files[i];
		project_infer(files[i], &p->infers[i].inf);
	}
	p->ninfers = n;
	free(files);

	if (project_layer_load(opts->opdir, &p->policy->graph, &files, &n, diag) != 0)
		goto fail;
	p->graphs = n ? xcalloc(n, sizeof(*p->graphs)) : NULL;
	for (size_t i = 0; i < n; i++) {
		p->graphs[i].f = files[i];
		project_graph(files[i]->data, files[i]->len, &p->graphs[i].g);
	}
	p->ngraphs = n;
	free(files);

	derive_op(p);
	p->without_binding = p->policy->without_binding;
	p->without_samples = p->policy->without_samples;
	if (opts->without && project_without_parse(opts->without, &p->without_binding, &p->without_samples, diag) != 0)
		goto fail;
	load_aclnn(p, &pf, diag);
	if (!p->without_binding)
		load_pybind(p, &pf, diag);
	if (p->npy_names == 0 && p->op && p->op->name[0]) {
		char *sn = project_snake(p->op->name);
		add_py_name(p, sn);
		free(sn);
	}
	p->kernel_root = path_join(opts->opdir, p->policy->kernel.value);
	if (stat(p->kernel_root, &st) == 0 && S_ISDIR(st.st_mode))
		p->kernels_read = project_kernels_read(p->policy, opts->opdir, &p->kernels, diag) == 0;
	load_launch(p, &pf, diag);
	if (!p->without_samples)
		load_samples(p, &pf, diag);
	project_files_release(&pf);
	mark_absent(p);

	decide_mode(p);
	read_py_main(p);
	if (project_launch_form(p))
		p->py_returns = p->launch.nmain < 0 ? -1 : p->launch.nmain + (p->required ? 1 : 0);
	else if (p->op && p->required && p->py_main >= 0)
		p->py_returns = p->py_main + (p->prof_out >= 0 ? 1 : 0);
	else if (p->op)
		p->py_returns = (long)p->op->noutputs - (p->required || p->prof_out < 0 ? 0 : 1);
	return p;
fail:
	project_files_release(&pf);
	project_free(p);
	return NULL;
}

int project_without_parse(const char *list, bool *binding, bool *samples, struct diag *diag)
{
	const char *s = list;

	while (*s) {
		size_t n = strcspn(s, ",");
		if (n == 7 && strncmp(s, "binding", 7) == 0)
			*binding = true;
		else if (n == 7 && strncmp(s, "samples", 7) == 0)
			*samples = true;
		else {
			diag_plain(diag, DIAG_ERROR, "--without %s: '%.*s' is not a layer that can be left out (binding, samples)",
				   list, (int)n, s);
			return -1;
		}
		s += n;
		if (*s == ',')
			s++;
	}
	return 0;
}

struct project_text project_where_text(const struct project_model *p, enum project_where w)
{
	struct project_text t;

	if (w == PROJECT_WHERE_OPDIR)
		snprintf(t.s, sizeof(t.s), "the operator directory %s", p->opts->opdir);
	else
		snprintf(t.s, sizeof(t.s), "the project root %s (%s)", p->root.path, project_root_how_text(p->root.how));
	return t;
}

struct project_text project_searched_text(const struct project_model *p)
{
	struct project_text t;

	if (p->root.how == PROJECT_ROOT_OPDIR)
		snprintf(t.s, sizeof(t.s), "in the operator directory %s (no project root above it: set one with "
			 "'project \"DIR\";')", p->opts->opdir);
	else
		snprintf(t.s, sizeof(t.s), "in the operator directory %s and under the project root %s (%s)",
			 p->opts->opdir, p->root.path, project_root_how_text(p->root.how));
	return t;
}

bool project_op_anchor(const struct project_model *p, enum project_anchor_kind kind, const struct src_file **f, uint32_t *start,
		    uint32_t *end)
{
	if (project_launch_form(p)) {
		/* a direct launch: the schema of its torch.ops name, else the launch */
		const struct project_launch *l = &p->launch;
		for (size_t s = 0; s < l->nschemas && kind == PROJECT_ANCHOR_TORCH_NAME; s++) {
			*f = l->files[l->schemas[s].file].f;
			*start = l->files[l->schemas[s].file].pb.names[l->schemas[s].name].range.start;
			*end = l->files[l->schemas[s].file].pb.names[l->schemas[s].name].range.end;
			return true;
		}
		for (size_t fi = 0; fi < l->nfiles; fi++)
			if (l->files[fi].nsites) {
				*f = l->files[fi].f;
				*start = l->files[fi].sites[0].range.start;
				*end = l->files[fi].sites[0].range.end;
				return true;
			}
	}
	if (kind == PROJECT_ANCHOR_TORCH_NAME)
		for (size_t b = 0; b < p->npybinds; b++)
			for (size_t i = 0; i < p->pybinds[b].pb.nnames; i++)
				if (p->pybinds[b].pb.names[i].schema && project_is_op_name(p, p->pybinds[b].pb.names[i].name)) {
					*f = p->pybinds[b].f;
					*start = p->pybinds[b].pb.names[i].range.start;
					*end = p->pybinds[b].pb.names[i].range.end;
					return true;
				}
	if (p->op) {
		char *api = xasprintf("aclnn%sGetWorkspaceSize", p->op->name);
		for (size_t a = 0; a < p->naclnns; a++)
			for (size_t i = 0; i < p->aclnns[a].ac.nfuncs; i++) {
				const struct aclnn_func *fn = &p->aclnns[a].ac.funcs[i];
				if (strcmp(fn->name, api) == 0) {
					*f = p->aclnns[a].f;
					*start = fn->name_range.start;
					*end = fn->name_range.end;
					free(api);
					return true;
				}
			}
		free(api);
		if (p->op_file) {
			struct opdef_range r = p->op->class_name.end > p->op->class_name.start ? p->op->class_name : p->op->op_add;
			*f = p->op_file;
			*start = r.start;
			*end = r.end > r.start ? r.end : r.start + 1;
			return true;
		}
	}
	return false;
}

bool project_is_op_name(const struct project_model *p, const char *name)
{
	return name && has_name(p->py_names, p->npy_names, name);
}

bool project_is_bind_func(const struct project_model *p, const char *name)
{
	return name && has_name(p->bind_funcs, p->nbind_funcs, name);
}

void project_free_layers(struct project_model *p)
{
	project_hosts_free(p->hosts, p->nhosts);
	for (size_t i = 0; i < p->ninfers; i++) {
		infer_file_release(&p->infers[i].inf);
		src_file_free(p->infers[i].f);
	}
	for (size_t i = 0; i < p->ngraphs; i++) {
		graph_file_release(&p->graphs[i].g);
		src_file_free(p->graphs[i].f);
	}
	for (size_t i = 0; i < p->naclnns; i++) {
		aclnn_file_release(&p->aclnns[i].ac);
		src_file_free(p->aclnns[i].f);
	}
	for (size_t i = 0; i < p->npybinds; i++) {
		pybind_file_release(&p->pybinds[i].pb);
		src_file_free(p->pybinds[i].f);
	}
	for (size_t i = 0; i < p->nsamples; i++) {
		py_module_free(p->samples[i].py);
		src_file_free(p->samples[i].f);
	}
	path_glob_free(p->py_names, p->npy_names);
	path_glob_free(p->bind_funcs, p->nbind_funcs);
	project_launch_release(&p->launch);
	free(p->infers);
	free(p->graphs);
	free(p->aclnns);
	free(p->pybinds);
	free(p->samples);
}

void project_free(struct project_model *p)
{
	if (!p)
		return;
	project_free_layers(p);
	project_op_choice_release(&p->choice);
	project_root_release(&p->root);
	if (p->kernels_read)
		project_kernels_release(&p->kernels);
	free(p->kernel_root);
	rule_policy_free(p->policy);
	free(p);
}
