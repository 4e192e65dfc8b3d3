/* G2's own search of the project for the operator's layers, by its names. */
#define _GNU_SOURCE /* memmem(3) */
#include <string.h>

#include "g2_scope.h"

#include <stdlib.h>
#include <sys/stat.h>

#include "path_glob.h"
#include "project_autograd.h"
#include "project_tokens.h"
#include "strset.h"
#include "xalloc.h"

/* The candidates: every C/C++ and Python file under the root, as paths are
 * written (the root's path joined), with whether it lies in the operator
 * directory. */
struct cand {
	char *path;
	bool in_opdir;
	bool kernel;           /* under the operator's kernel directory: device code */
	bool other_op;         /* in another operator's op_host/ or op_kernel/ (a copy of an API is not ours) */
	bool py;
	bool taken;            /* read into a layer already */
};

struct search {
	const struct project_model *p;
	struct g2_scope *s;
	struct cand *v;
	size_t n;
	char *api;             /* "aclnn<Op>" */
	char **names;          /* torch.ops names */
	size_t nnames;
};

/* A directory that holds a build's output, not sources of its own: its
 * files are copies (a build tree) or generated. */
static bool build_tree(const char *root, const char *rel_dir)
{
	char *d = path_join(root, rel_dir), *cache = path_join(d, "CMakeCache.txt");
	const char *base = strrchr(rel_dir, '/');
	struct stat st;
	bool yes;

	base = base ? base + 1 : rel_dir;
	yes = strcmp(base, "build_out") == 0 || strcmp(base, "__pycache__") == 0 || stat(cache, &st) == 0;
	free(cache);
	free(d);
	return yes;
}

/* True when rel lies under a build tree (each of its directories asked once
 * per prefix through the cache of the last answers). */
static bool under_build_tree(const char *root, const char *rel, char **last_dir, bool *last_yes)
{
	const char *slash = strrchr(rel, '/');
	size_t dl;
	bool yes = false;

	if (!slash)
		return false;
	dl = (size_t)(slash - rel);
	if (*last_dir && strlen(*last_dir) == dl && strncmp(*last_dir, rel, dl) == 0)
		return *last_yes;
	for (const char *q = rel; (q = strchr(q, '/')) != NULL && !yes; q++) {
		char *dir = xstrndup(rel, (size_t)(q - rel));
		yes = build_tree(root, dir);
		free(dir);
	}
	free(*last_dir);
	*last_dir = xstrndup(rel, dl);
	*last_yes = yes;
	return yes;
}

/* rel lies in an operator's op_host/ or op_kernel/ directory. */
static bool in_an_operator(const char *rel)
{
	return strncmp(rel, "op_host/", 8) == 0 || strncmp(rel, "op_kernel/", 10) == 0 || strstr(rel, "/op_host/") ||
	       strstr(rel, "/op_kernel/");
}

static bool py_name(const char *path)
{
	size_t n = strlen(path);
	return n > 3 && strcmp(path + n - 3, ".py") == 0;
}

static int walk(struct search *q, struct diag *diag)
{
	const struct project_model *p = q->p;
	char **all = NULL, *last = NULL;
	size_t n = 0;
	bool last_yes = false;
	const char *own = p->root.opdir_rel;
	size_t ol = strlen(own);
	bool whole = strcmp(own, ".") == 0;
	char *krel = NULL;
	size_t kl = 0;

	if (path_walk(p->root.path, &all, &n, diag) != 0)
		return -1;
	krel = whole ? xstrdup(p->policy->kernel.value) : path_join(own, p->policy->kernel.value);
	kl = strlen(krel);
	q->v = xcalloc(n ? n : 1, sizeof(*q->v));
	for (size_t i = 0; i < n; i++) {
		bool py = py_name(all[i]);
		if ((py || src_file_is_cxx_name(all[i])) && !under_build_tree(p->root.path, all[i], &last, &last_yes)) {
			struct cand *c = &q->v[q->n++];
			c->path = path_join(p->root.path, all[i]);
			c->py = py;
			c->in_opdir = whole || (strncmp(all[i], own, ol) == 0 && all[i][ol] == '/');
			c->kernel = krel && strncmp(all[i], krel, kl) == 0 && all[i][kl] == '/';
			c->other_op = !c->in_opdir && in_an_operator(all[i]);
		}
	}
	free(krel);
	free(last);
	path_glob_free(all, n);
	return 0;
}

