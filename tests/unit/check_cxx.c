/* Unit tests of the C++ scanner: the tokenizer, the #if branch choice and the
 * tricky outline cases of real Ascend C kernels. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "cxx_outline.h"
#include "cxx_pp.h"
#include "cxx_token.h"
#include "src_file.h"

/* ------------------------------------------------------------ helpers */

static struct cxx_tokens toks;
static const char *tsrc;

static void lex(const char *s)
{
	tsrc = s;
	cxx_tokenize(s, strlen(s), &toks);
}

/* Token i, checked: the tokenizer ends the array with an EOF token at
 * toks.n, so 0..toks.n may be read and nothing past it. */
static const struct cxx_token *tok_at(size_t i)
{
	ck_assert_msg(i <= toks.n, "token %zu asked of %zu tokens", i, toks.n);
	return &toks.v[i];
}

static int tok_is(size_t i, enum cxx_tok_kind kind, const char *text)
{
	const struct cxx_token *t = tok_at(i);
	size_t len = t->end - t->start;
	return t->kind == kind && strlen(text) == len && memcmp(tsrc + t->start, text, len) == 0;
}

#define TOK(i_, k_, s_)                                                                  \
	ck_assert_msg(tok_is(i_, k_, s_), "token %d: want %s '%s', got %s '%.*s'", (int)(i_),     \
		      cxx_tok_kind_name(k_), s_, cxx_tok_kind_name(tok_at(i_)->kind),              \
		      (int)(tok_at(i_)->end - tok_at(i_)->start), tsrc + tok_at(i_)->start)

static struct src_file *file;
static struct cxx_outline *ol;

static void outline(const char *s, struct cxx_macro_table *mt)
{
	char why[256];

	src_file_free(file);
	cxx_outline_free(ol);
	file = src_file_from_buffer("t.cpp", s, strlen(s));
	ol = cxx_outline_build(file, mt, NULL);
	ck_assert_msg(cxx_outline_validate(ol, why, sizeof(why)) == 0, "invalid outline: %s", why);
}

static const struct cxx_func *func(const char *qualified)
{
	for (size_t i = 0; i < ol->nfuncs; i++)
		if (strcmp(ol->funcs[i].qualified_name, qualified) == 0)
			return &ol->funcs[i];
	ck_abort_msg("no function '%s' (of %zu)", qualified, ol->nfuncs);
	return NULL;
}

static const struct cxx_stmt *nth_stmt(const struct cxx_func *f, enum cxx_stmt_kind kind, int n)
{
	for (size_t i = 0; i < f->body.nstmts; i++)
		if (f->body.stmts[i].kind == kind && n-- == 0)
			return &f->body.stmts[i];
	ck_abort_msg("no %s statement #%d in %s", cxx_stmt_kind_name(kind), n, f->name);
	return NULL;
}

static void teardown(void)
{
	cxx_tokens_release(&toks);
	cxx_outline_free(ol);
	src_file_free(file);
	ol = NULL;
	file = NULL;
}

/* ------------------------------------------------------------ tokenizer */

START_TEST(test_comments_utf8)
{
	lex("a /* 中文注释 } */ b // 行注释 {\n c");
	ck_assert_uint_eq(toks.n, 3);
	TOK(0, CXX_TOK_IDENT, "a");
	TOK(1, CXX_TOK_IDENT, "b");
	TOK(2, CXX_TOK_IDENT, "c");
	ck_assert_uint_eq(tok_at(2)->line, 2);
	ck_assert_int_eq(tok_at(3)->kind, CXX_TOK_EOF);
}
END_TEST

START_TEST(test_comment_after_define)
{
	lex("#define X 1 // 注释 (\nint y; /* a\n b */ z");
	TOK(0, CXX_TOK_PP_BEGIN, "#");
	TOK(1, CXX_TOK_IDENT, "define");
	TOK(2, CXX_TOK_IDENT, "X");
	TOK(3, CXX_TOK_NUMBER, "1");
	ck_assert_int_eq(tok_at(4)->kind, CXX_TOK_PP_END);
	TOK(5, CXX_TOK_KEYWORD, "int");
	TOK(8, CXX_TOK_IDENT, "z");
	ck_assert_uint_eq(tok_at(8)->line, 3);
}
END_TEST

