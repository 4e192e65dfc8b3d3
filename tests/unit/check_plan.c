/* Unit tests of the planner: core-type conditions, call resolution through
 * declarations, rule precedence, folding, and the walk over small sources
 * built in memory. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cxx_outline.h"
#include "plan.h"
#include "plan_int.h"
#include "rule_load.h"
#include "src_file.h"
#include "xalloc.h"

static struct rule_policy *policy;
static struct plan *pl;

/* Plans one file `op_kernel/op.h` holding `src` under the trace rules `rules`. */
static void plan_src(const char *src, const char *rules)
{
	char text[4096];
	struct plan_unit *u = xcalloc(1, sizeof(*u));
	struct diag d;
	static FILE *null;

	if (!null)
		null = fopen("/dev/null", "w"); /* the base-header glob finds no operator directory */
	diag_init(&d, null ? null : stderr, false);
	snprintf(text, sizeof(text), "rules 1;\ntrace {\n root \"processing\" at function /::Process$/;\n%s}\n", rules);
	policy = rule_load_buffer("t.rules", text, strlen(text), NULL, &d);
	ck_assert_ptr_nonnull(policy);
	u->path = xstrdup("op_kernel/op.h");
	u->fs_path = xstrdup("/nonexistent/op_kernel/op.h");
	u->file = src_file_from_buffer("op_kernel/op.h", src, strlen(src));
	u->outline = cxx_outline_build(u->file, NULL, NULL);
	pl = plan_from_units(policy, "/nonexistent", u, 1, &d);
}

static void teardown(void)
{
	plan_free(pl);
	rule_policy_free(policy);
	pl = NULL;
	policy = NULL;
}

static const struct plan_node *find(const char *label)
{
	for (size_t i = 0; i < pl->nnodes; i++)
		if (pl->nodes[i].label && strcmp(pl->nodes[i].label, label) == 0)
			return &pl->nodes[i];
	return NULL;
}

START_TEST(test_cond_core)
{
	ck_assert_uint_eq(plan_cond_core("ASCEND_IS_AIC"), PLAN_CORE_AIC);
	ck_assert_uint_eq(plan_cond_core("ASCEND_IS_AIV"), PLAN_CORE_AIV);
	ck_assert_uint_eq(plan_cond_core("!ASCEND_IS_AIC"), PLAN_CORE_AIV);
	ck_assert_uint_eq(plan_cond_core("ASCEND_IS_NOT_AIV"), PLAN_CORE_AIC);
	ck_assert_uint_eq(plan_cond_core("g_coreType == AscendC::AIC"), PLAN_CORE_AIC);
	ck_assert_uint_eq(plan_cond_core("g_coreType != AIV"), PLAN_CORE_AIC);
	ck_assert_uint_eq(plan_cond_core("CORE_TYPE == AscendC::AIV"), PLAN_CORE_AIV);
	ck_assert_uint_eq(plan_cond_core("ASCEND_IS_AIC || x"), PLAN_CORE_MIX);
	ck_assert_uint_eq(plan_cond_core("isSendCore"), PLAN_CORE_MIX);
	ck_assert_uint_eq(plan_cond_core("AICX == 1"), PLAN_CORE_MIX);
}
END_TEST

START_TEST(test_member_operator_resolution)
{
	plan_src("class K {\npublic:\n template <int T> void operator()(int n);\n};\n"
		 "template <> void K::operator()<AscendC::AIC>(int n) { n++; }\n"
		 "template <> void K::operator()<AscendC::AIV>(int n) { n--; }\n"
		 "class Op {\npublic:\n void Process()\n {\n  if ASCEND_IS_AIC {\n   k_.operator()<AscendC::AIC>(1);\n  }\n"
		 "  if ASCEND_IS_AIV {\n   k_.operator()<AscendC::AIV>(1);\n  }\n }\nprivate:\n K k_;\n};\n",
		 " function /operator\\(\\)<AscendC::AI[CV]>/ \"{parent} {core}\";\n");
	ck_assert_ptr_nonnull(find("processing aic"));
	ck_assert_ptr_nonnull(find("processing aiv"));
	ck_assert_uint_eq(find("processing aic")->core, PLAN_CORE_AIC);
	ck_assert_uint_eq(find("processing aiv")->core, PLAN_CORE_AIV);
	ck_assert_uint_eq(find("processing")->core, PLAN_CORE_MIX);
	ck_assert_uint_eq(pl->density[0], 2);
	ck_assert_uint_eq(pl->density[1], 2);
}
END_TEST

