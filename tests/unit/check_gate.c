/* Unit tests for the host-side readers of gate G2 (project_opdef, project_infer,
 * project_aclnn, project_aclnn_gen, project_pybind), the constant evaluator, the
 * report and the gate table (gate_list.h, gate_run.c). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "project_aclnn.h"
#include "project_aclnn_gen.h"
#include "project_autograd.h"
#include "gate.h"
#include "project_model.h"
#include "gate_run.h"
#include "project_tokens.h"
#include "project_graph.h"
#include "project_infer.h"
#include "project_opdef.h"
#include "project_pybind.h"

START_TEST(t_opdef)
{
	const char *src = "namespace ops {\n"
			  "class Foo : public OpDef {\n"
			  "public:\n"
			  "    explicit Foo(const char *name) : OpDef(name) {\n"
			  "        this->Input(\"x\").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});\n"
			  "        this->Output(\"y\")\n"
			  "            .ParamType(DYNAMIC)\n"
			  "            .Format({ge::FORMAT_ND});\n"
			  "        // this->Output(\"commented\");\n"
			  "        this->Output(\"profiling_data\").ParamType(OPTIONAL).DataType({ge::DT_INT64});\n"
			  "        this->AICore().AddConfig(\"ascend910b\");\n"
			  "    }\n"
			  "};\n"
			  "OP_ADD(Foo);\n"
			  "class Bar : public ops::OpDef { public: Bar(const char *n) : OpDef(n) {\n"
			  "    this->Output(\"z\");\n"
			  "} };\n"
			  "OP_ADD(Bar);\n"
			  "}\n";
	struct opdef_file f;
	const struct opdef_op *foo, *bar;

	project_opdef(src, strlen(src), &f);
	ck_assert_uint_eq(f.nops, 2);
	foo = strcmp(f.ops[0].name, "Foo") == 0 ? &f.ops[0] : &f.ops[1];
	bar = foo == &f.ops[0] ? &f.ops[1] : &f.ops[0];
	ck_assert_str_eq(foo->name, "Foo");
	ck_assert(foo->registered && bar->registered);
	ck_assert_uint_eq(foo->ninputs, 1);
	ck_assert_uint_eq(foo->noutputs, 2);
	ck_assert_int_eq(foo->params[0].type, OPDEF_REQUIRED);
	ck_assert_uint_eq(foo->params[0].ndtypes, 2);
	ck_assert_str_eq(foo->params[0].dtypes[1], "ge::DT_FLOAT16");
	ck_assert_int_eq(foo->params[1].type, OPDEF_DYNAMIC);
	ck_assert_uint_eq(foo->params[1].nformats, 1);
	ck_assert_str_eq(foo->params[2].name, "profiling_data");
	ck_assert_int_eq(foo->params[2].type, OPDEF_OPTIONAL);
	ck_assert_int_eq(opdef_output_index(foo, "profiling_data"), 1);
	/* the insertion point follows the last Output chain's line */
	ck_assert_ptr_nonnull(strstr(src + foo->after_last_output, "        this->AICore()"));
	ck_assert(src[foo->params[2].chain.end - 1] == ';');
	ck_assert_int_eq(memcmp(src + foo->params[2].type_arg.start, "OPTIONAL", 8), 0);
	ck_assert_uint_eq(bar->noutputs, 1);
	ck_assert_int_eq(bar->params[0].type, OPDEF_UNSET);
	opdef_file_release(&f);
}
END_TEST

/* Inputs and outputs declared on OpAICoreConfig variables: grouped per
 * variable (scoped to the block that declares it), the op's own list taken
 * from its first config when it has no this-> chains, comments not read. */