static void keep_path(struct g2_scope *s, const char *path)
{
	strset_add(&s->paths, &s->npaths, path);
}

/* ---- the operator directory: OpDef, infer and the graph prototype ---- */

static void find_hosts_infers(struct search *q)
{
	struct project_model *v = &q->s->view;
	const char *op = q->p->op ? q->p->op->name : NULL;

	for (size_t i = 0; i < q->n; i++) {
		struct cand *c = &q->v[i];
		struct src_file *f;
		bool keep = false;
		if (c->py || !c->in_opdir)
			continue;
		f = src_file_load(c->path);
		if (!f)
			continue;
		if (src_file_has_word(f, "OpDef", false) && (!op || src_file_has_word(f, op, false))) {
			struct opdef_file od;
			bool ours = false;
			project_opdef(f->data, f->len, &od);
			for (size_t o = 0; o < od.nops && !ours; o++)
				ours = od.ops[o].nparams > 0 && (!op || strcmp(od.ops[o].name, op) == 0);
			if (ours) {
				v->hosts = xrealloc(v->hosts, (v->nhosts + 1) * sizeof(*v->hosts));
				v->hosts[v->nhosts].f = src_file_from_buffer(f->path, f->data, f->len);
				v->hosts[v->nhosts].od = od;
				v->nhosts++;
				keep = true;
			} else {
				opdef_file_release(&od);
			}
		}
		if (op && src_file_has_word(f, op, true) &&
		    (memmem(f->data, f->len, "GetOutputShape", 14) || memmem(f->data, f->len, "SetOutputDataType", 17))) {
			struct infer_file inf;
			bool ours = false;
			project_infer(f, &inf);
			for (size_t m = 0; m < inf.nimpls && !ours; m++)
				ours = strcmp(inf.impls[m].op, op) == 0;
			if (ours) {
				v->infers = xrealloc(v->infers, (v->ninfers + 1) * sizeof(*v->infers));
				v->infers[v->ninfers].f = src_file_from_buffer(f->path, f->data, f->len);
				v->infers[v->ninfers].inf = inf;
				v->ninfers++;
				keep = true;
			} else {
				infer_file_release(&inf);
			}
		}
		if (op && src_file_has_word(f, "REG_OP", false) && src_file_has_word(f, op, false)) {
			struct graph_file g;
			project_graph(f->data, f->len, &g);
			if (graph_find(&g, op)) {
				v->graphs = xrealloc(v->graphs, (v->ngraphs + 1) * sizeof(*v->graphs));
				v->graphs[v->ngraphs].f = src_file_from_buffer(f->path, f->data, f->len);
				v->graphs[v->ngraphs].g = g;
				v->ngraphs++;
				keep = true;
			} else {
				graph_file_release(&g);
			}
		}
		if (op && (src_file_has_word(f, "IMPL_OP_OPTILING", false) ||
			   (strstr(c->path, "tiling") && src_file_has_word(f, "TilingContext", true))) &&
		    src_file_has_word(f, op, true)) {
			q->s->tilings = xrealloc(q->s->tilings, (q->s->ntilings + 1) * sizeof(*q->s->tilings));
			q->s->tilings[q->s->ntilings++] = src_file_from_buffer(f->path, f->data, f->len);
			keep = true;
		}
		if (keep)
			keep_path(q->s, c->path);
		src_file_free(f);
	}
}

/* The operator in G2's own OpDef reading: the model's (same name). */
static void pick_op(struct search *q)
{
	struct project_model *v = &q->s->view;
	const char *name = q->p->op ? q->p->op->name : NULL;

	v->op = NULL;
	v->op_file = NULL;
	v->prof_out = -1;
	if (!name)
		return;
	for (size_t h = 0; h < v->nhosts && !v->op; h++)
		for (size_t o = 0; o < v->hosts[h].od.nops; o++) {
			const struct opdef_op *op = &v->hosts[h].od.ops[o];
			if (op->nparams == 0 || strcmp(op->name, name) != 0)
				continue;
			v->op = op;
			v->op_file = v->hosts[h].f;
			v->prof_out = opdef_output_index(op, v->profiling);
			break;
		}
	/* a chain named for profiling under another spelling (profilingData) */
	if (v->op && v->prof_out < 0) {
		long k = 0;
		for (size_t i = 0; i < v->op->nparams; i++) {
			if (!v->op->params[i].output)
				continue;
			if (tv_names_profiling(v->op->params[i].name, v->profiling)) {
				v->prof_out = k;
				break;
			}
			k++;
		}
	}
}

