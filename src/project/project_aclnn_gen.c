/* The generated aclnnInner parameter list of an OpDef op, and how a call lines up with it. */
#include "project_aclnn_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "project_model.h"
#include "project_tokens.h"
#include "xalloc.h"

/* The attribute types of the generated API, by the OpDef's type method. */
static const struct {
	const char *kind, *type;
	enum aclnn_gen_class cls;
} attr_types[] = {
	{ "Int", "int64_t", ACLNN_CLASS_SCALAR },
	{ "Float", "double", ACLNN_CLASS_SCALAR },
	{ "Bool", "bool", ACLNN_CLASS_SCALAR },
	{ "String", "const char *", ACLNN_CLASS_STRING },
	{ "ListInt", "const aclIntArray *", ACLNN_CLASS_ARRAY },
	{ "ListFloat", "const aclFloatArray *", ACLNN_CLASS_ARRAY },
	{ "ListBool", "const aclBoolArray *", ACLNN_CLASS_ARRAY },
};

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static void add(struct aclnn_gen *g, enum aclnn_gen_role role, enum aclnn_gen_class cls, char *name, const char *type,
		const char *opdef_name)
{
	struct aclnn_gen_param *q;

	g->v = xrealloc(g->v, (g->n + 1) * sizeof(*g->v));
	q = &g->v[g->n++];
	q->role = role;
	q->cls = cls;
	q->name = name;
	q->type = xstrdup(type);
	q->opdef_name = opdef_name;
}

/* The generated name of a tensor: camelCase, "Optional" after an OPTIONAL one. */
static char *tensor_name(const char *opdef_name, bool optional)
{
	char *c = project_camel(opdef_name), *t;

	if (!optional || ends_with(c, "Optional"))
		return c;
	t = xasprintf("%sOptional", c);
	free(c);
	return t;
}

static void add_tensor(struct aclnn_gen *g, const struct opdef_param *q)
{
	bool list = q->type == OPDEF_DYNAMIC;

	add(g, q->output ? ACLNN_GEN_OUTPUT : ACLNN_GEN_INPUT, list ? ACLNN_CLASS_TENSOR_LIST : ACLNN_CLASS_TENSOR,
	    tensor_name(q->name, q->type == OPDEF_OPTIONAL), list ? "const aclTensorList *" : "const aclTensor *", q->name);
}

bool aclnn_gen_is_inner(const char *fn, const char *op)
{
	size_t n = strlen(op);

	return strncmp(fn, "aclnnInner", 10) == 0 && strncmp(fn + 10, op, n) == 0 &&
	       strcmp(fn + 10 + n, "GetWorkspaceSize") == 0;
}

void aclnn_gen_inner(const struct opdef_op *op, const char *prof, struct aclnn_gen *out)
{
	memset(out, 0, sizeof(*out));
	out->name = xasprintf("aclnnInner%sGetWorkspaceSize", op->name);
	out->prof = -1;
	for (size_t i = 0; i < op->nparams; i++)
		if (!op->params[i].output)
			add_tensor(out, &op->params[i]);
	for (size_t i = 0; i < op->nattrs; i++) {
		const struct opdef_attr *a = &op->attrs[i];
		char *type = NULL;
		enum aclnn_gen_class cls = ACLNN_CLASS_ANY;
		for (size_t k = 0; k < sizeof(attr_types) / sizeof(attr_types[0]) && !type; k++)
			if (strcmp(a->kind, attr_types[k].kind) == 0) {
				type = xstrdup(attr_types[k].type);
				cls = attr_types[k].cls;
			}
		if (!type) /* a type method this list does not know: any argument fits */
			type = xasprintf("(%s)", a->kind[0] ? a->kind : "untyped");
		add(out, ACLNN_GEN_ATTR, cls, project_camel(a->name), type, a->name);
		free(type);
	}
	for (size_t i = 0; i < op->nparams; i++)
		if (op->params[i].output) {
			if (tv_names_profiling(op->params[i].name, prof))
				out->prof = (long)out->n;
			add_tensor(out, &op->params[i]);
		}
	out->after_outputs = out->n;
	add(out, ACLNN_GEN_WORKSPACE, ACLNN_CLASS_WORKSPACE, xstrdup("workspaceSize"), "uint64_t *", NULL);
	add(out, ACLNN_GEN_EXECUTOR, ACLNN_CLASS_EXECUTOR, xstrdup("executor"), "aclOpExecutor **", NULL);
}

void aclnn_gen_release(struct aclnn_gen *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->v[i].name);
		free(g->v[i].type);
	}
	free(g->v);
	free(g->name);
	memset(g, 0, sizeof(*g));
}