START_TEST(test_literals)
{
	lex("u8\"a<b\" L\"x\" u'c' U'\\'' R\"d(a)\"b)d\" LR\"(x\ny)\" '\\\\' \"a\\\"b\"");
	TOK(0, CXX_TOK_STRING, "u8\"a<b\"");
	TOK(1, CXX_TOK_STRING, "L\"x\"");
	TOK(2, CXX_TOK_CHAR, "u'c'");
	TOK(3, CXX_TOK_CHAR, "U'\\''");
	TOK(4, CXX_TOK_STRING, "R\"d(a)\"b)d\"");
	ck_assert(tok_at(4)->flags & CXX_TF_RAW);
	TOK(5, CXX_TOK_STRING, "LR\"(x\ny)\"");
	TOK(6, CXX_TOK_CHAR, "'\\\\'");
	TOK(7, CXX_TOK_STRING, "\"a\\\"b\"");
	ck_assert_uint_eq(toks.n, 8);
}
END_TEST

START_TEST(test_unterminated_string_stops_at_newline)
{
	lex("\"abc\nint x;");
	TOK(0, CXX_TOK_STRING, "\"abc");
	ck_assert(tok_at(0)->flags & CXX_TF_UNTERM);
	TOK(1, CXX_TOK_KEYWORD, "int");
}
END_TEST

START_TEST(test_numbers)
{
	lex("1'000'000 0x1'FF 1.5e-3f .5 0b1010u 1e+5");
	TOK(0, CXX_TOK_NUMBER, "1'000'000");
	TOK(1, CXX_TOK_NUMBER, "0x1'FF");
	TOK(2, CXX_TOK_NUMBER, "1.5e-3f");
	TOK(3, CXX_TOK_NUMBER, ".5");
	TOK(4, CXX_TOK_NUMBER, "0b1010u");
	TOK(5, CXX_TOK_NUMBER, "1e+5");
	ck_assert_uint_eq(toks.n, 6);
}
END_TEST

START_TEST(test_continuations)
{
	lex("  #  define A(x) \\\n  do { x; } \\\r\n  while (0)\nint k;");
	TOK(0, CXX_TOK_PP_BEGIN, "#");
	TOK(1, CXX_TOK_IDENT, "define");
	TOK(14, CXX_TOK_PUNCT, ")");
	ck_assert_int_eq(tok_at(15)->kind, CXX_TOK_PP_END);
	TOK(16, CXX_TOK_KEYWORD, "int");
	ck_assert_uint_eq(tok_at(16)->line, 4);
}
END_TEST

START_TEST(test_angles_and_template)
{
	lex("A<B<C<int>>> x; a >> b; obj.template Get<T>(); p->template F<1>(); typename X::template Y<Z>");
	TOK(7, CXX_TOK_PUNCT, ">>>");
	TOK(11, CXX_TOK_PUNCT, ">>");
	TOK(14, CXX_TOK_IDENT, "obj");
	TOK(15, CXX_TOK_PUNCT, ".");
	TOK(16, CXX_TOK_KEYWORD, "template");
	TOK(25, CXX_TOK_PUNCT, "->");
	TOK(26, CXX_TOK_KEYWORD, "template");
	TOK(36, CXX_TOK_PUNCT, "::");
	TOK(37, CXX_TOK_KEYWORD, "template");
}
END_TEST

START_TEST(test_header_names)
{
	lex("#include <lib/a.h>\n#include \"b.h\"\nx < y > z");
	TOK(2, CXX_TOK_HEADER, "<lib/a.h>");
	TOK(6, CXX_TOK_STRING, "\"b.h\"");
	TOK(8, CXX_TOK_IDENT, "x");
	TOK(9, CXX_TOK_PUNCT, "<");
}
END_TEST

START_TEST(test_hash_not_at_line_start)
{
	lex("a # b\n  # pragma once\n");
	TOK(0, CXX_TOK_IDENT, "a");
	TOK(1, CXX_TOK_PUNCT, "#");
	TOK(3, CXX_TOK_PP_BEGIN, "#");
}
END_TEST

