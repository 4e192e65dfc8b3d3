/* Unit tests for py_scan.c: tokens (strings, f-strings, triple quotes,
 * comments, continuations), statements by indentation, defs and decorators,
 * calls with arguments, assignments with targets, flow dominance; and the
 * rank and world size of a sample (project_py_rank.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "project_py.h"
#include "py_scan.h"

static struct py_module *scan(const char *s)
{
	return py_scan(s, strlen(s));
}

static int find_call(const struct py_module *m, const char *name, int nth)
{
	for (size_t i = 0; i < m->ncalls; i++)
		if (strcmp(m->calls[i].name, name) == 0 && nth-- == 0)
			return (int)i;
	return -1;
}

START_TEST(t_strings_and_comments)
{
	const char *src = "x = f'{a[\"k\"]} {b!r:>{w}}'  # call(no)\n"
			  "s = '''one\n"
			  "two(no)'''\n"
			  "t = rb'\\'' + \"#\" \n"
			  "g(f\"{h(1)}\")\n";
	struct py_module *m = scan(src);

	ck_assert_uint_eq(m->unclosed, UINT32_MAX);
	ck_assert_uint_eq(m->nstmts, 4);
	/* calls inside strings or comments are not calls; h() inside the f-string is not scanned either */
	ck_assert_int_eq(find_call(m, "call", 0), -1);
	ck_assert_int_eq(find_call(m, "two", 0), -1);
	ck_assert_int_ge(find_call(m, "g", 0), 0);
	ck_assert_uint_eq(m->calls[find_call(m, "g", 0)].nargs, 1);
	ck_assert_uint_eq(m->nassigns, 3);
	py_module_free(m);
}
END_TEST

START_TEST(t_unclosed)
{
	struct py_module *m = scan("a = 'abc\nb = (1,\n");

	ck_assert_uint_eq(m->unclosed, 4);
	ck_assert_str_eq(m->unclosed_what, "string");
	py_module_free(m);
}
END_TEST

START_TEST(t_statements)
{
	const char *src = "import os\n"
			  "@dec(1)\n"
			  "@other\n"
			  "def run(rank, args, *rest, **kw):\n"
			  "    if args.x: go(); stop()\n"
			  "    for i in range(3):\n"
			  "        work(i)\n"
			  "    value = \\\n"
			  "        compute(1,\n"
			  "                2)\n"
			  "    return value\n"
			  "main()\n";
	struct py_module *m = scan(src);
	int go = find_call(m, "go", 0), stop = find_call(m, "stop", 0), work = find_call(m, "work", 0);
	int compute = find_call(m, "compute", 0), mainc = find_call(m, "main", 0);

	ck_assert_uint_eq(m->nfuncs, 1);
	ck_assert_str_eq(m->funcs[0].name, "run");
	ck_assert_uint_eq(m->funcs[0].nparams, 4);
	ck_assert_str_eq(m->funcs[0].params[2], "rest");
	ck_assert_uint_eq(m->funcs[0].ndecorators, 2);
	ck_assert_str_eq(m->funcs[0].decorators[0], "dec(1)");
	/* inline body: go() and stop() are children of the if */
	ck_assert_int_eq(m->stmts[m->calls[go].stmt].kind, PY_STMT_SIMPLE);
	ck_assert_int_eq(m->stmts[m->stmts[m->calls[go].stmt].parent].kind, PY_STMT_IF);
	ck_assert_int_eq(m->stmts[m->calls[stop].stmt].parent, m->stmts[m->calls[go].stmt].parent);
	ck_assert_int_eq(m->stmts[m->stmts[m->calls[work].stmt].parent].kind, PY_STMT_FOR);
	ck_assert_int_eq(m->stmts[m->calls[compute].stmt].func, m->funcs[0].stmt);
	ck_assert_int_eq(m->stmts[m->calls[mainc].stmt].func, PY_NONE);
	ck_assert_int_eq(m->stmts[m->calls[mainc].stmt].parent, PY_NONE);
	py_module_free(m);
}
END_TEST

