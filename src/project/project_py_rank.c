/* The rank and the world size a sample's code has at hand where it runs the
 * operator: by name, then from a call, then torch.distributed itself. */
#include "project_py.h"

#include <stdlib.h>
#include <string.h>

#include "project_tokens.h"
#include "xalloc.h"

/* The prefixes a rank or world size name may have (lowercase, no
 * underscores), by preference: the process's own rank first, a rank within
 * a node or a parallel group later. */
static const char *const rank_prefixes[] = { "", "global", "world", "my", "cur", "current", "this", "local",
					     "ep", "tp", "dp", "pp" };
static const char *const rank_suffixes[] = { "", "id", "idx", "index", "no" };
static const char *const world_prefixes[] = { "", "global", "ep", "tp", "dp", "pp", "local" };

/* A preference (smaller is better) for a name, or -1 when it is none. */
static int rank_score(const char *name)
{
	char *k = tv_name_key(name);
	int score = -1;

	if (strcmp(k, "procid") == 0)
		score = 100;
	for (size_t p = 0; p < sizeof(rank_prefixes) / sizeof(rank_prefixes[0]) && score < 0; p++) {
		size_t pl = strlen(rank_prefixes[p]);
		if (strncmp(k, rank_prefixes[p], pl) != 0 || strncmp(k + pl, "rank", 4) != 0)
			continue;
		for (size_t s = 0; s < sizeof(rank_suffixes) / sizeof(rank_suffixes[0]); s++)
			if (strcmp(k + pl + 4, rank_suffixes[s]) == 0)
				score = (int)(p * 8 + s);
	}
	free(k);
	return score;
}

static int world_score(const char *name)
{
	static const char *const counts[] = { "nranks", "numranks", "nprocs", "numprocs", "numprocesses", "nproc" };
	char *k = tv_name_key(name);
	int score = -1;

	for (size_t p = 0; p < sizeof(world_prefixes) / sizeof(world_prefixes[0]) && score < 0; p++) {
		size_t pl = strlen(world_prefixes[p]);
		if (strncmp(k, world_prefixes[p], pl) == 0 && strcmp(k + pl, "worldsize") == 0)
			score = (int)p;
	}
	for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]) && score < 0; c++)
		if (strcmp(k, counts[c]) == 0)
			score = 50 + (int)c;
	free(k);
	return score;
}

struct want {
	int (*score)(const char *name);
	const char *call;             /* torch.distributed's: "get_rank" / "get_world_size" */
	const char *const *env;       /* the environment variables that hold it */
};

static const char *const rank_env[] = { "RANK", "LOCAL_RANK", NULL };
static const char *const world_env[] = { "WORLD_SIZE", "LOCAL_WORLD_SIZE", NULL };

/* Tokens [i, j) read the value: a torch.distributed call (dist.get_rank(),
 * torch.distributed.get_rank()) or the environment (os.environ["RANK"],
 * os.environ.get("RANK"), os.getenv("RANK")). */
static bool reads_value(struct py_module *m, size_t i, size_t j, const struct want *w)
{
	for (size_t k = i; k < j; k++) {
		if (m->toks[k].kind == PY_TOK_NAME && py_tok_is(m, k, w->call) && k + 1 < j && py_tok_is(m, k + 1, "("))
			return true;
		if (m->toks[k].kind == PY_TOK_STRING) {
			char *v = py_string_value(m, k);
			bool env = false;
			for (size_t e = 0; v && w->env[e] && !env; e++)
				env = strcmp(v, w->env[e]) == 0;
			free(v);
			/* the string is the key of environ[...] / environ.get( / getenv( */
			if (env && k >= 2 && (py_tok_is(m, k - 2, "environ") || py_tok_is(m, k - 2, "get") || py_tok_is(m, k - 2, "getenv")))
				return true;
		}
	}
	return false;
}

static int func_of(const struct py_module *m, int fn_stmt)
{
	for (size_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].stmt == fn_stmt)
			return (int)i;
	return -1;
}

/* Keeps the better of a candidate: *best (a score) and out. */
static void offer(struct project_py_value *out, int *best, int score, const char *expr, enum project_py_source from)
{
	if (score < 0 || (*best >= 0 && score >= *best))
		return;
	*best = score;
	free(out->expr);
	out->expr = xstrdup(expr);
	out->from = from;
}