/* ------------------------------------------------------------ outline */

START_TEST(test_extern_c_name_on_next_line)
{
	outline("extern \"C\" __global__ __aicore__ void\nmoe_dispatch(GM_ADDR x, GM_ADDR y)\n{\n  Run(x);\n}\n", NULL);
	ck_assert_uint_eq(ol->nfuncs, 1);
	ck_assert_str_eq(ol->funcs[0].name, "moe_dispatch");
	ck_assert(ol->funcs[0].kernel);
	ck_assert(ol->funcs[0].extern_c);
	ck_assert_uint_eq(ol->funcs[0].nparams, 2);
	ck_assert_str_eq(ol->funcs[0].params[1].name, "y");
	ck_assert_str_eq(ol->funcs[0].params[1].type, "GM_ADDR");
	ck_assert_uint_eq(src_file_line(file, ol->funcs[0].name_range.start), 2);
}
END_TEST

START_TEST(test_specialisation_with_attribute_line)
{
	outline("namespace Catlass::Gemm::Kernel {\ntemplate <class B>\nclass GroupedMatmul {\npublic:\n"
		"  template <>\n  CATLASS_DEVICE\n  void operator()<AscendC::AIC>(Params const &params)\n  {\n"
		"    Aic(params);\n  }\n};\n}\n",
		NULL);
	const struct cxx_func *f = func("Catlass::Gemm::Kernel::GroupedMatmul::operator()<AscendC::AIC>");
	ck_assert_str_eq(f->name, "operator()");
	ck_assert_str_eq(f->template_args, "AscendC::AIC");
	ck_assert_str_eq(f->template_params, "");
	ck_assert_str_eq(f->prefix, "CATLASS_DEVICE void");
	ck_assert(f->in_class);
	ck_assert_uint_eq(f->nparams, 1);
	ck_assert_str_eq(f->params[0].name, "params");
	ck_assert_str_eq(f->params[0].type, "Params const &");
}
END_TEST

START_TEST(test_out_of_class_template)
{
	outline("template <class T, int N>\n__aicore__ inline void MoeKernel<T, N>::Process()\n{\n}\n"
		"Foo::Foo(int a, int b = 4) : a_(a), b_{a} { Init(); }\nFoo() = default;\nBar(const Bar&) = delete;\n",
		NULL);
	const struct cxx_func *f = func("MoeKernel::Process");
	ck_assert_str_eq(f->written_name, "MoeKernel<T, N>::Process");
	ck_assert_str_eq(f->template_params, "class T, int N");
	f = func("Foo::Foo");
	ck_assert_ptr_null(f->params[0].default_arg);
	ck_assert_str_eq(f->params[1].default_arg, "4");
	/* the mem-initializers come first, outside every statement */
	ck_assert_uint_eq(f->body.ncalls, 3);
	ck_assert_int_eq(f->body.calls[0].constructs, CXX_CONSTRUCT_INITIALIZER);
	ck_assert_str_eq(f->body.calls[0].callee, "a_");
	ck_assert_str_eq(f->body.calls[0].args[0], "a");
	ck_assert_int_eq(f->body.calls[0].stmt, CXX_NONE);
	ck_assert_str_eq(f->body.calls[1].callee, "b_");
	ck_assert_int_eq(f->body.calls[1].stmt, CXX_NONE);
	ck_assert_str_eq(f->body.calls[2].name, "Init");
	ck_assert_int_eq(f->body.calls[2].constructs, CXX_CONSTRUCT_CALL);
	ck_assert_int_ne(f->body.calls[2].stmt, CXX_NONE);
	ck_assert_int_eq(func("Foo")->def, CXX_DEF_DEFAULT);
	ck_assert_int_eq(func("Bar")->def, CXX_DEF_DELETE);
}
END_TEST