START_TEST(t_calls)
{
	const char *src = "p = str(Path(args.dir).expanduser().resolve())\n"
			  "mp.spawn(run, args=(args,), nprocs=n, join=True)\n"
			  "torch_npu.npu.synchronize()\n"
			  "f(*xs, **kw)\n";
	struct py_module *m = scan(src);
	int res = find_call(m, "resolve", 0), sp = find_call(m, "spawn", 0), sy = find_call(m, "synchronize", 0);
	int f = find_call(m, "f", 0);

	ck_assert_int_ge(res, 0);
	ck_assert_str_eq(m->calls[res].callee_text, "Path(args.dir).expanduser().resolve");
	ck_assert_str_eq(m->calls[sp].callee_text, "mp.spawn");
	ck_assert_uint_eq(m->calls[sp].nargs, 4);
	ck_assert_ptr_null(m->calls[sp].args[0].keyword);
	ck_assert_str_eq(m->calls[sp].args[1].keyword, "args");
	ck_assert_str_eq(py_text(m, m->calls[sp].args[1].tok_start, m->calls[sp].args[1].tok_end), "(args,)");
	ck_assert_str_eq(m->calls[sy].callee_text, "torch_npu.npu.synchronize");
	ck_assert(m->calls[f].args[0].star);
	ck_assert(m->calls[f].args[1].dstar);
	py_module_free(m);
}
END_TEST

START_TEST(t_assignments)
{
	const char *src = "*head, _ = op(x)\n"
			  "(y, n), prof = outs, None\n"
			  "a = b = g()\n"
			  "args.dir: str = h()\n"
			  "x == y\n"
			  "f(k=1)\n";
	struct py_module *m = scan(src);

	ck_assert_uint_eq(m->nassigns, 4);
	ck_assert(m->assigns[0].unpacks);
	ck_assert_uint_eq(m->assigns[0].ntargets, 2);
	ck_assert(m->assigns[0].targets[0].starred);
	ck_assert_str_eq(m->assigns[0].targets[0].text, "head");
	ck_assert_int_eq(m->assigns[0].call, find_call(m, "op", 0));
	ck_assert_uint_eq(m->assigns[1].ntargets, 2);
	ck_assert_str_eq(m->assigns[1].targets[0].text, "(y,n)");
	ck_assert_int_eq(m->assigns[1].call, PY_NONE);
	ck_assert_str_eq(m->assigns[2].targets[0].text, "a");
	ck_assert_int_eq(m->assigns[2].call, find_call(m, "g", 0));
	ck_assert(!m->assigns[3].unpacks);
	ck_assert_str_eq(m->assigns[3].targets[0].text, "args.dir");
	py_module_free(m);
}
END_TEST

START_TEST(t_dominates)
{
	const char *src = "def run(a):\n"
			  "    sync()\n"
			  "    if a:\n"
			  "        sync2()\n"
			  "        save()\n"
			  "    else:\n"
			  "        save2()\n"
			  "    try:\n"
			  "        sync3()\n"
			  "    finally:\n"
			  "        pass\n"
			  "    save3()\n";
	struct py_module *m = scan(src);
	int s1 = m->calls[find_call(m, "sync", 0)].stmt, s2 = m->calls[find_call(m, "sync2", 0)].stmt;
	int s3 = m->calls[find_call(m, "sync3", 0)].stmt;
	int v1 = m->calls[find_call(m, "save", 0)].stmt, v2 = m->calls[find_call(m, "save2", 0)].stmt;
	int v3 = m->calls[find_call(m, "save3", 0)].stmt;

	ck_assert(py_dominates(m, s1, v1));
	ck_assert(py_dominates(m, s1, v2));
	ck_assert(py_dominates(m, s2, v1));
	ck_assert(!py_dominates(m, s2, v2));
	ck_assert(!py_dominates(m, s2, v3));
	ck_assert(py_dominates(m, s3, v3));
	ck_assert(!py_dominates(m, v1, s1));
	py_module_free(m);
}
END_TEST

START_TEST(t_string_value)
{
	struct py_module *m = scan("f('--profiling_dir', \"x\", '''t''', rb'r')\n");
	const struct py_call *c = &m->calls[0];
	char *a = py_string_value(m, c->args[0].tok_start), *b = py_string_value(m, c->args[2].tok_start);
	char *d = py_string_value(m, c->args[3].tok_start);

	ck_assert_str_eq(a, "--profiling_dir");
	ck_assert_str_eq(b, "t");
	ck_assert_str_eq(d, "r");
	free(a);
	free(b);
	free(d);
	py_module_free(m);
}
END_TEST

/* The rank (world size) where the call `op(` is, as project_py_rank finds it. */
static char *rank_at(const char *src, const char *ns, bool world, enum project_py_source *from)
{
	struct py_module *m = scan(src);
	int c = find_call(m, "op", 0);
	struct project_py_value v;
	bool ok;
	char *r;

	ck_assert_int_ge(c, 0);
	ok = world ? project_py_world_size(m, m->stmts[m->calls[c].stmt].func, m->calls[c].range.start, ns, &v)
		   : project_py_rank(m, m->stmts[m->calls[c].stmt].func, m->calls[c].range.start, ns, &v);
	r = ok ? strdup(v.expr) : strdup("-");
	if (ok && from)
		*from = v.from;
	if (ok)
		project_py_value_release(&v);
	py_module_free(m);
	return r;
}