START_TEST(t_opdef_configs)
{
	const char *src = "namespace ops {\n"
			  "class Cfg : public OpDef {\n"
			  "public:\n"
			  "    explicit Cfg(const char *name) : OpDef(name) {\n"
			  "        OpAICoreConfig aicore_config;\n"
			  "        aicore_config.Input(\"x\").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_BF16});\n"
			  "        aicore_config.Output(\"y\")\n"
			  "            .ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_BF16});\n"
			  "        // aicore_config.Output(\"commented\");\n"
			  "        /* aicore_config.Output(\"blocked\"); */\n"
			  "        aicore_config.DynamicCompileStaticFlag(true);\n"
			  "        this->AICore().AddConfig(\"ascend910b\", aicore_config);\n"
			  "        OpAICoreConfig other = Make();\n"
			  "        this->AICore().AddConfig(\"ascend310p\", other);\n"
			  "        OpAICoreConfig flags;\n"
			  "        flags.PrecisionReduceFlag(true);\n"
			  "    }\n"
			  "    OpAICoreConfig Make() const {\n"
			  "        OpAICoreConfig other;\n"
			  "        other.Input(\"x\").DataType({ge::DT_FLOAT16});\n"
			  "        other.Output(\"y\").DataType({ge::DT_FLOAT16});\n"
			  "        other.Output(\"z\").DataType({ge::DT_FLOAT16});\n"
			  "        return other;\n"
			  "    }\n"
			  "    OpAICoreConfig Later() const;\n"
			  "};\n"
			  "OpAICoreConfig Cfg::Later() const {\n"
			  "    OpAICoreConfig late;\n"
			  "    late.Output(\"y\").DataType({ge::DT_INT8});\n"
			  "    return late;\n"
			  "}\n"
			  "OP_ADD(Cfg);\n"
			  "class Own : public OpDef { public: Own(const char *n) : OpDef(n) {\n"
			  "    this->Input(\"a\");\n"
			  "    this->Output(\"b\").DataType({ge::DT_FLOAT});\n"
			  "    OpAICoreConfig c310;\n"
			  "    c310.Input(\"a\");\n"
			  "    c310.Output(\"b\").DataType({ge::DT_FLOAT16});\n"
			  "    this->AICore().AddConfig(\"ascend310p\", c310);\n"
			  "} };\n"
			  "OP_ADD(Own);\n"
			  "}\n";
	struct opdef_file f;
	const struct opdef_op *cfg = NULL, *own = NULL;

	project_opdef(src, strlen(src), &f);
	ck_assert_uint_eq(f.nops, 2);
	for (size_t i = 0; i < f.nops; i++) {
		if (strcmp(f.ops[i].name, "Cfg") == 0)
			cfg = &f.ops[i];
		if (strcmp(f.ops[i].name, "Own") == 0)
			own = &f.ops[i];
	}
	ck_assert_ptr_nonnull(cfg);
	ck_assert_ptr_nonnull(own);
	/* three configs declare chains (flags and the copy `other = Make()` do not) */
	ck_assert_uint_eq(cfg->nconfigs, 3);
	ck_assert_str_eq(cfg->configs[0].var, "aicore_config");
	ck_assert_uint_eq(cfg->configs[0].nparams, 2);
	ck_assert_uint_eq(cfg->configs[0].nsocs, 1);
	ck_assert_str_eq(cfg->configs[0].socs[0], "ascend910b");
	ck_assert_int_eq(memcmp(src + cfg->configs[0].decl.start, "aicore_config;", 14), 0);
	ck_assert_str_eq(cfg->configs[1].var, "other");
	ck_assert_uint_eq(cfg->configs[1].noutputs, 2);
	ck_assert_uint_eq(cfg->configs[1].nsocs, 0); /* the ctor's `other` is another variable */
	ck_assert_str_eq(cfg->configs[2].var, "late");
	ck_assert_uint_eq(cfg->configs[2].noutputs, 1);
	ck_assert_str_eq(cfg->configs[2].params[0].dtypes[0], "ge::DT_INT8");
	/* no this-> chains: the op's list is the first config's */
	ck_assert_int_eq(cfg->from_config, 0);
	ck_assert_uint_eq(cfg->ninputs, 1);
	ck_assert_uint_eq(cfg->noutputs, 1);
	ck_assert_str_eq(cfg->params[1].name, "y");
	ck_assert_uint_eq(cfg->params[1].ndtypes, 2);
	ck_assert_int_eq(memcmp(src + cfg->params[1].chain.start, "aicore_config.Output(\"y\")", 25), 0);
	ck_assert(src[cfg->params[1].chain.end - 1] == ';');
	ck_assert_uint_eq(cfg->after_last_output, cfg->configs[0].after_last_output);
	ck_assert_ptr_nonnull(strstr(src + cfg->after_last_output, "        // aicore_config.Output(\"commented\")"));
	/* this-> chains stay the op's; the config is an override */
	ck_assert_int_eq(own->from_config, -1);
	ck_assert_uint_eq(own->nparams, 2);
	ck_assert_str_eq(own->params[1].dtypes[0], "ge::DT_FLOAT");
	ck_assert_uint_eq(own->nconfigs, 1);
	ck_assert_str_eq(own->configs[0].var, "c310");
	ck_assert_int_eq(own->configs[0].last_output, 1);
	ck_assert_str_eq(own->configs[0].params[1].dtypes[0], "ge::DT_FLOAT16");
	ck_assert_str_eq(own->configs[0].socs[0], "ascend310p");
	opdef_file_release(&f);

	/* a constructor defined outside its class (two OP_ADDs: no fallback) */
	{
		const char *out_of_class = "class X : public OpDef { public: explicit X(const char *name); };\n"
					   "X::X(const char *name) : OpDef(name), n_{0}\n"
					   "{\n"
					   "    OpAICoreConfig c;\n"
					   "    c.Output(\"o\").DataType({ge::DT_FLOAT});\n"
					   "}\n"
					   "OP_ADD(X);\n"
					   "OP_ADD(Y);\n";
		project_opdef(out_of_class, strlen(out_of_class), &f);
		ck_assert_str_eq(f.ops[0].name, "X");
		ck_assert_uint_eq(f.ops[0].nconfigs, 1);
		ck_assert_int_eq(f.ops[0].from_config, 0);
		ck_assert_uint_eq(f.ops[0].noutputs, 1);
		for (size_t i = 0; i < f.nops; i++)
			ck_assert(f.ops[i].name[0] != '\0');
		opdef_file_release(&f);
	}
	/* one variable registered, then declared anew for another SoC: two rounds */
	{
		const char *reused = "class R : public OpDef { public: R(const char *n) : OpDef(n) {\n"
				     "    this->Output(\"y\");\n"
				     "    OpAICoreConfig c;\n"
				     "    this->AICore().AddConfig(\"early\", c);\n"
				     "    c.Input(\"x\").DataType({ge::DT_FLOAT16});\n"
				     "    c.Output(\"y\").DataType({ge::DT_FLOAT16});\n"
				     "    this->AICore().AddConfig(\"ascend310p\", c);\n"
				     "    c.Input(\"x\").DataType({ge::DT_FLOAT, ge::DT_BF16});\n"
				     "    c.Output(\"y\").DataType({ge::DT_FLOAT, ge::DT_BF16});\n"
				     "    this->AICore().AddConfig(\"ascend910_95\", c);\n"
				     "} };\n"
				     "OP_ADD(R);\n";
		project_opdef(reused, strlen(reused), &f);
		ck_assert_uint_eq(f.ops[0].nconfigs, 2);
		for (size_t c = 0; c < 2; c++) {
			ck_assert_str_eq(f.ops[0].configs[c].var, "c");
			ck_assert_uint_eq(f.ops[0].configs[c].nparams, 2);
			ck_assert_uint_eq(f.ops[0].configs[c].nsocs, 1);
			ck_assert_uint_eq(f.ops[0].configs[c].params[1].ndtypes, c + 1);
		}
		ck_assert_str_eq(f.ops[0].configs[0].socs[0], "ascend310p");
		ck_assert_str_eq(f.ops[0].configs[1].socs[0], "ascend910_95");
		opdef_file_release(&f);
	}
	/* an input and an output of one name (written in place): one round */
	{
		const char *in_place = "class P : public OpDef { public: P(const char *n) : OpDef(n) {\n"
				       "    OpAICoreConfig c;\n"
				       "    c.Input(\"cache\");\n"
				       "    c.Output(\"cache\");\n"
				       "} };\n"
				       "OP_ADD(P);\n";
		project_opdef(in_place, strlen(in_place), &f);
		ck_assert_uint_eq(f.ops[0].nconfigs, 1);
		ck_assert_uint_eq(f.ops[0].configs[0].ninputs, 1);
		ck_assert_uint_eq(f.ops[0].configs[0].noutputs, 1);
		opdef_file_release(&f);
	}
	/* a data member declared after the constructor that fills it */
	{
		const char *member = "class M : public OpDef { public: M(const char *n) : OpDef(n) {\n"
				     "    cfg_.Input(\"i\");\n"
				     "    cfg_.Output(\"o\");\n"
				     "    this->AICore().AddConfig(\"ascend310p\", cfg_);\n"
				     "}\n"
				     "private:\n"
				     "    OpAICoreConfig cfg_;\n"
				     "};\n"
				     "OP_ADD(M);\n";
		project_opdef(member, strlen(member), &f);
		ck_assert_uint_eq(f.nops, 1);
		ck_assert_uint_eq(f.ops[0].nconfigs, 1);
		ck_assert_str_eq(f.ops[0].configs[0].var, "cfg_");
		ck_assert_uint_eq(f.ops[0].configs[0].nparams, 2);
		ck_assert_uint_eq(f.ops[0].configs[0].nsocs, 1);
		opdef_file_release(&f);
	}
}
END_TEST