START_TEST(test_nested_struct_operator)
{
	outline("struct Outer {\n  struct Inner {\n    __aicore__ void operator()(int i) { Work(i); }\n  };\n"
		"  __aicore__ void Run() { auto f = [&](int k) { if (k) return; Use(k); }; f(1); return; }\n};\n",
		NULL);
	ck_assert_uint_eq(ol->nfuncs, 2);
	func("Outer::Inner::operator()");
	const struct cxx_func *f = func("Outer::Run");
	const struct cxx_stmt *lam = nth_stmt(f, CXX_STMT_LAMBDA, 0);
	const struct cxx_stmt *r0 = nth_stmt(f, CXX_STMT_RETURN, 0);
	const struct cxx_stmt *r1 = nth_stmt(f, CXX_STMT_RETURN, 1);
	ck_assert_int_eq(r0->owner, (int)(lam - f->body.stmts));
	ck_assert_int_eq(r1->owner, CXX_NONE);
}
END_TEST

START_TEST(test_loops)
{
	outline("void f() {\n"
		"  for (uint32_t groupIdx = 0; groupIdx < n; ++groupIdx) { if (x) break; continue; }\n"
		"  for (auto &e : experts) Use(e);\n"
		"  for (; k < n; ++k) {}\n"
		"  while (flag != target) { flag = Read(); }\n"
		"  do { Spin(); } while (AscendC::CrossCoreWaitFlag(3) != 0);\n"
		"  switch (role) { case 0: for (;;) { break; } break; default: continue; }\n"
		"}\n",
		NULL);
	const struct cxx_func *f = func("f");
	ck_assert_str_eq(nth_stmt(f, CXX_STMT_FOR, 0)->var, "groupIdx");
	ck_assert(nth_stmt(f, CXX_STMT_FOR, 0)->braced);
	ck_assert_str_eq(nth_stmt(f, CXX_STMT_FOR, 1)->var, "e");
	ck_assert(!nth_stmt(f, CXX_STMT_FOR, 1)->braced);
	ck_assert_str_eq(nth_stmt(f, CXX_STMT_FOR, 2)->var, "k");
	ck_assert_str_eq(nth_stmt(f, CXX_STMT_WHILE, 0)->text, "flag != target");
	ck_assert_str_eq(nth_stmt(f, CXX_STMT_DO, 0)->text, "AscendC::CrossCoreWaitFlag(3) != 0");
	/* break in the if -> first for; break after the inner for -> switch */
	ck_assert_int_eq(nth_stmt(f, CXX_STMT_BREAK, 0)->owner,
			 (int)(nth_stmt(f, CXX_STMT_FOR, 0) - f->body.stmts));
	ck_assert_int_eq(nth_stmt(f, CXX_STMT_BREAK, 1)->owner,
			 (int)(nth_stmt(f, CXX_STMT_FOR, 3) - f->body.stmts));
	ck_assert_int_eq(nth_stmt(f, CXX_STMT_BREAK, 2)->owner,
			 (int)(nth_stmt(f, CXX_STMT_SWITCH, 0) - f->body.stmts));
	/* continue inside the switch belongs to no loop of this function */
	ck_assert_int_eq(nth_stmt(f, CXX_STMT_CONTINUE, 1)->owner, CXX_NONE);
}
END_TEST

START_TEST(test_if_forms)
{
	outline("void f() {\n  if ASCEND_IS_AIC {\n    A();\n  } else if constexpr (K > 1) B(); else { C(); }\n}\n",
		NULL);
	const struct cxx_func *f = func("f");
	const struct cxx_stmt *a0 = nth_stmt(f, CXX_STMT_ARM, 0), *a1 = nth_stmt(f, CXX_STMT_ARM, 1),
			      *a2 = nth_stmt(f, CXX_STMT_ARM, 2);
	ck_assert_str_eq(a0->text, "ASCEND_IS_AIC");
	ck_assert(a0->braced);
	ck_assert_int_eq(a1->arm, CXX_ARM_ELSE_IF);
	ck_assert(a1->is_constexpr);
	ck_assert(!a1->braced);
	ck_assert_int_eq(a2->arm, CXX_ARM_ELSE);
	ck_assert_uint_eq(f->body.ncalls, 3); /* A, B, C: ASCEND_IS_AIC is no call */
}
END_TEST