START_TEST(t_rank)
{
	static const struct {
		const char *src, *ns, *rank, *world;
		enum project_py_source from;
	} cases[] = {
		/* a parameter beats everything; among parameters the best name */
		{ "def f(local_rank, rank, world_size):\n    op()\n", NULL, "rank", "world_size", PY_SRC_PARAM },
		{ "def f(localRankId, ep_world_size):\n    op()\n", NULL, "localRankId", "ep_world_size", PY_SRC_PARAM },
		/* a local set before the call, not after */
		{ "def f(x):\n    rank_idx = x\n    op()\n    rank = 3\n", NULL, "rank_idx", "-", PY_SRC_LOCAL },
		/* self attributes: the global rank before the local one */
		{ "class C:\n    def __init__(self, a, b):\n        self.local_rank_id = a\n        self.global_rank_id = b\n"
		  "        self.ep_world_size = 2\n    def run(self):\n        op()\n",
		  NULL, "self.global_rank_id", "self.ep_world_size", PY_SRC_SELF },
		/* the enclosing function's */
		{ "def outer(rank_id, nranks):\n    def inner():\n        op()\n    inner()\n", NULL, "rank_id", "nranks",
		  PY_SRC_ENCLOSING },
		/* an option of the namespace in reach */
		{ "import argparse\np = argparse.ArgumentParser()\np.add_argument('--local-rank', type=int)\n"
		  "p.add_argument('--world_size', type=int)\nargs = p.parse_args()\nop()\n",
		  "args", "args.local_rank", "args.world_size", PY_SRC_OPTION },
		/* a module global */
		{ "import os\nLOCAL_RANK = int(os.environ['LOCAL_RANK'])\ndef f():\n    op()\n", NULL, "LOCAL_RANK", "-",
		  PY_SRC_GLOBAL },
		/* set from torch.distributed or the environment, whatever the name */
		{ "import os\ndef f():\n    me = int(os.environ.get('RANK', '0'))\n    n = int(os.getenv('WORLD_SIZE'))\n    op()\n",
		  NULL, "me", "n", PY_SRC_CALL },
		{ "import torch.distributed as dist\ndef f():\n    r = dist.get_rank()\n    op()\n", NULL, "r", "-", PY_SRC_CALL },
		/* the index mp.spawn passes, but not what multiprocessing.Process passes */
		{ "import torch.multiprocessing as mp\ndef w(i, n):\n    op()\nmp.spawn(w, args=(2,), nprocs=2)\n", NULL, "i",
		  "-", PY_SRC_SPAWN },
		{ "import torch.multiprocessing as mp\ndef w(i):\n    op()\nmp.Process(target=w, args=(1,)).start()\n", NULL,
		  "-", "-", PY_SRC_SPAWN },
		/* nothing by name, but torch.distributed is initialised (as the module names it) */
		{ "import torch.distributed as dist\ndef w():\n    op()\ndef s():\n    dist.init_process_group('hccl')\n", NULL,
		  "dist.get_rank()", "dist.get_world_size()", PY_SRC_DIST },
		{ "from torch.distributed import init_process_group\ndef w():\n    init_process_group('hccl')\n    op()\n", NULL,
		  "torch.distributed.get_rank()", "torch.distributed.get_world_size()", PY_SRC_DIST },
		/* not rank names: ranks (a list), node_rank (a node), rank_of() */
		{ "def f(ranks, node_rank, ranked):\n    op()\n", NULL, "-", "-", PY_SRC_PARAM },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum project_py_source from = PY_SRC_PARAM;
		char *r = rank_at(cases[i].src, cases[i].ns, false, &from), *w = rank_at(cases[i].src, cases[i].ns, true, NULL);
		ck_assert_msg(strcmp(r, cases[i].rank) == 0, "case %zu: rank %s, not %s", i, r, cases[i].rank);
		ck_assert_msg(strcmp(w, cases[i].world) == 0, "case %zu: world size %s, not %s", i, w, cases[i].world);
		if (strcmp(r, "-") != 0)
			ck_assert_msg(from == cases[i].from, "case %zu: found as %s", i, project_py_source_text(from));
		free(r);
		free(w);
	}
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("py_scan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, t_strings_and_comments);
	tcase_add_test(tc, t_unclosed);
	tcase_add_test(tc, t_statements);
	tcase_add_test(tc, t_calls);
	tcase_add_test(tc, t_assignments);
	tcase_add_test(tc, t_dominates);
	tcase_add_test(tc, t_string_value);
	tcase_add_test(tc, t_rank);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