/* The parameters and the single-target locals (set before `before`) of
 * function k, by name. */
static void in_function(struct py_module *m, int k, uint32_t before, const struct want *w, enum project_py_source params,
			enum project_py_source locals, struct project_py_value *out)
{
	const struct py_func *fn = &m->funcs[k];
	int best = -1;

	for (size_t i = 0; i < fn->nparams; i++)
		offer(out, &best, w->score(fn->params[i]), fn->params[i], params);
	if (best >= 0)
		return;
	for (size_t a = 0; a < m->nassigns; a++) {
		const struct py_assign *as = &m->assigns[a];
		if (as->ntargets == 1 && !as->unpacks && m->stmts[as->stmt].func == fn->stmt && as->value.start < before &&
		    !strchr(as->targets[0].text, '.'))
			offer(out, &best, w->score(as->targets[0].text), as->targets[0].text, locals);
	}
}

static bool find(struct py_module *m, int fn_stmt, uint32_t before, const char *ns, const struct want *w,
		 struct project_py_value *out)
{
	int k = func_of(m, fn_stmt), best = -1;

	memset(out, 0, sizeof(*out));
	/* 1, 2: the function's parameters, its locals */
	if (k >= 0)
		in_function(m, k, before, w, PY_SRC_PARAM, PY_SRC_LOCAL, out);
	if (out->expr)
		return true;
	/* 3: self.<name> in a method, set anywhere in the module */
	if (k >= 0 && m->funcs[k].nparams > 0 && strcmp(m->funcs[k].params[0], "self") == 0)
		for (size_t a = 0; a < m->nassigns; a++) {
			const struct py_assign *as = &m->assigns[a];
			if (as->ntargets == 1 && !as->unpacks && strncmp(as->targets[0].text, "self.", 5) == 0 &&
			    !strchr(as->targets[0].text + 5, '.'))
				offer(out, &best, w->score(as->targets[0].text + 5), as->targets[0].text, PY_SRC_SELF);
		}
	if (out->expr)
		return true;
	/* 4: the functions it is nested in (py_func.parent: an index into funcs) */
	for (int pk = k >= 0 ? m->funcs[k].parent : PY_NONE; pk != PY_NONE && !out->expr; pk = m->funcs[pk].parent)
		in_function(m, pk, m->stmts[m->funcs[k].stmt].range.start, w, PY_SRC_ENCLOSING, PY_SRC_ENCLOSING, out);
	if (out->expr)
		return true;
	/* 5: an option of the argparse namespace in reach (args.local_rank) */
	if (ns) {
		size_t n;
		struct project_py_option *o = project_py_options(m, &n);
		for (size_t i = 0; i < n; i++) {
			char *e = xasprintf("%s.%s", ns, o[i].dest);
			offer(out, &best, w->score(o[i].dest), e, PY_SRC_OPTION);
			free(e);
		}
		project_py_options_free(o, n);
	}
	if (out->expr)
		return true;
	/* 6: module globals */
	for (size_t a = 0; a < m->nassigns; a++) {
		const struct py_assign *as = &m->assigns[a];
		if (as->ntargets == 1 && !as->unpacks && m->stmts[as->stmt].func == PY_NONE && !strchr(as->targets[0].text, '.'))
			offer(out, &best, w->score(as->targets[0].text), as->targets[0].text, PY_SRC_GLOBAL);
	}
	if (out->expr)
		return true;
	/* 7: a local (of this function, one it is nested in, or the module) set
	   from torch.distributed or the environment */
	for (int fk = k;; fk = m->funcs[fk].parent) {
		int f = fk >= 0 ? m->funcs[fk].stmt : PY_NONE;
		for (size_t a = 0; a < m->nassigns && !out->expr; a++) {
			const struct py_assign *as = &m->assigns[a];
			if (as->ntargets == 1 && !as->unpacks && m->stmts[as->stmt].func == f &&
			    (f != fn_stmt || as->value.start < before) && reads_value(m, as->value_tok_start, as->value_tok_end, w)) {
				out->expr = xstrdup(as->targets[0].text);
				out->from = PY_SRC_CALL;
			}
		}
		if (out->expr || fk < 0)
			break;
	}
	return out->expr != NULL;
}