START_TEST(test_points)
{
	outline("void f() {\n  MoeTracing(TRACE_POINT(\"dispatch aic\", \"B\"));\n"
		"  MoeTracing<true>(TRACE_POINT(\"moe \\\"x\\\"\", \"E\"), 2, groupIdx);\n"
		"  MoeTracing(17);\n}\n",
		NULL);
	const struct cxx_func *f = func("f");
	ck_assert_uint_eq(f->body.npoints, 3);
	ck_assert_str_eq(f->body.points[0].label, "dispatch aic");
	ck_assert_str_eq(f->body.points[0].event, "B");
	ck_assert_uint_eq(f->body.points[0].nextra, 0);
	ck_assert_ptr_null(f->body.points[0].template_args);
	ck_assert_str_eq(f->body.points[1].label, "moe \"x\"");
	ck_assert_str_eq(f->body.points[1].template_args, "true");
	ck_assert_uint_eq(f->body.points[1].nextra, 2);
	ck_assert_str_eq(f->body.points[1].extra[1], "groupIdx");
	ck_assert_ptr_null(f->body.points[2].label);
	ck_assert_str_eq(f->body.points[2].data, "17");
}
END_TEST

START_TEST(test_calls)
{
	outline("void f() {\n  AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>(AIV_TO_AIC);\n"
		"  this->epilogue.template Run<Tile>(a, Foo<A, B>(c));\n"
		"  LocalTensor<half> t(buf);\n  int n(3);\n  GetTiling()->Update();\n"
		"  kernel<<<8, nullptr, stream>>>(x);\n  s = \"a < b >= c\";\n}\n",
		NULL);
	const struct cxx_func *f = func("f");
	const struct cxx_call *c = f->body.calls;
	ck_assert_uint_eq(f->body.ncalls, 7);
	ck_assert_str_eq(c[0].callee, "AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>");
	ck_assert_str_eq(c[0].template_args, "0x2, PIPE_MTE3");
	ck_assert_ptr_null(c[0].object);
	ck_assert_str_eq(c[1].object, "this->epilogue");
	ck_assert_str_eq(c[1].name, "Run");
	ck_assert_uint_eq(c[1].nargs, 2);
	ck_assert_str_eq(c[1].args[1], "Foo<A, B>(c)");
	ck_assert_str_eq(c[2].name, "Foo");
	ck_assert_int_eq(c[2].constructs, CXX_CONSTRUCT_CALL); /* T(args) is only written */
	/* `LocalTensor<half> t(buf);` constructs; `int n(3);` does not */
	ck_assert_int_eq(c[3].constructs, CXX_CONSTRUCT_DECLARATION);
	ck_assert_str_eq(c[3].callee, "LocalTensor<half>");
	ck_assert_str_eq(c[3].name, "LocalTensor");
	ck_assert_str_eq(c[3].template_args, "half");
	ck_assert_uint_eq(c[3].nargs, 1);
	ck_assert_str_eq(c[3].args[0], "buf");
	ck_assert_str_eq(c[4].name, "GetTiling");
	ck_assert_str_eq(c[5].object, "GetTiling()");
	ck_assert_str_eq(c[6].name, "kernel");
	ck_assert_str_eq(c[6].template_args, "8, nullptr, stream");
}
END_TEST

/* Which code constructs an object, and what the call records. */
static const struct cxx_call *nth_construct(const struct cxx_func *f, enum cxx_construct kind, int n)
{
	for (size_t i = 0; i < f->body.ncalls; i++)
		if (f->body.calls[i].constructs == kind && n-- == 0)
			return &f->body.calls[i];
	ck_abort_msg("no construction %d of kind %s in %s", n, cxx_construct_name(kind), f->qualified_name);
	return NULL;
}

static size_t count_constructs(const struct cxx_func *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->body.ncalls; i++)
		n += f->body.calls[i].constructs != CXX_CONSTRUCT_CALL;
	return n;
}