/* ---- the project: aclnn, bindings, registrations ---- */

static void find_aclnn(struct search *q)
{
	struct project_model *v = &q->s->view;
	char *a, *b;

	if (!q->api)
		return;
	a = xasprintf("%sGetWorkspaceSize", q->api);
	b = xasprintf("aclnnInner%sGetWorkspaceSize", q->api + 5);
	for (size_t i = 0; i < q->n; i++) {
		struct src_file *f;
		if (q->v[i].py || q->v[i].other_op)
			continue;
		f = src_file_load(q->v[i].path);
		if (f && (src_file_has_word(f, a, false) || src_file_has_word(f, b, false))) {
			v->aclnns = xrealloc(v->aclnns, (v->naclnns + 1) * sizeof(*v->aclnns));
			v->aclnns[v->naclnns].f = f;
			project_aclnn(f->data, f->len, &v->aclnns[v->naclnns].ac);
			v->naclnns++;
			keep_path(q->s, q->v[i].path);
		} else {
			src_file_free(f);
		}
	}
	free(a);
	free(b);
}

static void add_binding(struct project_model *v, struct src_file *f, struct pybind_file *pb)
{
	v->pybinds = xrealloc(v->pybinds, (v->npybinds + 1) * sizeof(*v->pybinds));
	v->pybinds[v->npybinds].f = f;
	v->pybinds[v->npybinds].pb = *pb;
	v->npybinds++;
}

/* The names project_autograd_appliers hands out, learnt as binding functions. */
struct learn {
	struct project_model *v;
	bool learnt;
};

static void learn_name(const char *name, void *ctx)
{
	struct learn *l = ctx;

	l->learnt |= strset_add(&l->v->bind_funcs, &l->v->nbind_funcs, name);
}

/* One round over the C/C++ files not taken yet: those that run the API, or
 * name a binding function or a torch.ops name; true when it learnt a name. */
static bool bindings_round(struct search *q)
{
	struct project_model *v = &q->s->view;
	bool learnt = false;

	for (size_t i = 0; i < q->n; i++) {
		struct cand *c = &q->v[i];
		struct src_file *f;
		struct pybind_file pb;
		bool maybe = false, ours = false;
		if (c->py || c->taken || c->kernel)
			continue;
		f = src_file_load(c->path);
		if (!f)
			continue;
		maybe = q->api && ((src_file_has_word(f, "EXEC_NPU_CMD", true) && src_file_has_word(f, q->api, false)) ||
				   memmem(f->data, f->len, "::apply(", 8));
		for (size_t k = 0; k < v->nbind_funcs && !maybe; k++)
			maybe = src_file_has_word(f, v->bind_funcs[k], false);
		for (size_t k = 0; k < q->nnames && !maybe; k++)
			maybe = src_file_has_literal(f, q->names[k]);
		if (!maybe) {
			src_file_free(f);
			continue;
		}
		project_pybind(f, &pb);
		for (size_t x = 0; x < pb.nexecs; x++)
			if (q->api && strcmp(pb.execs[x].api, q->api) == 0) {
				ours = true;
				/* (an autograd Function's forward() is the Function's, found through
				   the binding that applies it, never a name of its own) */
				if (pb.execs[x].func >= 0 && pybind_autograd_of_func(&pb, pb.execs[x].func) < 0)
					learnt |= strset_add(&v->bind_funcs, &v->nbind_funcs, pb.funcs[pb.execs[x].func].name);
			}
		if (q->api && memmem(f->data, f->len, "::apply(", 8)) {
			struct autograd_cache ag = { NULL, NULL, 0 };
			struct learn l = { v, false };
			if (project_autograd_appliers(v, f, &pb, q->api, &ag, learn_name, &l))
				ours = true;
			learnt |= l.learnt;
			autograd_cache_release(&ag);
		}
		for (size_t o = 0; o < pb.nnames; o++) {
			const struct pybind_opname *on = &pb.names[o];
			if (on->impl_fn && strset_has(v->bind_funcs, v->nbind_funcs, on->impl_fn)) {
				ours = true;
				learnt |= strset_add(&q->names, &q->nnames, on->name);
			}
			if (strset_has(q->names, q->nnames, on->name)) {
				ours = true;
				if (on->impl_fn)
					learnt |= strset_add(&v->bind_funcs, &v->nbind_funcs, on->impl_fn);
			}
		}
		for (size_t k = 0; k < pb.nfuncs && !ours; k++)
			ours = strset_has(v->bind_funcs, v->nbind_funcs, pb.funcs[k].name);
		if (ours) {
			c->taken = true;
			add_binding(v, f, &pb);
			keep_path(q->s, c->path);
		} else {
			pybind_file_release(&pb);
			src_file_free(f);
		}
	}
	return learnt;
}

