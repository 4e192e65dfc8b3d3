/* Outline printers: JSON for machines and golden tests, text for people. */
#include "cxx_dump.h"

#include "json_escape.h"
#include "strbuf.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

static const char *cond_value_name(enum cxx_cond_value v)
{
	switch (v) {
	case CXX_COND_FALSE: return "false";
	case CXX_COND_TRUE: return "true";
	case CXX_COND_UNKNOWN: return "unknown";
	case CXX_COND_SKIPPED: return "skipped";
	}
	return "?";
}

/* A streaming JSON writer laid out like cJSON_Print (tabs, "key":<tab>value,
 * "[a, b]"), so the output is the same as a cJSON tree would give, without
 * building one: no allocation per value, integers formatted by hand. */
struct jw {
	FILE *out;
	struct strbuf b; /* flushed to `out` past JW_FLUSH bytes */
	int depth;      /* object and array nesting, for the indentation */
	int base;       /* tabs before every line after the first */
	bool first[64]; /* no member written yet at this level */
	bool in_obj[64];
	int level;
};

#define JW_FLUSH (1 << 16)

static void jw_flush(struct jw *w)
{
	if (w->b.n)
		fwrite(w->b.s, 1, w->b.n, w->out);
	w->b.n = 0;
}

static void jw_put(struct jw *w, const char *s, size_t len)
{
	strbuf_put(&w->b, s, len);
	if (w->b.n >= JW_FLUSH)
		jw_flush(w);
}

static void jw_putc(struct jw *w, char c)
{
	strbuf_putc(&w->b, c);
	if (w->b.n >= JW_FLUSH)
		jw_flush(w);
}

static void jw_puts(struct jw *w, const char *s)
{
	jw_put(w, s, strlen(s));
}

static void jw_indent(struct jw *w, int n)
{
	static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";

	/* (a run of tabs at once: this is before every member of the dump) */
	for (n += w->base; n > 0; n -= 16)
		jw_put(w, tabs, n < 16 ? (size_t)n : 16);
}

/* Separator before a value in an array, or before a key in an object. */
static void jw_sep(struct jw *w)
{
	if (w->level == 0)
		return;
	if (w->in_obj[w->level]) {
		if (!w->first[w->level])
			jw_puts(w, ",\n");
		jw_indent(w, w->depth);
	} else if (!w->first[w->level]) {
		jw_puts(w, ", ");
	}
	w->first[w->level] = false;
}

static void jw_raw_string(struct jw *w, const char *s)
{
	size_t n = strlen(s);
	char *o = strbuf_room(&w->b, JSON_ESCAPE_MAX * n + 2);

	o[0] = '"';
	n = json_escape(o + 1, s, n);
	o[n + 1] = '"';
	strbuf_commit(&w->b, n + 2);
	if (w->b.n >= JW_FLUSH)
		jw_flush(w);
}

static void jw_key(struct jw *w, const char *key)
{
	jw_sep(w);
	jw_raw_string(w, key);
	jw_puts(w, ":\t");
}

static void jw_open(struct jw *w, bool obj)
{
	jw_putc(w, obj ? '{' : '[');
	if (obj)
		jw_putc(w, '\n');
	w->depth++; /* cJSON indents by objects and arrays alike */
	w->level++;
	w->first[w->level] = true;
	w->in_obj[w->level] = obj;
}

static void jw_close(struct jw *w)
{
	bool obj = w->in_obj[w->level];

	w->level--;
	w->depth--;
	if (obj) {
		if (!w->first[w->level + 1])
			jw_putc(w, '\n');
		jw_indent(w, w->depth);
		jw_putc(w, '}');
	} else {
		jw_putc(w, ']');
	}
}

static void jw_uint(struct jw *w, unsigned long long v)
{
	char buf[24], *p = buf + sizeof(buf);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	jw_put(w, p, (size_t)(buf + sizeof(buf) - p));
}

/* Values: after jw_key in an object, or as array elements. */
static void jw_val_sep(struct jw *w)
{
	if (w->level && !w->in_obj[w->level])
		jw_sep(w);
}

static void jw_str(struct jw *w, const char *s)
{
	jw_val_sep(w);
	if (s)
		jw_raw_string(w, s);
	else
		jw_puts(w, "null");
}