START_TEST(test_constructions)
{
	outline("void f() {\n"
		"  Foo a(1), *b = nullptr, c{2}, d = {3}, e = Foo(4), g[3], h();\n"
		"  const ns::Tpl<A, B<C>> x(Get()), y;\n"
		"  extern Foo z;\n  static Foo s;\n  uint32_t n(4);\n  half v{1};\n  GM_ADDR p;\n  Foo &r = a;\n"
		"  for (Iter it(begin()); it != end(); ++it) {}\n"
		"  if (Guard lock(m); lock.ok()) {}\n"
		"  auto q = new Foo(5), w = new (buf) Foo{6}, i = new int(7), t = new Foo[4], u = new Foo;\n"
		"  Run(Foo{8}, ns::Bar<T>{9}, x.y{10});\n"
		"  return Foo{11};\n}\n",
		NULL);
	const struct cxx_func *f = func("f");
	const struct cxx_call *c;

	/* a(1), c{2}, d = {3}, g[3]; x(Get()), y; s; Iter it, Guard lock; 3 new; 3 temporaries */
	ck_assert_uint_eq(count_constructs(f), 4 + 2 + 1 + 2 + 3 + 3);
	c = nth_construct(f, CXX_CONSTRUCT_DECLARATION, 0);
	ck_assert_str_eq(c->callee, "Foo");
	ck_assert_str_eq(c->args[0], "1");
	ck_assert_int_eq(c->stmt, 0);
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_DECLARATION, 1)->args[0], "2");
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_DECLARATION, 2)->args[0], "3");
	ck_assert_uint_eq(nth_construct(f, CXX_CONSTRUCT_DECLARATION, 3)->nargs, 0); /* g[3] */
	c = nth_construct(f, CXX_CONSTRUCT_DECLARATION, 4);
	ck_assert_str_eq(c->callee, "ns::Tpl<A, B<C>>");
	ck_assert_str_eq(c->name, "Tpl");
	ck_assert_str_eq(c->template_args, "A, B<C>");
	ck_assert_str_eq(c->args[0], "Get()");
	ck_assert_uint_eq(nth_construct(f, CXX_CONSTRUCT_DECLARATION, 5)->nargs, 0); /* y */
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_DECLARATION, 6)->callee, "Foo"); /* static s */
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_DECLARATION, 7)->callee, "Iter");
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_DECLARATION, 8)->callee, "Guard");
	/* new Foo(5), new (buf) Foo{6}, new Foo; not new int(7) nor new Foo[4] */
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_NEW, 0)->args[0], "5");
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_NEW, 1)->args[0], "6");
	ck_assert_uint_eq(nth_construct(f, CXX_CONSTRUCT_NEW, 2)->nargs, 0);
	/* Foo{8}, ns::Bar<T>{9}, Foo{11}; not x.y{10} */
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_TEMPORARY, 0)->callee, "Foo");
	c = nth_construct(f, CXX_CONSTRUCT_TEMPORARY, 1);
	ck_assert_str_eq(c->callee, "ns::Bar<T>");
	ck_assert_str_eq(c->args[0], "9");
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_TEMPORARY, 2)->args[0], "11");
	/* the calls of the initializers are still read */
	ck_assert_int_eq(f->body.calls[3].constructs, CXX_CONSTRUCT_CALL);
	ck_assert_str_eq(f->body.calls[3].callee, "Foo"); /* e = Foo(4) */
	{
		bool get = false, begin = false, ok = false;
		for (size_t i = 0; i < f->body.ncalls; i++) {
			get = get || strcmp(f->body.calls[i].callee, "Get") == 0;
			begin = begin || strcmp(f->body.calls[i].callee, "begin") == 0;
			ok = ok || strcmp(f->body.calls[i].callee, "lock.ok") == 0;
		}
		ck_assert(get && begin && ok);
	}
}
END_TEST

