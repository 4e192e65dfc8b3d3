/* Unit tests for py_scan.c: tokens (strings, f-strings, triple quotes,
 * comments, continuations), statements by indentation, defs and decorators,
 * calls with arguments, assignments with targets, flow dominance. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

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
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