static void jw_num(struct jw *w, long long v)
{
	jw_val_sep(w);
	if (v < 0) {
		jw_putc(w, '-');
		jw_uint(w, 0ull - (unsigned long long)v);
	} else {
		jw_uint(w, (unsigned long long)v);
	}
}

static void jw_bool(struct jw *w, bool b)
{
	jw_val_sep(w);
	jw_puts(w, b ? "true" : "false");
}

static void kstr(struct jw *w, const char *key, const char *s)
{
	jw_key(w, key);
	jw_str(w, s);
}

static void knum(struct jw *w, const char *key, long long v)
{
	jw_key(w, key);
	jw_num(w, v);
}

static void kbool(struct jw *w, const char *key, bool b)
{
	jw_key(w, key);
	jw_bool(w, b);
}

static void kindex(struct jw *w, const char *key, int idx)
{
	jw_key(w, key);
	if (idx == CXX_NONE)
		jw_str(w, NULL);
	else
		jw_num(w, idx);
}

static void krange(struct jw *w, const char *key, struct cxx_range r)
{
	jw_key(w, key);
	jw_open(w, false);
	jw_num(w, r.start);
	jw_num(w, r.end);
	jw_close(w);
}

static void kline(struct jw *w, const struct cxx_outline *ol, uint32_t off)
{
	knum(w, "line", (long long)src_file_line(ol->file, off));
}

static void kopen(struct jw *w, const char *key, bool obj)
{
	jw_key(w, key);
	jw_open(w, obj);
}

static void elem_open(struct jw *w)
{
	jw_val_sep(w);
	jw_open(w, true);
}

static bool has_head(enum cxx_stmt_kind k)
{
	return k == CXX_STMT_ARM || k == CXX_STMT_FOR || k == CXX_STMT_WHILE || k == CXX_STMT_DO ||
	       k == CXX_STMT_SWITCH || k == CXX_STMT_MACRO || k == CXX_STMT_CASE || k == CXX_STMT_GOTO ||
	       k == CXX_STMT_LABEL || k == CXX_STMT_LAMBDA;
}

static bool has_body(enum cxx_stmt_kind k)
{
	return k == CXX_STMT_ARM || k == CXX_STMT_FOR || k == CXX_STMT_WHILE || k == CXX_STMT_DO ||
	       k == CXX_STMT_SWITCH || k == CXX_STMT_BLOCK || k == CXX_STMT_LAMBDA;
}

static void body_json(struct jw *w, const struct cxx_outline *ol, const struct cxx_body *b, bool stmts)
{
	if (stmts) {
		kopen(w, "statements", false);
		for (size_t i = 0; i < b->nstmts; i++) {
			const struct cxx_stmt *s = &b->stmts[i];
			elem_open(w);
			knum(w, "id", (long long)i);
			kstr(w, "kind", cxx_stmt_kind_name(s->kind));
			kindex(w, "parent", s->parent);
			kline(w, ol, s->range.start);
			krange(w, "range", s->range);
			if (s->kind == CXX_STMT_ARM) {
				kstr(w, "arm", cxx_arm_kind_name(s->arm));
				kbool(w, "constexpr", s->is_constexpr);
			}
			if (has_head(s->kind)) {
				krange(w, "head", s->head);
				kstr(w, "text", s->text);
			}
			if (s->kind == CXX_STMT_FOR)
				kstr(w, "var", s->var);
			if (has_body(s->kind) || (s->kind == CXX_STMT_MACRO && s->body.end > s->body.start)) {
				krange(w, "body", s->body);
				kbool(w, "braced", s->braced);
			}
			if (s->kind == CXX_STMT_RETURN || s->kind == CXX_STMT_BREAK || s->kind == CXX_STMT_CONTINUE)
				kindex(w, "owner", s->owner);
			jw_close(w);
		}
		jw_close(w);
	}
	kopen(w, "calls", false);
	for (size_t i = 0; i < b->ncalls; i++) {
		const struct cxx_call *c = &b->calls[i];
		elem_open(w);
		kstr(w, "callee", c->callee);
		kstr(w, "name", c->name);
		kstr(w, "object", c->object);
		kstr(w, "template_args", c->template_args);
		if (c->constructs != CXX_CONSTRUCT_CALL)
			kstr(w, "constructs", cxx_construct_name(c->constructs));
		kopen(w, "args", false);
		for (size_t a = 0; a < c->nargs; a++)
			jw_str(w, c->args[a]);
		jw_close(w);
		kline(w, ol, c->range.start);
		krange(w, "range", c->range);
		kindex(w, "stmt", c->stmt);
		jw_close(w);
	}
	jw_close(w);
	kopen(w, "points", false);
	for (size_t i = 0; i < b->npoints; i++) {
		const struct cxx_point *p = &b->points[i];
		elem_open(w);
		kstr(w, "label", p->label);
		kstr(w, "event", p->event);
		kstr(w, "data", p->data);
		kopen(w, "extra", false);
		for (size_t a = 0; a < p->nextra; a++)
			jw_str(w, p->extra[a]);
		jw_close(w);
		kstr(w, "template_args", p->template_args);
		kline(w, ol, p->range.start);
		krange(w, "range", p->range);
		kindex(w, "stmt", p->stmt);
		knum(w, "call", p->call);
		jw_close(w);
	}
	jw_close(w);
}