static void find_bindings(struct search *q)
{
	struct project_model *v = &q->s->view;

	while (bindings_round(q))
		;
	for (size_t i = 0; i < q->nnames; i++)
		if (!project_profiling_suffix(q->names[i]))
			strset_add(&v->py_names, &v->npy_names, q->names[i]);
	/* the torch.ops name the binding layer would take: the snake name */
	if (v->npy_names == 0 && q->p->op && q->p->op->name[0]) {
		char *sn = project_snake(q->p->op->name);
		strset_add(&v->py_names, &v->npy_names, sn);
		free(sn);
	}
}

/* ---- declarations of the binding functions ---- */

static void find_decls(struct search *q)
{
	struct project_model *v = &q->s->view;

	if (v->nbind_funcs == 0)
		return;
	for (size_t i = 0; i < q->n; i++) {
		struct src_file *f;
		struct project_decls d;
		bool named = false;
		if (q->v[i].py || q->v[i].kernel)
			continue;
		f = src_file_load(q->v[i].path);
		for (size_t k = 0; f && k < v->nbind_funcs && !named; k++)
			named = src_file_has_word(f, v->bind_funcs[k], false);
		if (!named) {
			src_file_free(f);
			continue;
		}
		project_decls_read(f, v->bind_funcs, v->nbind_funcs, &d);
		if (d.n == 0) {
			project_decls_release(&d);
			src_file_free(f);
			continue;
		}
		q->s->decls = xrealloc(q->s->decls, (q->s->ndecls + 1) * sizeof(*q->s->decls));
		q->s->decls[q->s->ndecls].f = f;
		q->s->decls[q->s->ndecls].d = d;
		q->s->ndecls++;
		keep_path(q->s, q->v[i].path);
	}
}

/* ---- the direct launch: no aclnn API and no EXEC_NPU_CMD binding ---- */

/* The launches of the operator's kernel entries in the project's C/C++
 * files that are not its device code, and what registers them; their
 * torch.ops names are the operator's. */
static void find_launch(struct search *q)
{
	struct project_model *v = &q->s->view;
	const struct project_model *p = q->p;
	char **entries = NULL, **paths;
	size_t nentries = 0, n = 0;

	if (v->naclnns || v->npybinds || !v->kernels_read)
		return;
	for (size_t k = 0; k < v->kernels.n; k++) {
		const char *name = v->kernels.v[k].name, *colon = strrchr(name, ':');
		if (!p->choice.entry || strcmp(colon ? colon + 1 : name, p->choice.entry) == 0)
			strset_add(&entries, &nentries, colon ? colon + 1 : name);
	}
	paths = xmalloc((q->n ? q->n : 1) * sizeof(*paths));
	for (size_t i = 0; i < q->n; i++)
		if (!q->v[i].py && !q->v[i].kernel)
			paths[n++] = q->v[i].path;
	project_launch_read(&v->launch, paths, n, entries, nentries, v->profiling);
	free(paths);
	path_glob_free(entries, nentries);
	for (size_t i = 0; i < v->launch.npaths; i++)
		keep_path(q->s, v->launch.paths[i]);
	project_launch_names(v);
}