START_TEST(test_mem_initializers)
{
	outline("struct Op : Base<int> {\n"
		"  Op(int x) noexcept : Base<int>(x), f_([&]() { return Make(x); }()), g_{Compute(x)}, h_(x) { Run(); }\n"
		"  Op() : Op(0) {}\n};\n",
		NULL);
	const struct cxx_func *f = func("Op::Op");
	const char *want[] = { "Base<int>", "f_", "g_", "h_" };

	for (int i = 0; i < 4; i++) {
		const struct cxx_call *c = nth_construct(f, CXX_CONSTRUCT_INITIALIZER, i);
		ck_assert_str_eq(c->callee, want[i]);
		ck_assert_int_eq(c->stmt, CXX_NONE);
	}
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_INITIALIZER, 0)->name, "Base");
	ck_assert_str_eq(nth_construct(f, CXX_CONSTRUCT_INITIALIZER, 0)->template_args, "int");
	/* a lambda there has no statement to belong to: no LAMBDA statement */
	ck_assert_uint_eq(f->body.nstmts, 1);
	ck_assert_str_eq(f->body.calls[f->body.ncalls - 1].callee, "Run");
	/* a delegating constructor */
	ck_assert_str_eq(nth_construct(&ol->funcs[1], CXX_CONSTRUCT_INITIALIZER, 0)->callee, "Op");
}
END_TEST

START_TEST(test_macro_else_arms)
{
	outline("#define CASE_K(K) else if constexpr (k == K) { Run<K>(); }\n"
		"#define LAUNCH(op) do { op.Init(x); op.Process(); } while (0)\n"
		"void f() {\n  if constexpr (k == 0) { Run<0>(); }\n  CASE_K(1)\n  CASE_K(2)\n  else { Bad(); }\n"
		"  LAUNCH(op);\n}\n",
		NULL);
	const struct cxx_func *f = func("f");
	ck_assert_uint_eq(ol->nmacros, 2);
	ck_assert(ol->macros[0].has_code);
	ck_assert_uint_eq(ol->macros[1].body.ncalls, 2);
	ck_assert_str_eq(ol->macros[1].body.calls[0].callee, "op.Init");
	ck_assert_uint_eq(ol->nfuncs, 1);
	ck_assert_int_eq(nth_stmt(f, CXX_STMT_ARM, 1)->arm, CXX_ARM_MACRO);
	ck_assert_int_eq(nth_stmt(f, CXX_STMT_ARM, 2)->arm, CXX_ARM_MACRO);
	ck_assert_int_eq(nth_stmt(f, CXX_STMT_ARM, 3)->arm, CXX_ARM_ELSE);
	ck_assert_int_eq(nth_stmt(f, CXX_STMT_ARM, 3)->parent, nth_stmt(f, CXX_STMT_ARM, 0)->parent);
}
END_TEST

static const char split_src[] =
	"__aicore__ void Split(int c)\n{\n#ifdef USE_FAST\n  if (c) {\n    Fast();\n    return;\n  }\n#else\n"
	"  if (c) {\n    Slow();\n#endif\n  Common();\n#ifndef USE_FAST\n  }\n#endif\n  End();\n}\n";

START_TEST(test_if_split_braces_default)
{
	outline(split_src, NULL);
	ck_assert(ol->balanced);
	ck_assert_uint_eq(ol->nconds, 2);
	ck_assert(ol->conds[0].branches[0].taken);
	ck_assert_int_eq(ol->conds[0].branches[0].value, CXX_COND_UNKNOWN);
	ck_assert(ol->conds[0].split_braces);
	ck_assert(!ol->conds[1].branches[0].taken);
	ck_assert_int_eq(ol->conds[1].branches[0].value, CXX_COND_FALSE);
	ck_assert_uint_eq(func("Split")->body.ncalls, 3);
	ck_assert_uint_eq(ol->warnings, 0);
}
END_TEST

START_TEST(test_if_split_braces_undef)
{
	struct cxx_macro_table *mt = cxx_macros_new();
	cxx_macros_undef(mt, "USE_FAST");
	outline(split_src, mt);
	ck_assert(ol->balanced);
	ck_assert(ol->conds[0].branches[1].taken);
	ck_assert(ol->conds[1].branches[0].taken);
	/* Common() is inside the if (c) of the #else branch */
	const struct cxx_func *f = func("Split");
	ck_assert_int_eq(f->body.calls[1].stmt >= 0, 1);
	ck_assert_int_eq(f->body.stmts[f->body.calls[1].stmt].parent, 1);
	cxx_outline_free(ol);
	ol = NULL;
	cxx_macros_free(mt);
}
END_TEST