static const char *def_name(enum cxx_func_def d)
{
	return d == CXX_DEF_DEFAULT ? "default" : d == CXX_DEF_DELETE ? "delete" : "body";
}

void cxx_outline_write_json(FILE *out, const struct cxx_outline *ol, const char *path, int indent)
{
	struct jw *w = xcalloc(1, sizeof(*w));

	w->out = out;
	w->base = indent;
	jw_open(w, true);
	kstr(w, "path", path);
	knum(w, "bytes", (long long)ol->file->len);
	kbool(w, "balanced", ol->balanced);

	kopen(w, "includes", false);
	for (size_t i = 0; i < ol->nincludes; i++) {
		const struct cxx_include *inc = &ol->includes[i];
		elem_open(w);
		kstr(w, "name", inc->name);
		kbool(w, "system", inc->system);
		kline(w, ol, inc->range.start);
		krange(w, "range", inc->range);
		kstr(w, "status", cxx_include_status_name(inc->status));
		kstr(w, "resolved", inc->resolved);
		jw_close(w);
	}
	jw_close(w);

	kopen(w, "conditionals", false);
	for (size_t i = 0; i < ol->nconds; i++) {
		const struct cxx_cond *c = &ol->conds[i];
		elem_open(w);
		kline(w, ol, c->range.start);
		krange(w, "range", c->range);
		kindex(w, "parent", c->parent);
		kbool(w, "split_braces", c->split_braces);
		kopen(w, "branches", false);
		for (size_t b = 0; b < c->nbranches; b++) {
			const struct cxx_cond_branch *br = &c->branches[b];
			elem_open(w);
			kstr(w, "directive", br->directive);
			kstr(w, "condition", br->condition);
			kline(w, ol, br->range.start);
			kstr(w, "value", cond_value_name(br->value));
			kbool(w, "taken", br->taken);
			knum(w, "brace_delta", br->brace_delta);
			jw_close(w);
		}
		jw_close(w);
		jw_close(w);
	}
	jw_close(w);

	kopen(w, "macros", false);
	for (size_t i = 0; i < ol->nmacros; i++) {
		const struct cxx_macro *m = &ol->macros[i];
		elem_open(w);
		kstr(w, "name", m->name);
		kstr(w, "params", m->params);
		kline(w, ol, m->range.start);
		krange(w, "range", m->range);
		krange(w, "body", m->body_range);
		kbool(w, "has_code", m->has_code);
		body_json(w, ol, &m->body, false);
		jw_close(w);
	}
	jw_close(w);

	kopen(w, "functions", false);
	for (size_t i = 0; i < ol->nfuncs; i++) {
		const struct cxx_func *f = &ol->funcs[i];
		elem_open(w);
		kstr(w, "name", f->name);
		kstr(w, "qualified_name", f->qualified_name);
		kstr(w, "written_name", f->written_name);
		kstr(w, "scope", f->scope);
		kstr(w, "template_params", f->template_params);
		kstr(w, "template_args", f->template_args);
		kstr(w, "prefix", f->prefix);
		kbool(w, "kernel", f->kernel);
		kbool(w, "extern_c", f->extern_c);
		kbool(w, "in_class", f->in_class);
		kstr(w, "definition", def_name(f->def));
		kline(w, ol, f->name_range.start);
		krange(w, "range", f->range);
		krange(w, "name_range", f->name_range);
		krange(w, "params_range", f->params_range);
		krange(w, "body", f->body_range);
		kopen(w, "params", false);
		for (size_t k = 0; k < f->nparams; k++) {
			elem_open(w);
			kstr(w, "type", f->params[k].type);
			kstr(w, "name", f->params[k].name);
			if (f->params[k].default_arg)
				kstr(w, "default", f->params[k].default_arg);
			jw_close(w);
		}
		jw_close(w);
		body_json(w, ol, &f->body, true);
		jw_close(w);
	}
	jw_close(w);
	if (ol->ntypes > 0) {
		kopen(w, "types", false);
		for (size_t i = 0; i < ol->ntypes; i++) {
			const struct cxx_type *t = &ol->types[i];
			elem_open(w);
			kstr(w, "kind", t->kind == CXX_TYPE_CLASS ? "class" : "alias");
			kstr(w, "name", t->name);
			kstr(w, "scope", t->scope);
			kstr(w, t->kind == CXX_TYPE_CLASS ? "bases" : "target", t->target);
			kstr(w, "template_params", t->template_params);
			kstr(w, "template_args", t->template_args);
			kline(w, ol, t->range.start);
			krange(w, "range", t->range);
			if (t->func != CXX_NONE)
				kstr(w, "function", ol->funcs[t->func].qualified_name);
			jw_close(w);
		}
		jw_close(w);
	}
	jw_close(w);
	jw_flush(w);
	strbuf_release(&w->b);
	free(w);
}