START_TEST(t_eval)
{
	const char *src = "#define SLOTS (1 + 2)\n"
			  "enum Out { OUT_Y, OUT_N = 3, OUT_PROF };\n"
			  "constexpr int64_t UB = 128;\n"
			  "static const size_t SIZE = UB * SLOTS * 2048LL;\n"
			  "x = static_cast<int64_t>(UB) << 1;\n";
	struct tok_view tv;
	struct tv_consts c;
	const struct tv_const *k;
	int64_t v;

	tok_view_init(&tv, src, strlen(src));
	tv_consts_collect(&tv, &c);
	ck_assert_ptr_nonnull(k = tv_consts_find(&c, "OUT_PROF", 8));
	ck_assert_int_eq(k->value, 4);
	ck_assert_ptr_nonnull(k = tv_consts_find(&c, "SIZE", 4));
	ck_assert_int_eq(k->value, 128 * 3 * 2048);
	/* the last statement: tokens after '=' up to ';' */
	{
		size_t i = 0, j;
		while (!tv_is(&tv, i, "x"))
			i++;
		j = i;
		while (!tv_punct(&tv, j, CXX_P_SEMI))
			j++;
		ck_assert_int_eq(tv_eval(&tv, i + 2, j, &c, &v), 0);
		ck_assert_int_eq(v, 256);
		ck_assert_int_eq(tv_eval(&tv, i, j, &c, &v), -1);
	}
	tv_consts_release(&c);
	tok_view_release(&tv);
	ck_assert(tv_names_profiling("profilingData", "profiling_data"));
	ck_assert(tv_names_profiling("profiling_data_gm", "profiling_data"));
	ck_assert(!tv_names_profiling("profiling_data_size", "profiling_data"));
}
END_TEST

START_TEST(t_infer)
{
	const char *src = "enum { OUT_Y = 0, OUT_PROF = 1 };\n"
			  "constexpr int64_t UB = 128;\n"
			  "static ge::graphStatus InferShapeFoo(gert::InferShapeContext *context) {\n"
			  "    gert::Shape *p = context->GetOutputShape(OUT_PROF);\n"
			  "    if (p == nullptr) { return ge::GRAPH_FAILED; }\n"
			  "    p->SetDimNum(1);\n"
			  "    if (flag) { p->SetDim(0, UB * 48); }\n"
			  "    return ge::GRAPH_SUCCESS;\n"
			  "}\n"
			  "static ge::graphStatus InferDataTypeFoo(gert::InferDataTypeContext *context) {\n"
			  "    context->SetOutputDataType(OUT_PROF, ge::DT_INT64);\n"
			  "    return ge::GRAPH_SUCCESS;\n"
			  "}\n"
			  "IMPL_OP_INFERSHAPE(Foo).InferShape(InferShapeFoo).InferDataType(InferDataTypeFoo);\n";
	struct src_file *f = src_file_from_buffer("infer.cpp", src, strlen(src));
	struct infer_file inf;

	project_infer(f, &inf);
	ck_assert_uint_eq(inf.nuses, 2);
	ck_assert_int_eq(inf.uses[0].kind, INFER_SHAPE);
	ck_assert_int_eq(inf.uses[0].index, 1);
	ck_assert_str_eq(inf.uses[0].var, "p");
	ck_assert(!inf.uses[0].conditional);
	ck_assert_int_eq(inf.uses[1].kind, INFER_DTYPE);
	ck_assert_str_eq(inf.uses[1].dtype, "ge::DT_INT64");
	ck_assert_uint_eq(inf.ndims, 2);
	ck_assert(inf.dims[0].is_num && inf.dims[0].has_value && inf.dims[0].value == 1);
	ck_assert(inf.dims[1].conditional);
	ck_assert(inf.dims[1].named);
	ck_assert_str_eq(inf.dims[1].literal, "48");
	ck_assert_uint_eq(inf.nimpls, 1);
	ck_assert_str_eq(inf.impls[0].op, "Foo");
	ck_assert(infer_impl_has(&inf.impls[0], "InferDataTypeFoo"));
	infer_file_release(&inf);
	src_file_free(f);
}
END_TEST