START_TEST(test_functor_and_local_object)
{
	plan_src("struct Block { void operator()(int n) { n++; } };\n"
		 "struct Disp { void Send(int g) { g++; } };\n"
		 "class Op {\npublic:\n void Process()\n {\n  Block blk;\n  Disp *d = nullptr;\n  blk(2);\n  d->Send(1);\n  Missing(3);\n }\n};\n",
		 " function /Block::operator\\(\\)$/ \"functor {name}\";\n function /::Send$/ \"send\";\n");
	ck_assert_ptr_nonnull(find("functor block"));
	ck_assert_ptr_nonnull(find("send"));
	ck_assert_uint_eq(pl->nunresolved, 1);
	ck_assert_str_eq(pl->unresolved[0].callee, "Missing");
}
END_TEST

static const struct plan_node *find_kind(enum plan_kind kind)
{
	for (size_t i = 0; i < pl->nnodes; i++)
		if (pl->nodes[i].kind == kind)
			return &pl->nodes[i];
	return NULL;
}

#define LATER_RULE_SRC                                                                              \
	"class Op {\npublic:\n void Process()\n {\n  for (int kIdx = 0; kIdx < 2; kIdx++) {\n   Stage();\n  }\n }\n" \
	" void Stage() { n++; }\n int n;\n};\n" /* a body: an empty function gets no point */

/* Two rules match one loop: the later decides, in either order. */
START_TEST(test_later_rule_wins)
{
	const struct plan_node *loop;

	plan_src(LATER_RULE_SRC, " loop /kIdx/ \"k\";\n skip loop /kIdx/;\n function /Stage$/ \"stage\";\n");
	ck_assert_ptr_nonnull(find("processing"));
	loop = find_kind(PLAN_loop);
	ck_assert_ptr_nonnull(loop);
	ck_assert_int_eq(loop->fate, PLAN_FATE_SKIPPED);
	ck_assert_ptr_null(find("k"));
	ck_assert_ptr_null(find("stage")); /* nothing under a skipped loop */
	teardown();

	plan_src(LATER_RULE_SRC, " skip loop /kIdx/;\n loop /kIdx/ \"k\";\n function /Stage$/ \"stage\";\n");
	ck_assert_ptr_nonnull(find("processing"));
	ck_assert_ptr_nonnull(find("k"));
	ck_assert_int_eq(find("k")->kind, PLAN_loop);
	ck_assert_int_eq(find("k")->fate, PLAN_FATE_INSERT);
	ck_assert_ptr_nonnull(find("stage"));
}
END_TEST

START_TEST(test_fold_and_disambiguate)
{
	plan_src("class Op {\npublic:\n void Process()\n {\n  for (int g = 0; g < 2; g++) { A(); }\n  for (int g = 0; g < 2; g++) { A(); }\n }\n"
		 " void A() { n++; B(); }\n void B() { n--; }\n int n;\n};\n",
		 " depth 3;\n loop /\\bg\\b/ \"{parent} loop\";\n function /::[AB]$/ \"{parent} {name}\";\n");
	ck_assert_ptr_nonnull(find("processing loop"));
	ck_assert_ptr_nonnull(find("processing loop-2"));
	ck_assert_int_eq(find("processing loop a")->depth, 3);
	ck_assert_int_eq(find("processing loop a b")->fate, PLAN_FATE_FOLDED);
	ck_assert_ptr_nonnull(strstr(find("processing loop a b")->why, "folded into 'processing loop a'"));
}
END_TEST

START_TEST(test_existing_pair_present)
{
	plan_src("class Op {\npublic:\n void Process()\n {\n  MoeTracing(TRACE_POINT(\"mine\", \"B\"));\n  Step();\n"
		 "  MoeTracing(TRACE_POINT(\"mine\", \"E\"));\n }\n void Step() { n++; }\n int n;\n};\n",
		 " function /Step$/ \"{parent} step\";\n");
	ck_assert_int_eq(find("mine")->fate, PLAN_FATE_PRESENT);
	ck_assert_int_eq(find("mine step")->fate, PLAN_FATE_INSERT);
}
END_TEST

/* A node planned in function `qualified`, of kind `kind`, or NULL. */
static const struct plan_node *in_func(const char *qualified, enum plan_kind kind)
{
	for (size_t i = 0; i < pl->nnodes; i++) {
		const struct plan_node *n = &pl->nodes[i];
		if (n->kind == kind && n->func >= 0 &&
		    strcmp(pl->units[n->unit].outline->funcs[n->func].qualified_name, qualified) == 0)
			return n;
	}
	return NULL;
}