cJSON *cxx_outline_json(const struct cxx_outline *ol, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	cJSON *j;

	if (!mem)
		return NULL;
	cxx_outline_write_json(mem, ol, path, 0);
	fclose(mem);
	j = cJSON_ParseWithLength(buf, len);
	free(buf);
	return j;
}

/* ------------------------------------------------------------ text */

static void pos(FILE *out, const struct cxx_outline *ol, uint32_t off)
{
	fprintf(out, "%zu:%zu", src_file_line(ol->file, off), src_file_column(ol->file, off));
}

/* One line of `s` at most 60 bytes, newlines flattened. */
static void brief(FILE *out, const char *s)
{
	size_t n = 0;

	for (; *s && n < 60; s++, n++)
		fputc(*s == '\n' || *s == '\t' ? ' ' : *s, out);
	if (*s)
		fputs("...", out);
}

/* "call Init(2 args)", "construct Dispatcher(1 arg), declaration" */
static void call_text(FILE *out, const struct cxx_call *c)
{
	fputs(c->constructs == CXX_CONSTRUCT_CALL ? "call " : "construct ", out);
	brief(out, c->callee);
	fprintf(out, "(%zu arg%s)", c->nargs, c->nargs == 1 ? "" : "s");
	if (c->constructs != CXX_CONSTRUCT_CALL)
		fprintf(out, ", %s", cxx_construct_name(c->constructs));
	fputc('\n', out);
}

static int depth_of(const struct cxx_body *b, int i)
{
	int d = 0;

	while (b->stmts[i].parent != CXX_NONE) {
		i = b->stmts[i].parent;
		d++;
	}
	return d;
}