START_TEST(t_aclnn)
{
	const char *src = "extern aclnnStatus aclnnInnerFooGetWorkspaceSize(const aclTensor *x, aclTensor *y,\n"
			  "    aclTensor *profilingData, uint64_t *workspaceSize, aclOpExecutor **executor);\n"
			  "aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x, aclTensor *y, aclTensor *profilingData,\n"
			  "    uint64_t *workspaceSize, aclOpExecutor **executor)\n"
			  "{\n"
			  "    return aclnnInnerFooGetWorkspaceSize(x, y,\n"
			  "        nullptr, workspaceSize, executor);\n"
			  "}\n";
	struct aclnn_file a;

	project_aclnn(src, strlen(src), &a);
	ck_assert_uint_eq(a.nfuncs, 2);
	ck_assert(!a.funcs[0].definition);
	ck_assert(a.funcs[1].definition);
	ck_assert_str_eq(a.funcs[1].name, "aclnnFooGetWorkspaceSize");
	ck_assert_uint_eq(a.funcs[1].nparams, 5);
	ck_assert(a.funcs[1].params[1].output && !a.funcs[1].params[0].output);
	ck_assert_str_eq(a.funcs[1].params[2].name, "profilingData");
	ck_assert_int_eq(aclnn_tensor_index(&a.funcs[1], 2), 2);
	ck_assert_int_eq(aclnn_tensor_index(&a.funcs[1], 3), -1);
	ck_assert_uint_eq(a.funcs[1].ncalls, 1);
	ck_assert_str_eq(a.funcs[1].calls[0].args[2], "nullptr");
	ck_assert_int_eq(memcmp(src + a.funcs[1].calls[0].arg_ranges[2].start, "nullptr", 7), 0);
	aclnn_file_release(&a);
}
END_TEST

/* The generated aclnnInner list of an OpDef (inputs, attributes, outputs,
 * workspaceSize, executor) and calls checked against it. */