START_TEST(test_constructions_followed)
{
	plan_src("struct Disp {\n Disp() { Wait(0); }\n Disp(int t) { Wait(t); }\n};\n"
		 "struct Queue { Queue(int t) { Wait(t); } };\n"
		 "struct Owner { Owner(int t) : q_(t) { n_ = t; }\n Queue q_;\n int n_;\n};\n"
		 "struct Self { Self() : Self(1) {}\n Self(int t) { Wait(t); } };\n"
		 "struct Base { Base() { Wait(7); } };\n"
		 "struct Derived : public Base { int k; };\n"
		 "struct Plain { int a; };\n"
		 "struct Decoy { Decoy(int t) { Wait(t); } };\n"
		 "struct SyncGuard { SyncGuard() { n = 1; } int n; };\n"
		 "class Op {\npublic:\n void Process()\n {\n  Disp d(1);\n  Owner o{2};\n  Self s;\n  Derived dv;\n"
		 "  Plain p{3};\n  TQueSync<PIPE_S> sync;\n  Use(Plain(4));\n  Decoy *none = nullptr;\n  SyncGuard g;\n }\n};\n",
		 " function /::Disp$/ \"disp\";\n function /::Queue$/ \"queue\";\n function /^Owner::Owner$/ \"owner\";\n"
		 " hot /Wait|Sync/ \"{parent} {name}\";\n");
	/* the constructor that takes one argument, not the default one */
	ck_assert_ptr_nonnull(find("disp"));
	ck_assert_uint_eq(plan_node_line(pl, find("disp")), 3);
	ck_assert_ptr_nonnull(find("disp wait"));
	/* a member's mem-initializer runs before its owner's body: a sibling before it */
	ck_assert_ptr_nonnull(find("queue"));
	ck_assert_ptr_nonnull(find("owner"));
	ck_assert(find("queue") < find("owner"));
	ck_assert_int_eq(find("queue")->parent, find("owner")->parent);
	/* a delegating constructor, and a class without one whose base has one */
	ck_assert_ptr_nonnull(in_func("Self::Self", PLAN_hot));
	ck_assert_ptr_nonnull(in_func("Base::Base", PLAN_hot));
	ck_assert_ptr_null(in_func("Decoy::Decoy", PLAN_hot));
	/* `TQueSync<PIPE_S> sync;` runs no constructor of the sources: no hot point,
	 * and no call the planner failed to follow; nor is Plain(4), nor Plain p{3};
	 * `SyncGuard g;` calls the constructor of SyncGuard, a hot name */
	ck_assert_ptr_nonnull(find("processing sync-guard"));
	ck_assert_int_eq(find("processing sync-guard")->kind, PLAN_hot);
	for (size_t i = 0; i < pl->nnodes; i++)
		ck_assert_msg(pl->nodes[i].kind != PLAN_hot || strstr(pl->nodes[i].label, "que-sync") == NULL,
			      "a hot point '%s' on a declaration of a library class", pl->nodes[i].label);
	ck_assert_uint_eq(pl->nunresolved, 2);
	ck_assert_str_eq(pl->unresolved[0].callee, "Use");
	ck_assert_str_eq(pl->unresolved[1].callee, "Wait");
}
END_TEST

START_TEST(test_construction_wrapped)
{
	plan_src("struct Disp { Disp(int t) { n = t; } int n; };\n"
		 "class Op {\npublic:\n void Process()\n {\n  Disp d(1);\n  n++;\n }\n int n;\n};\n",
		 " wrap call /^Disp d\\(/ \"{parent} make-disp\";\n");
	ck_assert_ptr_nonnull(find("processing make-disp"));
	ck_assert_int_eq(find("processing make-disp")->kind, PLAN_wrap);
	ck_assert_int_eq(find("processing make-disp")->fate, PLAN_FATE_INSERT);
}
END_TEST

START_TEST(test_empty_body_no_point)
{
	plan_src("class Op {\npublic:\n Op() {}\n void Process()\n {\n  Step();\n }\n void Step() {}\n};\n",
		 " function /Step$/ \"{parent} step\";\n");
	ck_assert_int_eq(find("Op::Step")->fate, PLAN_FATE_SKIPPED);
	ck_assert_str_eq(find("Op::Step")->why, "its body is empty");
	ck_assert_ptr_null(find("processing step"));
}
END_TEST

START_TEST(test_void_prefix)
{
	struct cxx_func f;
	memset(&f, 0, sizeof(f));
	f.prefix = "__aicore__ inline void";
	ck_assert(plan_func_is_void(&f));
	f.prefix = "CATLASS_DEVICE uint32_t";
	ck_assert(!plan_func_is_void(&f));
	f.prefix = "avoid";
	ck_assert(!plan_func_is_void(&f));
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("plan");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_cond_core);
	tcase_add_test(tc, test_member_operator_resolution);
	tcase_add_test(tc, test_functor_and_local_object);
	tcase_add_test(tc, test_later_rule_wins);
	tcase_add_test(tc, test_constructions_followed);
	tcase_add_test(tc, test_construction_wrapped);
	tcase_add_test(tc, test_empty_body_no_point);
	tcase_add_test(tc, test_fold_and_disambiguate);
	tcase_add_test(tc, test_existing_pair_present);
	tcase_add_test(tc, test_void_prefix);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