char *aclnn_gen_params_text(const struct aclnn_gen *g)
{
	size_t cap = 1, len = 0;
	char *s;

	for (size_t i = 0; i < g->n; i++)
		cap += strlen(g->v[i].type) + strlen(g->v[i].name) + 3;
	s = xmalloc(cap);
	s[0] = '\0';
	for (size_t i = 0; i < g->n; i++) {
		const char *t = g->v[i].type;
		len += (size_t)snprintf(s + len, cap - len, "%s%s%s%s", i ? ", " : "", t,
					t[strlen(t) - 1] == '*' ? "" : " ", g->v[i].name);
	}
	return s;
}

enum aclnn_gen_class aclnn_gen_class_of(const char *type)
{
	size_t stars = 0;

	for (const char *c = type; *c; c++)
		stars += *c == '*';
	if (strstr(type, "aclTensorList"))
		return ACLNN_CLASS_TENSOR_LIST;
	if (strstr(type, "aclTensor"))
		return ACLNN_CLASS_TENSOR;
	if (strstr(type, "aclIntArray") || strstr(type, "aclFloatArray") || strstr(type, "aclBoolArray"))
		return ACLNN_CLASS_ARRAY;
	if (strstr(type, "aclOpExecutor"))
		return ACLNN_CLASS_EXECUTOR;
	if (strstr(type, "char") && stars == 1)
		return ACLNN_CLASS_STRING;
	if (stars == 1 && strstr(type, "uint64_t"))
		return ACLNN_CLASS_WORKSPACE;
	if (stars == 0 && (strstr(type, "int") || strstr(type, "double") || strstr(type, "float") || strstr(type, "bool")))
		return ACLNN_CLASS_SCALAR;
	return ACLNN_CLASS_ANY;
}

static const char *class_name(enum aclnn_gen_class c)
{
	switch (c) {
	case ACLNN_CLASS_TENSOR:
		return "a tensor";
	case ACLNN_CLASS_TENSOR_LIST:
		return "a tensor list";
	case ACLNN_CLASS_ARRAY:
		return "an array";
	case ACLNN_CLASS_STRING:
		return "a string";
	case ACLNN_CLASS_SCALAR:
		return "a scalar";
	case ACLNN_CLASS_WORKSPACE:
		return "the workspace size";
	case ACLNN_CLASS_EXECUTOR:
		return "the executor";
	case ACLNN_CLASS_ANY:
		break;
	}
	return "a value";
}

static const char *role_name(enum aclnn_gen_role r)
{
	switch (r) {
	case ACLNN_GEN_INPUT:
		return "input";
	case ACLNN_GEN_ATTR:
		return "attribute";
	case ACLNN_GEN_OUTPUT:
		return "output";
	case ACLNN_GEN_WORKSPACE:
	case ACLNN_GEN_EXECUTOR:
		break;
	}
	return "";
}

/* A name key without an "optional" suffix: "xActiveMaskOptional" and "x_active_mask" agree. */
static char *key_of(const char *name)
{
	char *k = tv_name_key(name);
	size_t n = strlen(k);

	if (n > 8 && strcmp(k + n - 8, "optional") == 0)
		k[n - 8] = '\0';
	return k;
}

/* The class of argument `arg` as the caller declares it (a parameter or a local of its own). */
static enum aclnn_gen_class arg_class(const struct aclnn_func *caller, const char *arg)
{
	for (size_t k = 0; caller && k < caller->nlocals; k++)
		if (strcmp(caller->locals[k].name, arg) == 0)
			return aclnn_gen_class_of(caller->locals[k].type);
	for (size_t k = 0; caller && k < caller->nparams; k++)
		if (caller->params[k].name && strcmp(caller->params[k].name, arg) == 0)
			return aclnn_gen_class_of(caller->params[k].type);
	return ACLNN_CLASS_ANY;
}

static bool class_fits(enum aclnn_gen_class want, enum aclnn_gen_class have)
{
	return want == ACLNN_CLASS_ANY || have == ACLNN_CLASS_ANY || want == have;
}