START_TEST(t_aclnn_gen)
{
	const char *def = "class Foo : public OpDef { public: Foo(const char *n) : OpDef(n) {\n"
			  "    this->Input(\"x\").ParamType(REQUIRED);\n"
			  "    this->Input(\"w_list\").ParamType(DYNAMIC);\n"
			  "    this->Input(\"bias\").ParamType(OPTIONAL);\n"
			  "    this->Output(\"y_out\").ParamType(REQUIRED);\n"
			  "    this->Output(\"extra\").ParamType(OPTIONAL);\n"
			  "    this->Attr(\"group\").AttrType(REQUIRED).String();\n"
			  "    this->Attr(\"ep_world_size\").AttrType(OPTIONAL).Int(8);\n"
			  "    this->Attr(\"counts\").ListInt();\n"
			  "    this->Attr(\"odd\").AttrType(OPTIONAL).ListListInt();\n"
			  "} };\nOP_ADD(Foo);\n";
	const char *api[] = {
		/* 0: the generated order, without the profiling tensor */
		"aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x, const aclTensorList *w, const aclTensor *bias,\n"
		"    const char *group, int64_t n, const aclIntArray *counts, aclTensor *y, aclTensor *extra,\n"
		"    aclTensor *profilingData, uint64_t *workspaceSize, aclOpExecutor **executor)\n"
		"{ return aclnnInnerFooGetWorkspaceSize(x, w, bias, group, n, counts, odd, y, extra, workspaceSize, executor); }\n",
		/* 1: with it, after the last output */
		"aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x, aclTensor *y, aclTensor *profilingData)\n"
		"{ return aclnnInnerFooGetWorkspaceSize(x, w, bias, group, n, counts, odd, y, extra, profilingData, ws, ex); }\n",
		/* 2: one argument short */
		"aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x)\n"
		"{ return aclnnInnerFooGetWorkspaceSize(x, w, bias, group, n, counts, y, extra, ws, ex); }\n",
		/* 3: a scalar where the string attribute goes */
		"aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x, const char *group, int64_t n)\n"
		"{ return aclnnInnerFooGetWorkspaceSize(x, w, bias, n, group, counts, odd, y, extra, ws, ex); }\n",
		/* 4: two outputs swapped (their names say so) */
		"aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x, aclTensor *extra, aclTensor *yOut)\n"
		"{ return aclnnInnerFooGetWorkspaceSize(x, w, bias, group, n, counts, odd, extra, yOut, ws, ex); }\n",
		/* 5: something else where the profiling tensor goes */
		"aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x)\n"
		"{ return aclnnInnerFooGetWorkspaceSize(x, w, bias, group, n, counts, odd, y, extra, other, ws, ex); }\n",
		/* 6: the caller's locals say what the arguments are */
		"aclnnStatus aclnnFooGetWorkspaceSize(const aclTensor *x)\n"
		"{\n    const char *grp = \"g\";\n    int64_t n = 1;\n    aclIntArray *c;\n"
		"    return aclnnInnerFooGetWorkspaceSize(x, w, bias, grp, c, n, odd, y, extra, ws, ex);\n}\n",
	};
	struct opdef_file od;
	struct aclnn_gen g;
	char *text;

	project_opdef(def, strlen(def), &od);
	ck_assert_uint_eq(od.nops, 1);
	ck_assert_uint_eq(od.ops[0].nattrs, 4);
	ck_assert_str_eq(od.ops[0].attrs[0].name, "group");
	ck_assert_str_eq(od.ops[0].attrs[0].kind, "String");
	ck_assert(!od.ops[0].attrs[0].optional && od.ops[0].attrs[1].optional);
	ck_assert_str_eq(od.ops[0].attrs[2].kind, "ListInt");
	ck_assert_uint_eq(od.ops[0].nparams, 5); /* attributes are not tensors */
	aclnn_gen_inner(&od.ops[0], "profiling_data", &g);
	ck_assert_str_eq(g.name, "aclnnInnerFooGetWorkspaceSize");
	ck_assert_int_eq(g.prof, -1);
	ck_assert_uint_eq(g.n, 3 + 4 + 2 + 2);
	ck_assert_uint_eq(g.after_outputs, 9);
	text = aclnn_gen_params_text(&g);
	ck_assert_str_eq(text, "const aclTensor *x, const aclTensorList *wList, const aclTensor *biasOptional, "
			       "const char *group, int64_t epWorldSize, const aclIntArray *counts, (ListListInt) odd, "
			       "const aclTensor *yOut, const aclTensor *extraOptional, uint64_t *workspaceSize, "
			       "aclOpExecutor **executor");
	free(text);
	for (size_t i = 0; i < sizeof(api) / sizeof(api[0]); i++) {
		struct aclnn_file a;
		struct aclnn_gen_match m;
		project_aclnn(api[i], strlen(api[i]), &a);
		ck_assert_uint_eq(a.nfuncs, 1);
		ck_assert_uint_eq(a.funcs[0].ncalls, 1);
		aclnn_gen_match(&g, &a.funcs[0], &a.funcs[0].calls[0], "profiling_data", &m);
		switch (i) {
		case 0:
		case 1:
			ck_assert_msg(m.ok, "%zu: %s", i, m.why);
			ck_assert(m.has_prof == (i == 1));
			ck_assert_uint_eq(m.prof_at, 9);
			break;
		case 2:
			ck_assert(!m.ok && m.bad_arg == a.funcs[0].calls[0].nargs);
			ck_assert_str_eq(m.why, "aclnnFooGetWorkspaceSize passes 10 arguments, but the generated declaration "
						"of aclnnInnerFooGetWorkspaceSize (from the OpDef: 3 inputs, 4 attributes, 2 outputs, "
						"workspaceSize, executor) takes 11 (12 with the profiling output)");
			break;
		case 3:
			ck_assert(!m.ok && m.bad_arg == 3);
			ck_assert_ptr_nonnull(strstr(m.why, "passes 'n' (a scalar) as argument 4, where the generated declaration of "
							    "aclnnInnerFooGetWorkspaceSize takes the attribute 'const char *group' (a string)"));
			break;
		case 4:
			ck_assert(!m.ok && m.bad_arg == 7);
			ck_assert_ptr_nonnull(strstr(m.why, "passes 'extra' as argument 8, where the generated declaration of "
							    "aclnnInnerFooGetWorkspaceSize takes 'yOut'; it takes 'extraOptional' as parameter 9"));
			break;
		case 5:
			ck_assert(!m.ok && m.bad_arg == 9);
			ck_assert_ptr_nonnull(strstr(m.why, "passes 'other' as argument 10, where the generated declaration"));
			break;
		case 6:
			ck_assert_uint_eq(a.funcs[0].nlocals, 3);
			ck_assert_str_eq(a.funcs[0].locals[0].type, "const char *");
			ck_assert(!m.ok && m.bad_arg == 4);
			ck_assert_ptr_nonnull(strstr(m.why, "passes 'c' (an array) as argument 5, where the generated declaration of "
							    "aclnnInnerFooGetWorkspaceSize takes the attribute 'int64_t epWorldSize' (a scalar)"));
			break;
		}
		aclnn_gen_match_release(&m);
		aclnn_file_release(&a);
	}
	aclnn_gen_release(&g);
	opdef_file_release(&od);
}
END_TEST

/* A binding returning what an autograd Function returns: the class, its
 * forward and backward, the apply calls and the forms of the returns. */