static void body_text(FILE *out, const struct cxx_outline *ol, const struct cxx_body *b, int indent)
{
	for (size_t i = 0; i < b->nstmts; i++) {
		const struct cxx_stmt *s = &b->stmts[i];
		fprintf(out, "%*s", indent + 2 * depth_of(b, (int)i), "");
		pos(out, ol, s->range.start);
		fprintf(out, " %s", s->kind == CXX_STMT_ARM ? cxx_arm_kind_name(s->arm) : cxx_stmt_kind_name(s->kind));
		if (s->is_constexpr)
			fputs(" constexpr", out);
		if (s->text && s->text[0]) {
			fputs(" (", out);
			brief(out, s->text);
			fputc(')', out);
		}
		if (s->var)
			fprintf(out, " var=%s", s->var);
		if (has_body(s->kind) && s->body.end > s->body.start)
			fputs(s->braced ? " {}" : " unbraced", out);
		if (s->kind == CXX_STMT_RETURN || s->kind == CXX_STMT_BREAK || s->kind == CXX_STMT_CONTINUE) {
			if (s->owner == CXX_NONE)
				fputs(s->kind == CXX_STMT_RETURN ? " from the function" : " (no loop)", out);
			else
				fprintf(out, " -> %s at %zu", cxx_stmt_kind_name(b->stmts[s->owner].kind),
					src_file_line(ol->file, b->stmts[s->owner].range.start));
		}
		fputc('\n', out);
		for (size_t c = 0; c < b->ncalls; c++) {
			if (b->calls[c].stmt != (int)i)
				continue;
			fprintf(out, "%*s  ", indent + 2 * depth_of(b, (int)i), "");
			call_text(out, &b->calls[c]);
		}
		for (size_t k = 0; k < b->npoints; k++) {
			const struct cxx_point *p = &b->points[k];
			if (p->stmt != (int)i)
				continue;
			fprintf(out, "%*s  point \"%s\" %s%s%s\n", indent + 2 * depth_of(b, (int)i), "",
				p->label ? p->label : "?", p->event ? p->event : "?",
				p->template_args ? " sync=" : "", p->template_args ? p->template_args : "");
		}
	}
	for (size_t c = 0; c < b->ncalls; c++) {
		if (b->calls[c].stmt != CXX_NONE)
			continue;
		fprintf(out, "%*s", indent, "");
		call_text(out, &b->calls[c]);
	}
	for (size_t k = 0; k < b->npoints; k++) {
		const struct cxx_point *p = &b->points[k];
		if (p->stmt != CXX_NONE)
			continue;
		fprintf(out, "%*spoint \"%s\" %s%s%s\n", indent, "", p->label ? p->label : "?",
			p->event ? p->event : "?", p->template_args ? " sync=" : "",
			p->template_args ? p->template_args : "");
	}
}

void cxx_outline_text(FILE *out, const struct cxx_outline *ol, const char *path)
{
	fprintf(out, "%s: %zu bytes%s\n", path, ol->file->len, ol->balanced ? "" : ", braces unbalanced");
	for (size_t i = 0; i < ol->nincludes; i++) {
		const struct cxx_include *inc = &ol->includes[i];
		fputs("  ", out);
		pos(out, ol, inc->range.start);
		fprintf(out, " include %c%s%c %s%s%s\n", inc->system ? '<' : '"', inc->name, inc->system ? '>' : '"',
			cxx_include_status_name(inc->status), inc->resolved ? " " : "",
			inc->resolved ? inc->resolved : "");
	}
	for (size_t i = 0; i < ol->nconds; i++) {
		const struct cxx_cond *c = &ol->conds[i];
		for (size_t b = 0; b < c->nbranches; b++) {
			const struct cxx_cond_branch *br = &c->branches[b];
			fputs("  ", out);
			pos(out, ol, br->range.start);
			fprintf(out, " #%s%s%s: %s, %s\n", br->directive, br->condition[0] ? " " : "", br->condition,
				cond_value_name(br->value), br->taken ? "taken" : "not taken");
		}
	}
	for (size_t i = 0; i < ol->nmacros; i++) {
		const struct cxx_macro *m = &ol->macros[i];
		fputs("  ", out);
		pos(out, ol, m->range.start);
		fprintf(out, " macro %s%s%s%s%s\n", m->name, m->params ? "(" : "", m->params ? m->params : "",
			m->params ? ")" : "", m->has_code ? " (code)" : "");
		body_text(out, ol, &m->body, 4);
	}
	for (size_t i = 0; i < ol->nfuncs; i++) {
		const struct cxx_func *f = &ol->funcs[i];
		fputs("  ", out);
		pos(out, ol, f->name_range.start);
		fprintf(out, " function %s", f->qualified_name);
		if (f->template_params)
			fprintf(out, " template<%s>", f->template_params);
		fputc('(', out);
		for (size_t k = 0; k < f->nparams; k++)
			fprintf(out, "%s%s%s%s%s%s", k ? ", " : "", f->params[k].type, f->params[k].name ? " " : "",
				f->params[k].name ? f->params[k].name : "", f->params[k].default_arg ? " = " : "",
				f->params[k].default_arg ? f->params[k].default_arg : "");
		fputc(')', out);
		if (f->kernel)
			fputs(" kernel", out);
		if (f->extern_c)
			fputs(" extern-C", out);
		if (f->def != CXX_DEF_BODY)
			fprintf(out, " = %s", def_name(f->def));
		fputc('\n', out);
		body_text(out, ol, &f->body, 4);
	}
}