static const struct want rank_want = { rank_score, "get_rank", rank_env };
static const struct want world_want = { world_score, "get_world_size", world_env };

/* torch.distributed as the module names it ("dist.", "torch.distributed.")
 * when the module initialises it; NULL otherwise. */
static char *dist_prefix(const struct py_module *m)
{
	for (size_t c = 0; c < m->ncalls; c++) {
		const char *t = m->calls[c].callee_text;
		size_t n = strlen(t);
		bool dotted = true;
		if (strcmp(m->calls[c].name, "init_process_group") != 0 || n < 18)
			continue;
		/* names and dots only: the prefix is written into the sample */
		for (size_t k = 0; k + 18 < n; k++)
			dotted = dotted && (t[k] == '.' || t[k] == '_' || (t[k] >= 'a' && t[k] <= 'z') ||
					    (t[k] >= 'A' && t[k] <= 'Z') || (t[k] >= '0' && t[k] <= '9'));
		/* `from torch.distributed import init_process_group`: get_rank is not imported with it */
		if (dotted)
			return n == 18 ? xstrdup("torch.distributed.") : xstrndup(t, n - 18);
	}
	return NULL;
}

/* 9: torch.distributed itself (dist.get_rank()), when the script initialises it. */
static bool from_dist(const struct py_module *m, const struct want *w, struct project_py_value *out)
{
	char *dist = dist_prefix(m);

	if (!dist)
		return false;
	out->expr = xasprintf("%s%s()", dist, w->call);
	out->from = PY_SRC_DIST;
	free(dist);
	return true;
}

bool project_py_rank(struct py_module *m, int fn_stmt, uint32_t before, const char *ns, struct project_py_value *out)
{
	if (find(m, fn_stmt, before, ns, &rank_want, out))
		return true;
	/* 8: the first parameter of the function a spawn runs (mp.spawn passes the index first) */
	if (func_of(m, fn_stmt) >= 0) {
		const struct py_func *fn = &m->funcs[func_of(m, fn_stmt)];
		for (size_t c = 0; c < m->ncalls; c++) {
			const struct py_call *sp = &m->calls[c];
			/* mp.spawn / start_processes pass the index; multiprocessing.Process does not */
			if (project_py_is_spawn(sp) && strcmp(sp->name, "Process") != 0 && sp->nargs > 0 && fn->nparams > 0 &&
			    (!sp->args[0].keyword || strcmp(sp->args[0].keyword, "fn") == 0) &&
			    strcmp(py_text(m, sp->args[0].tok_start, sp->args[0].tok_end), fn->name) == 0) {
				out->expr = xstrdup(fn->params[0]);
				out->from = PY_SRC_SPAWN;
				return true;
			}
		}
	}
	return from_dist(m, &rank_want, out);
}

bool project_py_world_size(struct py_module *m, int fn_stmt, uint32_t before, const char *ns, struct project_py_value *out)
{
	return find(m, fn_stmt, before, ns, &world_want, out) || from_dist(m, &world_want, out);
}

void project_py_value_release(struct project_py_value *v)
{
	free(v->expr);
	v->expr = NULL;
}

const char *project_py_source_text(enum project_py_source s)
{
	switch (s) {
	case PY_SRC_PARAM:
		return "a parameter";
	case PY_SRC_LOCAL:
		return "a local variable";
	case PY_SRC_SELF:
		return "an attribute of self";
	case PY_SRC_ENCLOSING:
		return "a variable of the enclosing function";
	case PY_SRC_OPTION:
		return "a command-line option";
	case PY_SRC_GLOBAL:
		return "a module global";
	case PY_SRC_CALL:
		return "a variable set from torch.distributed or the environment";
	case PY_SRC_SPAWN:
		return "the process index the spawn passes first";
	case PY_SRC_ONE:
		return "the one process this script runs ($RANK under torchrun, else 0)";
	case PY_SRC_DIST:
		return "torch.distributed, which the script initialises";
	}
	return "";
}