START_TEST(t_autograd)
{
	const char *src = "namespace ns {\n"
			  "struct FooFunction : public torch::autograd::Function<FooFunction> {\n"
			  "    static tensor_list forward(AutogradContext *ctx, const at::Tensor &x) {\n"
			  "        ctx->mark_non_differentiable({b});\n"
			  "        return {a, b};\n"
			  "    }\n"
			  "    static tensor_list backward(AutogradContext *ctx, tensor_list grads) {\n"
			  "        TORCH_CHECK(grads.size() == 2, \"two\");\n"
			  "        return {grads[0]};\n"
			  "    }\n"
			  "};\n"
			  "struct NotAutograd : public Function<Other> { static int forward(int x) { return x; } };\n"
			  "}\n"
			  "std::tuple<at::Tensor, at::Tensor> whole(const at::Tensor &x) { auto r = ns::FooFunction::apply(x); return r; }\n"
			  "std::tuple<at::Tensor, at::Tensor> direct(const at::Tensor &x) { return FooFunction::apply(x); }\n"
			  "std::tuple<at::Tensor, at::Tensor> indexed(const at::Tensor &x) {\n"
			  "    auto o = FooFunction::apply(x);\n"
			  "    return std::make_tuple(std::get<0>(o), std::get<1>(o));\n"
			  "}\n"
			  "std::tuple<at::Tensor, at::Tensor> braced(const at::Tensor &x) { auto o = FooFunction::apply(x); return {o[0], o[1]}; }\n"
			  "std::tuple<at::Tensor, at::Tensor> other(const at::Tensor &x) { auto o = FooFunction::apply(x); return {o[1], o[0]}; }\n"
			  "std::vector<at::Tensor> listed(const at::Tensor &x) { std::vector<at::Tensor> v; v.push_back(x); v.emplace_back(y); return v; }\n";
	static const enum autograd_return want[] = { AUTOGRAD_RETURN_WHOLE, AUTOGRAD_RETURN_WHOLE, AUTOGRAD_RETURN_INDEXED,
						     AUTOGRAD_RETURN_INDEXED, AUTOGRAD_RETURN_OTHER };
	static const char *const funcs[] = { "whole", "direct", "indexed", "braced", "other" };
	struct src_file *f = src_file_from_buffer("b.cpp", src, strlen(src));
	struct pybind_file pb;
	const struct pybind_autograd *ag;
	struct pybind_range call, list, num;
	bool found;
	long value;
	char *last;

	project_pybind(f, &pb);
	ck_assert_uint_eq(pb.nautograds, 1);
	ag = &pb.autograds[0];
	ck_assert_str_eq(ag->name, "FooFunction");
	ck_assert_int_ge(ag->forward, 0);
	ck_assert_str_eq(pb.funcs[ag->forward].name, "forward");
	ck_assert_str_eq(pb.funcs[ag->backward].name, "backward");
	ck_assert_int_eq(pybind_autograd_of_func(&pb, ag->forward), 0);
	ck_assert_int_eq(pybind_autograd_named(&pb, "ns::FooFunction"), 0);
	ck_assert_uint_eq(pb.napplies, 5);
	ck_assert(pybind_type_is_tensor_list("static tensor_list ") && pybind_type_is_tensor_list("std::vector<at::Tensor>"));
	ck_assert(!pybind_type_is_tensor_list("std::tuple<at::Tensor, at::Tensor>"));
	for (size_t i = 0; i < 5; i++) {
		long fi = pybind_func_named(&pb, funcs[i]);
		size_t from = 0;
		ck_assert_int_ge(pybind_apply_next(&pb, fi, &from), 0);
		for (size_t r = 0; r < pb.nreturns; r++) {
			struct autograd_return_form form;
			if (pb.returns[r].func != fi)
				continue;
			autograd_return_of(&pb, fi, &pb.returns[r], "FooFunction", &form);
			ck_assert_msg(form.kind == want[i], "%s", funcs[i]);
			if (form.kind == AUTOGRAD_RETURN_INDEXED) {
				ck_assert_str_eq(form.var, "o");
				ck_assert_uint_eq(form.n, 2);
				ck_assert(form.get == (i == 2));
			}
			autograd_return_form_release(&form);
		}
	}
	ck_assert(autograd_marks(f, &pb, ag->forward, "b", &call, &list, &found) && found);
	ck_assert(!autograd_marks(f, &pb, ag->forward, "profiling_data", &call, &list, &found) && found);
	ck_assert_int_eq(memcmp(src + list.start, "b", 1), 0);
	ck_assert(autograd_grad_count(f, &pb, ag->backward, &num, &value));
	ck_assert_int_eq(value, 2);
	ck_assert_int_eq(memcmp(src + num.start, "2", 1), 0);
	last = pybind_last_push(f, &pb.funcs[pybind_func_named(&pb, "listed")], "v", (uint32_t)strlen(src));
	ck_assert_str_eq(last, "y");
	free(last);
	pybind_file_release(&pb);
	src_file_free(f);
}
END_TEST

/* Device code is no binding, whatever its name: a sibling operator's kernel
 * entry named as the binding function, an __aicore__ helper. */
START_TEST(t_pybind_device)
{
	const char *src = "extern \"C\" __global__ __aicore__ void moe_op(GM_ADDR x, GM_ADDR y) { (void)x; }\n"
			  "__aicore__ inline void helper(int n) { (void)n; }\n"
			  "at::Tensor moe_op_host(const at::Tensor &x) { return x; }\n";
	struct src_file *f = src_file_from_buffer("k.cpp", src, strlen(src));
	struct pybind_file pb;

	project_pybind(f, &pb);
	ck_assert_uint_eq(pb.nfuncs, 1);
	ck_assert_str_eq(pb.funcs[0].name, "moe_op_host");
	ck_assert_int_lt(pybind_func_named(&pb, "moe_op"), 0);
	pybind_file_release(&pb);
	src_file_free(f);
}
END_TEST

/* REG_OP graph prototypes: inputs and outputs in order (attributes aside),
 * where an output is added, several per file, a one-line chain. */