void aclnn_gen_match(const struct aclnn_gen *g, const struct aclnn_func *caller, const struct aclnn_call *call,
		     const char *profiling, struct aclnn_gen_match *out)
{
	/* the list with the profiling output: P is its index, N the count */
	size_t P = g->prof >= 0 ? (size_t)g->prof : g->after_outputs, N = g->prof >= 0 ? g->n : g->n + 1;
	size_t ninputs = 0, nattrs = 0, noutputs = 0;
	bool named = false;
	const struct aclnn_gen_param **list = xmalloc(N * sizeof(*list));
	struct aclnn_gen_param prof_param;

	memset(out, 0, sizeof(*out));
	memset(&prof_param, 0, sizeof(prof_param));
	prof_param.role = ACLNN_GEN_OUTPUT;
	prof_param.cls = ACLNN_CLASS_TENSOR;
	prof_param.name = (char *)profiling;
	prof_param.type = (char *)"const aclTensor *";
	for (size_t i = 0, k = 0; i < N; i++)
		list[i] = (g->prof < 0 && i == P) ? &prof_param : &g->v[k++];
	for (size_t i = 0; i < g->n; i++) {
		ninputs += g->v[i].role == ACLNN_GEN_INPUT;
		nattrs += g->v[i].role == ACLNN_GEN_ATTR;
		noutputs += g->v[i].role == ACLNN_GEN_OUTPUT && (long)i != g->prof;
	}
	for (size_t a = 0; a < call->nargs; a++)
		named = named || tv_names_profiling(call->args[a], profiling);
	out->prof_at = P;
	if (call->nargs == N) {
		out->has_prof = true;
	} else if (call->nargs + 1 != N || named) {
		const char *who = caller ? caller->name : "this call";
		out->bad_arg = call->nargs;
		if (g->prof >= 0)
			out->why = xasprintf("%s passes %zu arguments, but the generated declaration of %s (from the OpDef: "
					     "%zu inputs, %zu attributes, %zu outputs and the profiling output, workspaceSize, "
					     "executor) takes %zu", who, call->nargs, g->name, ninputs, nattrs, noutputs, N);
		else
			out->why = xasprintf("%s passes %zu arguments, but the generated declaration of %s (from the OpDef: "
					     "%zu inputs, %zu attributes, %zu outputs, workspaceSize, executor) takes %zu (%zu with "
					     "the profiling output)", who, call->nargs, g->name, ninputs, nattrs, noutputs, g->n, N);
		free(list);
		return;
	}
	for (size_t a = 0; a < call->nargs; a++) {
		/* the generated parameter this argument stands for */
		size_t k = out->has_prof || a < P ? a : a + 1;
		const struct aclnn_gen_param *q = list[k];
		const char *arg = call->args[a];
		enum aclnn_gen_class have;
		char *ka;
		if (k == P && out->has_prof) {
			/* a null placeholder is the profiling slot left empty (G2.null in mode B) */
			if (!tv_names_profiling(arg, profiling) && !tv_is_null_text(arg) && tv_text_is_ident(arg, strlen(arg))) {
				out->bad_arg = a;
				out->why = xasprintf("%s passes '%s' as argument %zu, where the generated declaration of %s "
						     "takes the profiling output '%s' (after the last output '%s')",
						     caller ? caller->name : "this call", arg, a + 1, g->name, profiling,
						     P > 0 ? list[P - 1]->name : "?");
				break;
			}
			continue;
		}
		if (!tv_text_is_ident(arg, strlen(arg)))
			continue;
		have = arg_class(caller, arg);
		if (!class_fits(q->cls, have)) {
			out->bad_arg = a;
			out->why = xasprintf("%s passes '%s' (%s) as argument %zu, where the generated declaration of %s "
					     "takes %s%s%s'%s%s%s' (%s)",
					     caller ? caller->name : "this call", arg, class_name(have), a + 1, g->name,
					     *role_name(q->role) ? "the " : "", role_name(q->role), *role_name(q->role) ? " " : "", q->type,
					     q->type[strlen(q->type) - 1] == '*' ? "" : " ", q->name, class_name(q->cls));
			break;
		}
		/* a name of another parameter at this position: swapped arguments */
		ka = key_of(arg);
		{
			char *kq = key_of(q->name);
			bool own = strcmp(ka, kq) == 0;
			free(kq);
			for (size_t o = 0; !own && o < N; o++) {
				char *ko;
				if (o == k || list[o]->role == ACLNN_GEN_WORKSPACE || list[o]->role == ACLNN_GEN_EXECUTOR)
					continue;
				ko = key_of(list[o]->name);
				if (strcmp(ka, ko) == 0) {
					out->bad_arg = a;
					out->why = xasprintf("%s passes '%s' as argument %zu, where the generated declaration of "
							     "%s takes '%s'; it takes '%s' as parameter %zu (the OpDef's order: "
							     "inputs, attributes, outputs)",
							     caller ? caller->name : "this call", arg, a + 1, g->name, q->name,
							     list[o]->name, o + 1);
				}
				free(ko);
				if (out->why)
					break;
			}
		}
		free(ka);
		if (out->why)
			break;
	}
	out->ok = out->why == NULL;
	free(list);
}

void aclnn_gen_match_release(struct aclnn_gen_match *m)
{
	free(m->why);
	m->why = NULL;
}