START_TEST(test_if_expressions)
{
	struct cxx_macro_table *mt = cxx_macros_new();
	cxx_macros_define(mt, "__CCE_AICORE__=220");
	outline("#if 0\nvoid a() {}\n#elif __CCE_AICORE__ >= 220 && !defined(X)\nvoid b() {}\n#else\nvoid c() {}\n"
		"#endif\n#if defined(X)\nvoid d() {}\n#endif\n#define ON 1\n#if ON\nvoid e() {}\n#endif\n",
		mt);
	/* taking `!defined(X)` assumed X undefined, so `#if defined(X)` is not taken */
	ck_assert_uint_eq(ol->nfuncs, 2);
	ck_assert_str_eq(ol->funcs[0].name, "b");
	ck_assert_str_eq(ol->funcs[1].name, "e");
	ck_assert_int_eq(ol->conds[0].branches[0].value, CXX_COND_FALSE);
	ck_assert_int_eq(ol->conds[0].branches[1].value, CXX_COND_UNKNOWN);
	ck_assert_int_eq(ol->conds[1].branches[0].value, CXX_COND_FALSE);
	cxx_outline_free(ol);
	ol = NULL;
	cxx_macros_free(mt);
}
END_TEST

START_TEST(test_unbalanced_is_warned_not_fatal)
{
	outline("void ok() { A(); }\nvoid broken() {\n  if (x) {\n    B();\n}\nvoid later() { C(); }\n", NULL);
	ck_assert(!ol->balanced);
	ck_assert_uint_ge(ol->warnings, 1);
	func("ok");
}
END_TEST

START_TEST(test_deep_nesting_skips_function)
{
	char buf[4096];
	size_t n = 0;
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "void deep() {");
	for (int i = 0; i < 300; i++)
		buf[n++] = '{';
	for (int i = 0; i < 300; i++)
		buf[n++] = '}';
	n += (size_t)snprintf(buf + n, sizeof(buf) - n, "}\nvoid next() { X(); }\n");
	outline(buf, NULL);
	ck_assert_uint_eq(ol->nfuncs, 1);
	ck_assert_str_eq(ol->funcs[0].name, "next");
	ck_assert_uint_ge(ol->warnings, 1);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("cxx");
	TCase *t = tcase_create("tokenizer");
	TCase *o = tcase_create("outline");

	tcase_add_checked_fixture(t, NULL, teardown);
	tcase_add_checked_fixture(o, NULL, teardown);
	tcase_add_test(t, test_comments_utf8);
	tcase_add_test(t, test_comment_after_define);
	tcase_add_test(t, test_literals);
	tcase_add_test(t, test_unterminated_string_stops_at_newline);
	tcase_add_test(t, test_numbers);
	tcase_add_test(t, test_continuations);
	tcase_add_test(t, test_angles_and_template);
	tcase_add_test(t, test_header_names);
	tcase_add_test(t, test_hash_not_at_line_start);
	tcase_add_test(o, test_extern_c_name_on_next_line);
	tcase_add_test(o, test_specialisation_with_attribute_line);
	tcase_add_test(o, test_out_of_class_template);
	tcase_add_test(o, test_nested_struct_operator);
	tcase_add_test(o, test_loops);
	tcase_add_test(o, test_if_forms);
	tcase_add_test(o, test_points);
	tcase_add_test(o, test_calls);
	tcase_add_test(o, test_constructions);
	tcase_add_test(o, test_mem_initializers);
	tcase_add_test(o, test_macro_else_arms);
	tcase_add_test(o, test_if_split_braces_default);
	tcase_add_test(o, test_if_split_braces_undef);
	tcase_add_test(o, test_if_expressions);
	tcase_add_test(o, test_unbalanced_is_warned_not_fatal);
	tcase_add_test(o, test_deep_nesting_skips_function);
	suite_add_tcase(s, t);
	suite_add_tcase(s, o);
	return s;
}

#include "check_main.h"