START_TEST(t_graph)
{
	const char *src = "REG_OP(Foo)\n"
			  "    .INPUT(x, TensorType({DT_FLOAT}))\n"
			  "    .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT}))\n"
			  "    .OUTPUT(y, TensorType({DT_FLOAT}))  // the result\n"
			  "    .DYNAMIC_OUTPUT(ys,\n"
			  "                    TensorType({DT_INT64}))\n"
			  "    .REQUIRED_ATTR(k, Int)\n"
			  "    .OP_END_FACTORY_REG(Foo)\n"
			  "REG_OP(Bar).INPUT(a, TensorType({DT_INT8})).OUTPUT(b, TensorType({DT_INT8})).OP_END_FACTORY_REG(Bar)\n";
	struct graph_file g;
	const struct graph_op *foo, *bar;

	project_graph(src, strlen(src), &g);
	ck_assert_uint_eq(g.nops, 2);
	foo = graph_find(&g, "Foo");
	bar = graph_find(&g, "Bar");
	ck_assert_ptr_nonnull(foo);
	ck_assert_ptr_nonnull(bar);
	ck_assert_ptr_null(graph_find(&g, "Baz"));
	ck_assert_uint_eq(foo->nio, 4);
	ck_assert_uint_eq(foo->ninputs, 2);
	ck_assert_uint_eq(foo->noutputs, 2);
	ck_assert_str_eq(foo->io[1].kind, "OPTIONAL_INPUT");
	ck_assert_str_eq(foo->io[2].name, "y");
	ck_assert(foo->io[2].line_first && foo->io[2].rest_blank);
	ck_assert_str_eq(foo->io[3].kind, "DYNAMIC_OUTPUT");
	ck_assert(strstr(foo->io[3].type, "DT_INT64") != NULL);
	ck_assert_int_eq(foo->last_output, 3);
	ck_assert_int_eq(graph_output(foo, 1), 3);
	ck_assert_int_eq(graph_output(foo, 2), -1);
	ck_assert_uint_eq(bar->noutputs, 1);
	ck_assert(!bar->io[bar->last_output].line_first);
	graph_file_release(&g);
}
END_TEST

START_TEST(t_pybind)
{
	const char *src = "std::tuple<at::Tensor, at::Tensor> foo(const at::Tensor &x)\n"
			  "{\n"
			  "    at::Tensor y = at::empty_like(x);\n"
			  "    c10::optional<at::Tensor> prof = c10::nullopt;\n"
			  "    EXEC_NPU_CMD(\n"
			  "        aclnnFoo, x, y, prof);\n"
			  "    return {y, prof};\n"
			  "}\n"
			  "TORCH_LIBRARY_FRAGMENT(npu, m) { m.def(\"foo(Tensor x) -> \" \"(Tensor, Tensor)\"); }\n"
			  "TORCH_LIBRARY_IMPL(npu, PrivateUse1, m) { m.impl(\"foo\", &foo); }\n";
	struct src_file *f = src_file_from_buffer("bind.cpp", src, strlen(src));
	struct pybind_file p;
	const struct pybind_var *v;

	project_pybind(f, &p);
	ck_assert_uint_eq(p.nexecs, 1);
	ck_assert_str_eq(p.execs[0].api, "aclnnFoo");
	ck_assert_uint_eq(p.execs[0].args.n, 3);
	ck_assert_str_eq(p.execs[0].args.v[2], "prof");
	ck_assert_int_eq(p.execs[0].func, 0);
	ck_assert_int_eq(p.funcs[0].tuple_arity, 2);
	ck_assert_uint_eq(p.nreturns, 1);
	ck_assert(p.returns[0].tuple);
	ck_assert_uint_eq(p.returns[0].elems.n, 2);
	v = pybind_var_before(&p, 0, "prof", p.execs[0].range.start);
	ck_assert_ptr_nonnull(v);
	ck_assert_str_eq(v->init, "c10::nullopt");
	ck_assert_uint_eq(p.nnames, 2);
	ck_assert_str_eq(p.names[0].name, "foo");
	ck_assert_int_eq(p.names[0].nreturns, 2);
	ck_assert(!p.names[1].schema);
	pybind_file_release(&p);
	src_file_free(f);
}
END_TEST

START_TEST(t_names)
{
	char *s = project_snake("MoeDistributeDispatchGmm");

	ck_assert_str_eq(s, "moe_distribute_dispatch_gmm");
	free(s);
	s = project_snake("GMMOp");
	ck_assert_str_eq(s, "gmm_op");
	free(s);
	ck_assert(project_profiling_suffix("foo_with_profiling"));
	ck_assert(project_profiling_suffix("FooProfiling"));
	ck_assert(!project_profiling_suffix("profiling"));
	ck_assert(!project_profiling_suffix("foo"));
}
END_TEST

START_TEST(t_report)
{
	struct gate_report *r = gate_report_new(".");
	struct src_file *f = src_file_from_buffer("a.cpp", "int x;\n\tfoo(bar);\n", 18);
	struct gate_finding *fd;

	fd = gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(f, 12, 15), "fix it", "bad %d", 1);
	ck_assert_str_eq(fd->message, "bad 1");
	ck_assert_uint_eq(fd->loc.line, 2);
	ck_assert_uint_eq(fd->loc.col, 6);
	ck_assert_uint_eq(fd->loc.caret_len, 3);
	ck_assert_str_eq(fd->loc.src_line, "\tfoo(bar);");
	ck_assert_uint_eq(fd->loc.src_col, 6);
	ck_assert_uint_eq(fd->loc.src_len, 3);
	/* a line of 3,000 characters: held and shown cut around the column
	   (issue 33), the column and the range as in the file */
	{
		char *text = malloc(3002);
		struct src_file *g;
		memset(text, 'a', 3000);
		memcpy(text + 2000, "bad", 3);
		text[3000] = '\n';
		g = src_file_from_buffer("l.cpp", text, 3001);
		fd = gate_add(r, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(g, 2000, 2003), NULL, "long");
		ck_assert_uint_eq(fd->loc.col, 2001);
		ck_assert_uint_eq(fd->loc.caret_len, 3);
		ck_assert_uint_le(strlen(fd->loc.src_line), DIAG_SOURCE_WIDTH);
		ck_assert_int_eq(strncmp(fd->loc.src_line, DIAG_CUT, 3), 0);
		ck_assert_int_eq(strncmp(fd->loc.src_line + fd->loc.src_col - 1, "bad", 3), 0);
		ck_assert_uint_eq(fd->loc.src_len, 3);
		src_file_free(g);
		free(text);
	}
	/* the caret under a line holding a wide character and a control one:
	   two cells for 阶, four for the \x1b it is shown as, tabs kept */
	{
		const char *text = "\t\"阶\"\x1b x;\n";
		struct src_file *g = src_file_from_buffer("w.cpp", text, strlen(text));
		struct gate_report *w = gate_report_new(".");
		uint32_t x = (uint32_t)(strchr(text, 'x') - text);
		char *err = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&err, &len);
		gate_add(w, GATE_RULE_G2_LAST, DIAG_ERROR, gate_loc_at(g, x, x + 1), NULL, "here");
		gate_settle(w);
		gate_out_text(fp, fp, false, w);
		fclose(fp);
		ck_assert_ptr_nonnull(strstr(err, "\t\"阶\"\\x1b x;\n\t         ^\n"));
		free(err);
		gate_report_free(w);
		src_file_free(g);
	}
	gate_add(r, GATE_RULE_G4_SYNC, DIAG_WARNING, gate_loc_path(NULL, 0, 0), NULL, "meh");
	r->gates[GATE_G3].run = false;
	gate_settle(r);
	ck_assert_int_eq(r->gates[GATE_G2].status, GATE_FAILED);
	ck_assert_int_eq(r->gates[GATE_G4].status, GATE_PASSED);
	ck_assert_int_eq(r->gates[GATE_G3].status, GATE_SKIPPED);
	ck_assert_int_eq(gate_rule_gate(GATE_RULE_G5_RELATIVE), GATE_G5);
	src_file_free(f);
	gate_report_free(r);
}
END_TEST