/* ---- Python implementations registered for the torch.ops names ---- */

static void find_fakes(struct search *q)
{
	struct project_model *v = &q->s->view;

	for (size_t i = 0; i < q->n && v->npy_names; i++) {
		struct src_file *f;
		struct py_module *m;
		struct py_fake *fk;
		size_t n;
		bool named = false;
		if (!q->v[i].py)
			continue;
		f = src_file_load(q->v[i].path);
		for (size_t k = 0; f && k < v->npy_names && !named; k++)
			named = src_file_has_word(f, v->py_names[k], false);
		if (!named) {
			src_file_free(f);
			continue;
		}
		m = py_scan(f->data, f->len);
		n = project_py_fakes(m, v->py_names, v->npy_names, &fk);
		if (n == 0) {
			py_module_free(m);
			src_file_free(f);
			continue;
		}
		q->s->fakes = xrealloc(q->s->fakes, (q->s->nfakes + 1) * sizeof(*q->s->fakes));
		q->s->fakes[q->s->nfakes].f = f;
		q->s->fakes[q->s->nfakes].m = m;
		q->s->fakes[q->s->nfakes].v = fk;
		q->s->fakes[q->s->nfakes].n = n;
		q->s->nfakes++;
		keep_path(q->s, q->v[i].path);
	}
}

/* ---- samples: every script that calls a torch.ops name ---- */

static void find_samples(struct search *q)
{
	struct project_model *v = &q->s->view;

	for (size_t i = 0; i < q->n; i++) {
		struct project_sample sm;
		if (!q->v[i].py || !project_sample_read(v, q->v[i].path, &sm))
			continue;
		v->samples = xrealloc(v->samples, (v->nsamples + 1) * sizeof(*v->samples));
		v->samples[v->nsamples++] = sm;
		keep_path(q->s, q->v[i].path);
	}
}

int g2_scope_load(const struct project_model *p, struct g2_scope *s, struct diag *diag)
{
	struct search q;
	struct project_model *v = &s->view;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	memset(&q, 0, sizeof(q));
	/* the model's facts; the layers are G2's own */
	v->opts = p->opts;
	v->policy = p->policy;
	v->profiling = p->profiling;
	v->required = p->required;
	v->mode_reason = p->mode_reason;
	v->root = p->root;
	v->kernels = p->kernels;
	v->kernels_read = p->kernels_read;
	v->kernel_root = p->kernel_root;
	v->py_returns = p->py_returns;
	v->py_main = p->py_main;
	v->aclnn_where = v->pybind_where = v->samples_where = PROJECT_WHERE_ROOT;
	v->without_binding = p->without_binding;
	v->without_samples = p->without_samples;
	v->absent_binding = p->absent_binding;
	v->absent_samples = p->absent_samples;
	q.p = p;
	q.s = s;
	if (walk(&q, diag) != 0) {
		rc = -1;
		goto out;
	}
	find_hosts_infers(&q);
	pick_op(&q);
	q.api = v->op && v->op->name[0] ? xasprintf("aclnn%s", v->op->name) : NULL;
	find_aclnn(&q);
	if (!v->without_binding) {
		find_bindings(&q);
		find_decls(&q);
		find_fakes(&q);
	}
	find_launch(&q);
	if (!v->without_samples)
		find_samples(&q);
out:
	for (size_t i = 0; i < q.n; i++)
		free(q.v[i].path);
	free(q.v);
	free(q.api);
	path_glob_free(q.names, q.nnames);
	return rc;
}

void g2_scope_release(struct g2_scope *s)
{
	project_free_layers(&s->view);
	for (size_t i = 0; i < s->ntilings; i++)
		src_file_free(s->tilings[i]);
	free(s->tilings);
	for (size_t i = 0; i < s->ndecls; i++) {
		project_decls_release(&s->decls[i].d);
		src_file_free(s->decls[i].f);
	}
	free(s->decls);
	for (size_t i = 0; i < s->nfakes; i++) {
		project_py_fakes_free(s->fakes[i].v);
		py_module_free(s->fakes[i].m);
		src_file_free(s->fakes[i].f);
	}
	free(s->fakes);
	path_glob_free(s->paths, s->npaths);
	memset(s, 0, sizeof(*s));
}