/* The gate table: names, lookups, run order by phase, the help text, every
 * gate with its rules; gate_run runs only the gates the report selects. */
START_TEST(t_gate_table)
{
	static const enum gate_id want_order[GATE_COUNT] = { GATE_G2, GATE_G4, GATE_G5, GATE_G3, GATE_G1 };
	enum gate_id order[GATE_COUNT];
	char *help = NULL;
	size_t help_len = 0, help_lines = 0, lines = 0;
	FILE *fp;
	struct gate_report *r;

	ck_assert_str_eq(gate_ids_text(), "G1, G2, G3, G4, G5");
	ck_assert_int_eq(gate_find("g3"), GATE_G3);
	ck_assert_int_eq(gate_find("G5"), GATE_G5);
	ck_assert_int_eq(gate_find("G6"), -1);
	ck_assert_int_eq(gate_find(""), -1);
	gate_run_order(order);
	for (int i = 0; i < GATE_COUNT; i++)
		ck_assert_int_eq(order[i], want_order[i]);
	for (int g = 0; g < GATE_COUNT; g++) {
		const struct gate_def *def = gate_def((enum gate_id)g);
		int rules = 0;
		ck_assert_str_eq(def->id, gate_name((enum gate_id)g));
		ck_assert_str_eq(def->title, gate_title((enum gate_id)g));
		ck_assert_ptr_nonnull(def->check);
		for (const char *line = def->help;; line += strcspn(line, "\n") + 1) {
			size_t n = strcspn(line, "\n");
			ck_assert_msg(n > 0 && n <= 74, "%s: help line of %zu columns", def->id, n);
			help_lines++;
			if (!line[n])
				break;
		}
		for (int k = 0; k < GATE_RULE_COUNT; k++)
			rules += gate_rule_gate((enum gate_rule)k) == (enum gate_id)g;
		ck_assert_msg(rules > 0, "%s has no rule in GATE_RULE_LIST", def->id);
	}

	fp = open_memstream(&help, &help_len);
	gate_print_help(fp);
	fclose(fp);
	ck_assert_str_eq(strstr(help, "  G3  "), "  G3  the build command (gate { build \"...\"; } or --build-cmd) succeeds\n"
						 "  G4  samples/tests unpack the op's new arity or branch on len(outs),\n"
						 "      synchronize before save_profiling_data, save the op's own profiling\n"
						 "      tensor, run the collector after the spawn has joined when they take\n"
						 "      --point_map/--chrome_trace; the names that code uses are bound\n"
						 "  G5  profiling dir, chrome trace and point map paths are made absolute\n"
						 "      before the spawn that passes them\n");
	for (const char *c = help; *c; c++)
		lines += *c == '\n';
	ck_assert_uint_eq(lines, help_lines);
	free(help);

	/* nothing selected: no check runs (the project is not even read), every
	 * gate is skipped */
	r = gate_report_new(".");
	for (int g = 0; g < GATE_COUNT; g++)
		r->gates[g].run = false;
	gate_run(NULL, r);
	for (int g = 0; g < GATE_COUNT; g++)
		ck_assert_int_eq(r->gates[g].status, GATE_SKIPPED);
	gate_report_free(r);
}
END_TEST

static Suite *make_suite(void)
{
	Suite *s = suite_create("gate");
	TCase *tc = tcase_create("readers");

	tcase_add_test(tc, t_opdef);
	tcase_add_test(tc, t_opdef_configs);
	tcase_add_test(tc, t_eval);
	tcase_add_test(tc, t_infer);
	tcase_add_test(tc, t_aclnn);
	tcase_add_test(tc, t_aclnn_gen);
	tcase_add_test(tc, t_autograd);
	tcase_add_test(tc, t_pybind);
	tcase_add_test(tc, t_pybind_device);
	tcase_add_test(tc, t_graph);
	tcase_add_test(tc, t_names);
	tcase_add_test(tc, t_report);
	tcase_add_test(tc, t_gate_table);
	suite_add_tcase(s, tc);
	return s;
}

#include "check_main.h"
