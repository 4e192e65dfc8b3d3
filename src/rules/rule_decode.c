/* Decoding rules statements into the policy. Each statement's arguments are
 * read through a cursor that reports, at the exact argument, what was expected
 * and what was found; misspelt keywords get a "did you mean". */
#include "rule_decode.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rule_expr.h"
#include "sh_word.h"
#include "suggest.h"
#include "xalloc.h"

enum section { SEC_top, SEC_operator, SEC_trace, SEC_gate, SEC_collect, SEC_COUNT };

static const char *const section_names[SEC_COUNT] = { "top level", "operator", "trace", "gate", "collect" };

struct decode;
typedef void (*decode_fn)(struct decode *dc, const struct rule_node *n);

#define STMT(sec, kw, fn, synopsis) static void fn(struct decode *dc, const struct rule_node *n);
#include "rule_statements.def"
#undef STMT

static const struct stmt_def {
	enum section section;
	const char *keyword;
	decode_fn fn;
	const char *synopsis;
} stmt_defs[] = {
#define STMT(sec, kw, fn, synopsis) { SEC_##sec, #kw, fn, synopsis },
#include "rule_statements.def"
#undef STMT
};

#define NSTMTS (sizeof(stmt_defs) / sizeof(stmt_defs[0]))

struct seen {
	const char *key;  /* "section" or "section.keyword" (static or owned by the node) */
	enum section section;
	struct src_loc loc;
};

struct decode {
	struct rule_policy *p;
	const struct src_file *file;
	struct diag *diag;
	rule_include_fn include;
	void *include_ctx;
	unsigned errors;
	const struct stmt_def *def; /* the statement being decoded */
	const struct rule_in *in;   /* the `in` block being decoded, or NULL */
	struct seen *seen;          /* sections and settings met in this file */
	size_t nseen, cap_seen;
	size_t cap_ins;
};

/* ---- reporting ---- */

static struct src_loc span_loc(struct decode *dc, struct rules_span s)
{
	return rule_span_loc(dc->file, s);
}

static void error_at(struct decode *dc, struct rules_span s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void error_at(struct decode *dc, struct rules_span s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vat(dc->diag, DIAG_ERROR, span_loc(dc, s), fmt, ap);
	va_end(ap);
	dc->errors++;
}

/* "string \"x\"", "word 'x'", ... for "found ..." messages. */
static void describe(const struct rule_value *v, char *buf, size_t n)
{
	switch (v->kind) {
	case RV_WORD:
		snprintf(buf, n, "'%s'", v->text);
		break;
	case RV_STRING:
		snprintf(buf, n, "string \"%.40s\"", v->text);
		break;
	case RV_REGEX:
		snprintf(buf, n, "regular expression /%.40s/", v->text);
		break;
	case RV_NUMBER:
		snprintf(buf, n, "number %s", v->text);
		break;
	case RV_COMMA:
		snprintf(buf, n, "','");
		break;
	case RV_NTH:
		snprintf(buf, n, "'#%.40s'", v->text);
		break;
	}
}

/* ---- the argument cursor ---- */

struct cursor {
	struct decode *dc;
	const struct rule_node *n;
	size_t i;
	bool failed;
};

static struct cursor cursor_of(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = { dc, n, 0, false };
	return c;
}

/* The span just after the last consumed token (or the keyword). */
static struct rules_span after_prev(const struct cursor *c)
{
	uint32_t end = c->i ? c->n->args[c->i - 1]->span.end : c->n->kw_span.end;
	struct rules_span s = { end, end };
	return s;
}

/* The token before the cursor as written in the file (quotes, slashes kept),
 * cut to 124 bytes: returned by value, it lives until the end of the full
 * expression that calls (the error message that quotes it). */
struct token_text {
	char s[128];
};

static struct token_text prev_text(const struct cursor *c)
{
	struct token_text t;
	struct rules_span s = c->i ? c->n->args[c->i - 1]->span : c->n->kw_span;
	size_t n = s.end - s.start;

	if (n > sizeof(t.s) - 4) {
		memcpy(t.s, c->dc->file->data + s.start, sizeof(t.s) - 4);
		memcpy(t.s + sizeof(t.s) - 4, "...", 4);
	} else {
		memcpy(t.s, c->dc->file->data + s.start, n);
		t.s[n] = '\0';
	}
	return t;
}

static const struct rule_value *peek(const struct cursor *c)
{
	return c->i < c->n->nargs ? c->n->args[c->i] : NULL;
}

/* Reports that `what` was expected at the cursor; marks the cursor failed. */
static void expected(struct cursor *c, const char *what)
{
	const struct rule_value *v = peek(c);
	char found[96];

	if (c->failed)
		return;
	c->failed = true;
	if (!v) {
		error_at(c->dc, after_prev(c), "expected %s after '%s' (%s)", what, prev_text(c).s,
			 c->dc->def->synopsis);
		return;
	}
	describe(v, found, sizeof(found));
	error_at(c->dc, v->span, "expected %s after '%s', found %s (%s)", what, prev_text(c).s, found,
		 c->dc->def->synopsis);
}

static const struct rule_value *take(struct cursor *c, enum rule_value_kind kind, const char *what)
{
	const struct rule_value *v = peek(c);

	if (c->failed)
		return NULL;
	if (!v || v->kind != kind) {
		expected(c, what);
		return NULL;
	}
	c->i++;
	return v;
}

static const char *take_string(struct cursor *c, const char *what, struct src_loc *loc)
{
	const struct rule_value *v = take(c, RV_STRING, what);
	if (v && loc)
		*loc = span_loc(c->dc, v->span);
	return v ? v->text : NULL;
}

static struct rule_regex *take_regex(struct cursor *c)
{
	const struct rule_value *v = take(c, RV_REGEX, "a regular expression /.../");
	struct rule_regex *re;

	if (!v)
		return NULL;
	if (v->text[0] == '\0') {
		error_at(c->dc, v->span, "empty regular expression (it would match everything)");
		c->failed = true;
		return NULL;
	}
	re = rule_regex_compile(v->text, v->flags, span_loc(c->dc, v->span), c->dc->diag);
	if (!re) {
		c->dc->errors++;
		c->failed = true;
	}
	return re;
}

/* An optional `#N` after a regular expression: *nth is N, 1 to RULE_NTH_MAX
 * (left 0, every match, when absent). */
static void take_nth(struct cursor *c, unsigned *nth)
{
	const struct rule_value *v = peek(c);
	size_t len;

	if (c->failed || !v || v->kind != RV_NTH)
		return;
	c->i++;
	len = strlen(v->text);
	if (len == 0 || strspn(v->text, "0123456789") != len) {
		error_at(c->dc, v->span, "expected a number after '#', found '#%s' ('#N' selects the N-th match, "
			 "'#1' the first)", v->text);
		c->failed = true;
		return;
	}
	if (strspn(v->text, "0") == len) {
		error_at(c->dc, v->span, "'#%s' selects nothing: matches are counted from '#1'", v->text);
		c->failed = true;
		return;
	}
	if (len > 6 || strtol(v->text, NULL, 10) > RULE_NTH_MAX) {
		error_at(c->dc, v->span, "'#%s' is too large: at most '#%d'", v->text, RULE_NTH_MAX);
		c->failed = true;
		return;
	}
	*nth = (unsigned)strtol(v->text, NULL, 10);
}

static struct rule_template *take_label(struct cursor *c)
{
	struct src_loc loc;
	const char *s = take_string(c, "a label string", &loc);
	struct rule_template *t;

	if (!s)
		return NULL;
	t = rule_template_parse(s, loc, c->dc->diag);
	if (!t) {
		c->dc->errors++;
		c->failed = true;
	}
	return t;
}

/* A whole number in [lo, hi]. */
static bool take_int(struct cursor *c, const char *what, long lo, long hi, long *out)
{
	const struct rule_value *v = take(c, RV_NUMBER, "a whole number");

	if (!v)
		return false;
	if (v->number != floor(v->number)) {
		error_at(c->dc, v->span, "expected a whole number, found %s", v->text);
		c->failed = true;
		return false;
	}
	if (v->number < (double)lo || v->number > (double)hi) {
		error_at(c->dc, v->span, "%s must be between %ld and %ld, found %s", what, lo, hi, v->text);
		c->failed = true;
		return false;
	}
	*out = (long)v->number;
	return true;
}

/* One of `choices` (NULL-terminated); returns its index or -1. */
static int take_choice(struct cursor *c, const char *const *choices, const char *what)
{
	const struct rule_value *v = peek(c);
	size_t n = 0;
	const char *best;

	if (c->failed)
		return -1;
	while (choices[n])
		n++;
	if (!v || v->kind != RV_WORD) {
		char article[96];
		snprintf(article, sizeof(article), "a %s", what);
		expected(c, article);
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		if (strcmp(v->text, choices[k]) == 0) {
			c->i++;
			return (int)k;
		}
	}
	c->failed = true;
	best = suggest_closest(v->text, choices, n);
	if (best) {
		const char *ties[4];
		size_t nt = suggest_ties(v->text, choices, n, ties, 4);
		char list[160];
		size_t ll = 0;
		for (size_t k = 0; k < nt; k++)
			ll += (size_t)snprintf(list + ll, sizeof(list) - ll, "%s'%s'", k ? " or " : "", ties[k]);
		error_at(c->dc, v->span, "unknown %s '%s' (did you mean %s?)", what, v->text, list);
	} else
		error_at(c->dc, v->span, "unknown %s '%s' (%s)", what, v->text, c->dc->def->synopsis);
	return -1;
}

static bool take_keyword(struct cursor *c, const char *kw)
{
	const char *const choices[] = { kw, NULL };
	char what[64];

	snprintf(what, sizeof(what), "'%s'", kw);
	if (c->failed)
		return false;
	if (!peek(c) || peek(c)->kind != RV_WORD || !suggest_closest(peek(c)->text, choices, 1)) {
		expected(c, what);
		return false;
	}
	return take_choice(c, choices, "keyword") == 0;
}

static bool at_word(const struct cursor *c, const char *kw)
{
	const struct rule_value *v = peek(c);
	return !c->failed && v && v->kind == RV_WORD && strcmp(v->text, kw) == 0;
}

static bool take_comma(struct cursor *c)
{
	const struct rule_value *v = peek(c);
	if (!c->failed && v && v->kind == RV_COMMA) {
		c->i++;
		return true;
	}
	return false;
}

static bool is_keyword(const char *word)
{
	for (size_t k = 0; k < NSTMTS; k++)
		if (strcmp(stmt_defs[k].keyword, word) == 0)
			return true;
	return false;
}

/* The statement must end here. A statement keyword on a later line means the
 * ';' was forgotten. Returns true when everything was consumed cleanly. */
static bool finish(struct cursor *c)
{
	const struct rule_value *v = peek(c);
	char found[96];

	if (c->failed)
		return false;
	if (!v)
		return true;
	c->failed = true;
	if (v->kind == RV_WORD && is_keyword(v->text) &&
	    src_file_line(c->dc->file, v->span.start) > src_file_line(c->dc->file, after_prev(c).start)) {
		error_at(c->dc, after_prev(c), "expected ';' after '%s'", prev_text(c).s);
		return false;
	}
	describe(v, found, sizeof(found));
	if (v->kind == RV_NTH) {
		error_at(c->dc, v->span, "unexpected %s: '#N' selects the N-th match only after the regular "
			 "expression of wrap, hot, or region from and to (%s)", found, c->dc->def->synopsis);
		return false;
	}
	error_at(c->dc, v->span, "unexpected %s at the end of '%s' (%s)", found, c->n->keyword,
		 c->dc->def->synopsis);
	return false;
}

/* ---- per-file bookkeeping ---- */

/* Remembers `key`; reports a duplicate within this file. Returns false then. */
static bool first_in_file(struct decode *dc, const char *key, enum section sec, struct src_loc loc,
			  const char *what)
{
	for (size_t i = 0; i < dc->nseen; i++) {
		if (dc->seen[i].section == sec && strcmp(dc->seen[i].key, key) == 0) {
			diag_at(dc->diag, DIAG_ERROR, loc, "duplicate %s '%s' in this file", what, key);
			diag_at(dc->diag, DIAG_NOTE, dc->seen[i].loc, "'%s' was first given here", key);
			dc->errors++;
			return false;
		}
	}
	XGROW(dc->seen, dc->cap_seen, dc->nseen + 1);
	dc->seen[dc->nseen].key = key;
	dc->seen[dc->nseen].section = sec;
	dc->seen[dc->nseen].loc = loc;
	dc->nseen++;
	return true;
}

/* Settings may be given once per file; lists of rules may repeat. */
static bool once(struct decode *dc, const struct rule_node *n)
{
	return first_in_file(dc, n->keyword, dc->def->section, span_loc(dc, n->kw_span), "setting");
}

static struct src_loc stmt_loc(struct decode *dc, const struct rule_node *n)
{
	return span_loc(dc, n->span);
}

static struct rule_trace_rule *new_rule(struct decode *dc, enum rule_kind kind, const struct rule_node *n)
{
	struct rule_policy *p = dc->p;
	struct rule_trace_rule *r;

	XGROW(p->rules, p->cap_rules, p->nrules + 1);
	r = &p->rules[p->nrules++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->loc = stmt_loc(dc, n);
	r->in = dc->in;
	return r;
}

/* Drops the rule just added when its statement had an error. */
static void keep_rule(struct decode *dc, struct cursor *c)
{
	if (!finish(c)) {
		rule_trace_rule_clear(&dc->p->rules[dc->p->nrules - 1]);
		dc->p->nrules--;
	}
}

/* ---- top level ---- */

static void d_rules(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	long v;

	if (!once(dc, n))
		return;
	if (take_int(&c, "the rules version", 0, 1000000, &v) && v != 1) {
		error_at(dc, n->args[0]->span, "unsupported rules version %ld: this autotrace reads version 1", v);
		return;
	}
	finish(&c);
}

static void d_include(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	struct src_loc loc;
	const char *name = take_string(&c, "a file name string", &loc);

	if (name && finish(&c) &&
	    first_in_file(dc, name, SEC_COUNT, span_loc(dc, n->args[0]->span), "include"))
		dc->errors += dc->include(dc->include_ctx, name, loc);
}

/* ---- operator ---- */

/* A C++ identifier: what an OpDef class name and its snake_case are. */
static bool is_identifier(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	for (; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* name "NAME"; the operator the rules are for, among the OpDef classes of
 * the directory (checked against them when a command reads the directory). */
static void d_name(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	struct src_loc loc;
	const char *name = take_string(&c, "the operator's name string", &loc);

	if (name && !is_identifier(name)) {
		error_at(dc, n->args[0]->span,
			 "an operator name is an OpDef class name or its snake_case (letters, digits, '_'), not \"%s\"", name);
		return;
	}
	if (name && finish(&c) && once(dc, n))
		rule_str_set(&dc->p->name, name, loc);
}

/* without binding, samples; the layers that are not in this project. */
static void d_without(struct decode *dc, const struct rule_node *n)
{
	static const char *const layers[] = { "binding", "samples", NULL };
	struct cursor c = cursor_of(dc, n);
	bool seen[2] = { false, false };

	do {
		const struct rule_value *at = peek(&c);
		int k = take_choice(&c, layers, "layer ('binding' or 'samples')");
		if (k < 0)
			break;
		if (seen[k]) {
			error_at(dc, at->span, "'%s' given twice", layers[k]);
			c.failed = true;
			break;
		}
		seen[k] = true;
	} while (take_comma(&c));
	if (!finish(&c) || !once(dc, n))
		return;
	dc->p->without_binding = seen[0];
	dc->p->without_samples = seen[1];
}

/* kernel "DIR"; and project "DIR"; (both relative to the operator directory). */
static void d_dir(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	struct src_loc loc;
	const char *dir = take_string(&c, "a directory string", &loc);
	bool project = strcmp(n->keyword, "project") == 0;

	if (dir && !dir[0]) {
		error_at(dc, n->args[0]->span, "empty path");
		return;
	}
	if (dir && project && dir[0] == '/') {
		error_at(dc, n->args[0]->span,
			 "the project root is relative to the operator directory (\"../..\"), not an absolute path");
		return;
	}
	if (dir && finish(&c) && once(dc, n))
		rule_str_set(project ? &dc->p->project : &dc->p->kernel, dir, loc);
}

/* Layers searched from the project root rather than the operator directory. */
static bool project_level(const char *kw)
{
	return strcmp(kw, "aclnn") == 0 || strcmp(kw, "pybind") == 0 || strcmp(kw, "samples") == 0 ||
	       strcmp(kw, "build") == 0;
}

/* True when the pattern climbs out of its directory ("../x", "a/../../b") or is absolute. */
static bool escapes(const char *pat)
{
	if (pat[0] == '/')
		return true;
	for (const char *s = pat; *s;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);
		if (n == 2 && s[0] == '.' && s[1] == '.')
			return true;
		s += n;
		if (*s == '/')
			s++;
	}
	return false;
}

static struct rule_strlist *glob_setting(struct rule_policy *p, const char *kw)
{
	static const struct {
		const char *kw;
		size_t off;
	} map[] = {
		{ "base", offsetof(struct rule_policy, base) },
		{ "host", offsetof(struct rule_policy, host) },
		{ "infer", offsetof(struct rule_policy, infer) },
		{ "graph", offsetof(struct rule_policy, graph) },
		{ "aclnn", offsetof(struct rule_policy, aclnn) },
		{ "pybind", offsetof(struct rule_policy, pybind) },
		{ "samples", offsetof(struct rule_policy, samples) },
		{ "build", offsetof(struct rule_policy, build) },
		{ "include_dirs", offsetof(struct rule_policy, include_dirs) },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strcmp(map[i].kw, kw) == 0)
			return (struct rule_strlist *)((char *)p + map[i].off);
	return NULL;
}

static void d_globs(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	struct rule_strlist list = { NULL, 0, stmt_loc(dc, n) };
	struct rule_strlist *target = glob_setting(dc->p, n->keyword);

	do {
		const char *s = take_string(&c, "a path pattern string", NULL);
		if (s && !s[0]) {
			error_at(dc, c.n->args[c.i - 1]->span, "empty path pattern");
			c.failed = true;
		} else if (s && escapes(s) && strcmp(n->keyword, "include_dirs") != 0) {
			/* a pattern outside the tree it is matched in finds nothing, silently */
			if (project_level(n->keyword))
				error_at(dc, c.n->args[c.i - 1]->span,
					 "'%s' patterns are matched under the project root and cannot leave it: name a root "
					 "that holds these files with 'project \"DIR\";' (relative to the operator directory)",
					 n->keyword);
			else
				error_at(dc, c.n->args[c.i - 1]->span,
					 "'%s' patterns are matched under the operator directory and cannot leave it", n->keyword);
			c.failed = true;
		} else if (s) {
			rule_strlist_add(&list, s);
		}
	} while (take_comma(&c));
	if (finish(&c) && once(dc, n)) {
		rule_strlist_clear(target);
		*target = list;
		return;
	}
	rule_strlist_clear(&list);
}

static void d_define(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	bool undef = strcmp(n->keyword, "undef") == 0;
	const struct rule_value *name = take(&c, RV_WORD, "a macro name");
	const struct rule_value *value = NULL;
	struct rule_policy *p = dc->p;

	if (!undef && peek(&c) && !c.failed) {
		if (peek(&c)->kind == RV_WORD || peek(&c)->kind == RV_NUMBER || peek(&c)->kind == RV_STRING)
			value = c.n->args[c.i++];
		else
			expected(&c, "a macro value (a word, number or string)");
	}
	if (!name || !finish(&c))
		return;
	p->defines = xrealloc(p->defines, (p->ndefines + 1) * sizeof(*p->defines));
	p->defines[p->ndefines].name = xstrdup(name->text);
	p->defines[p->ndefines].value = undef ? NULL : xstrdup(value ? value->text : "1");
	p->defines[p->ndefines].loc = stmt_loc(dc, n);
	p->ndefines++;
}

static void d_profiling(struct decode *dc, const struct rule_node *n)
{
	static const char *const modes[] = { "required", "optional", "auto", NULL };
	struct cursor c = cursor_of(dc, n);
	struct src_loc loc;
	const char *name = take_string(&c, "the output name string", &loc);
	int mode = take_choice(&c, modes, "profiling mode");

	if (name && mode >= 0 && finish(&c) && once(dc, n)) {
		rule_str_set(&dc->p->profiling, name, loc);
		dc->p->mode = mode == 0 ? RULE_MODE_REQUIRED : mode == 1 ? RULE_MODE_OPTIONAL : RULE_MODE_AUTO;
	}
}

/* ---- trace ---- */

/* Root statements: those of one file make the list of roots; a later file
 * that has root statements replaces the list. */
static void d_root(struct decode *dc, const struct rule_node *n)
{
	static const char *const places[] = { "kernel", "function", NULL };
	struct cursor c = cursor_of(dc, n);
	struct src_loc loc;
	const char *label = take_string(&c, "the root label string", &loc);
	struct rule_template *t = NULL;
	struct rule_regex *re = NULL;
	struct rule_policy *p = dc->p;

	if (label) {
		t = rule_template_parse(label, loc, dc->diag);
		if (!t) {
			dc->errors++;
			c.failed = true;
		} else if (t->nparts != 1 || t->parts[0].var >= 0) {
			error_at(dc, n->args[0]->span, "the root label is plain text, without template variables");
			c.failed = true;
		}
	}
	if (!c.failed && peek(&c) && take_keyword(&c, "at") && take_choice(&c, places, "root place") == 1)
		re = take_regex(&c);
	if (finish(&c)) {
		/* a root at the place of another one: only the first would ever be used */
		for (size_t i = 0; p->roots_file == dc->file && i < p->nroots; i++)
			if (!p->roots[i].at == !re && (!re || (strcmp(p->roots[i].at->pattern, re->pattern) == 0 &&
							      strcmp(p->roots[i].at->flags, re->flags) == 0))) {
				if (strcmp(p->roots[i].label, label) == 0)
					diag_at(dc->diag, DIAG_ERROR, loc, "duplicate root '%s' in this file", label);
				else
					diag_at(dc->diag, DIAG_ERROR, loc,
						"root '%s' is at the place of root '%s': one place has one root", label,
						p->roots[i].label);
				diag_at(dc->diag, DIAG_NOTE, p->roots[i].loc, "'%s' was first given here", p->roots[i].label);
				dc->errors++;
				goto out;
			}
		if (p->roots_file != dc->file) {
			rule_policy_clear_roots(p);
			p->roots_file = dc->file;
		}
		p->roots = xrealloc(p->roots, (p->nroots + 1) * sizeof(*p->roots));
		p->roots[p->nroots].label = xstrdup(label);
		p->roots[p->nroots].at = re;
		p->roots[p->nroots].loc = loc;
		p->nroots++;
		re = NULL;
	}
out:
	rule_template_free(t);
	rule_regex_free(re);
}

static void d_depth(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	long v;

	if (take_int(&c, "depth", 1, 7, &v) && finish(&c) && once(dc, n))
		dc->p->depth = (int)v;
}

static void d_density(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	long lo = 0, hi = 0;

	if (take_int(&c, "the minimum density", 1, 1000, &lo) && take_int(&c, "the maximum density", 1, 1000, &hi)) {
		if (hi < lo) {
			error_at(dc, n->args[1]->span, "the maximum density %ld is below the minimum %ld", hi, lo);
			return;
		}
		if (finish(&c) && once(dc, n)) {
			dc->p->density_min = (int)lo;
			dc->p->density_max = (int)hi;
		}
	}
}

static const char *const target_words[] = {
#define X(n) #n,
	RULE_TARGETS(X)
#undef X
	NULL
};

static void d_phase(struct decode *dc, const struct rule_node *n)
{
	static const char *const kinds[] = { "file", "function", "loop", "region", NULL };
	static const enum rule_target targets[] = { RULE_TARGET_file, RULE_TARGET_function, RULE_TARGET_loop,
						     RULE_TARGET_region };
	struct rule_trace_rule *r = new_rule(dc, RULE_phase, n);
	struct cursor c = cursor_of(dc, n);
	const char *name = take_string(&c, "the phase name string", NULL);
	int k;

	if (name && !name[0]) {
		error_at(dc, n->args[0]->span, "empty phase name");
		c.failed = true;
	} else if (name) {
		/* `{name}`: the matched function's (file's, loop variable's) name */
		struct src_loc loc = span_loc(dc, n->args[0]->span);
		struct rule_template *t = rule_template_parse(name, loc, dc->diag);
		if (!t) {
			dc->errors++;
			c.failed = true;
		} else {
			for (size_t i = 0; i < t->nparts && !c.failed; i++)
				if (t->parts[i].var >= 0 && t->parts[i].var != RULE_TVAR_name && t->parts[i].var != RULE_TVAR_class &&
				    t->parts[i].var != RULE_TVAR_Name && t->parts[i].var != RULE_TVAR_Class) {
					error_at(dc, n->args[0]->span,
						 "a phase name may use only {name}, {class}, {Name} and {Class}, not {%s}",
						 rule_tvar_name((enum rule_tvar)t->parts[i].var));
					c.failed = true;
				}
			rule_template_free(t);
		}
	}
	k = take_choice(&c, kinds, "phase target");

	r->phase = name ? xstrdup(name) : NULL;
	r->target = k >= 0 ? targets[k] : RULE_TARGET_file;
	if (r->target == RULE_TARGET_region) {
		/* region from /RE/ [#N] [to /RE/ [#N]]: to the end of the block without `to` */
		if (take_keyword(&c, "from")) {
			r->match = take_regex(&c);
			take_nth(&c, &r->nth);
		}
		if (at_word(&c, "to")) {
			c.i++;
			r->until = take_regex(&c);
			take_nth(&c, &r->until_nth);
		}
	} else if (k >= 0) {
		r->match = take_regex(&c);
	}
	if (r->target == RULE_TARGET_function && at_word(&c, "calls")) {
		c.i++;
		r->calls = take_regex(&c);
	}
	keep_rule(dc, &c);
}

/* Optional `index EXPR` / `extra EXPR` clauses (an identifier or a quoted
 * expression) and `sync`, in any order. */
static void take_args_clauses(struct cursor *c, struct rule_trace_rule *r)
{
	while (!c->failed && (at_word(c, "index") || at_word(c, "extra") || at_word(c, "sync"))) {
		if (at_word(c, "sync")) {
			if (r->sync) {
				error_at(c->dc, c->n->args[c->i]->span, "'sync' given twice");
				c->failed = true;
				return;
			}
			r->sync = true;
			c->i++;
			continue;
		}
		bool is_index = at_word(c, "index");
		const struct rule_value *v;
		char **slot = is_index ? &r->index : &r->extra;
		c->i++;
		v = peek(c);
		if (!v || (v->kind != RV_WORD && v->kind != RV_STRING)) {
			expected(c, "a variable name, or a C++ expression in quotes,");
			return;
		}
		if (*slot) {
			error_at(c->dc, c->n->args[c->i - 1]->span, "'%s' given twice", is_index ? "index" : "extra");
			c->failed = true;
			return;
		}
		if (v->kind == RV_STRING && rule_expr_problem(v->text)) {
			error_at(c->dc, v->span, "this expression cannot be passed to the trace point: %s",
				 rule_expr_problem(v->text));
			c->failed = true;
			return;
		}
		*slot = xstrdup(v->text);
		c->i++;
	}
}

/* function|loop|branch [/REGEX/] [calls /REGEX/] "LABEL" [else "LABEL"] clauses
 * [whole clauses] (loop, branch) [opaque | steps "LABEL"] (function) */
static void d_scope_rule(struct decode *dc, const struct rule_node *n)
{
	enum rule_kind kind = strcmp(n->keyword, "function") == 0 ? RULE_function
			      : strcmp(n->keyword, "loop") == 0   ? RULE_loop
								  : RULE_branch;
	struct rule_trace_rule *r = new_rule(dc, kind, n);
	struct cursor c = cursor_of(dc, n);

	r->target = kind == RULE_function ? RULE_TARGET_function : kind == RULE_loop ? RULE_TARGET_loop : RULE_TARGET_branch;
	if (peek(&c) && peek(&c)->kind == RV_REGEX) {
		r->match = take_regex(&c);
		if (kind != RULE_function)
			take_nth(&c, &r->nth); /* the N-th loop (arm) of a function body that matches */
	}
	if (at_word(&c, "calls")) {
		c.i++;
		r->calls = take_regex(&c);
	} else if (!r->match && !c.failed) {
		expected(&c, "a regular expression /.../ or 'calls'");
	}
	/* (a branch rule may time only the else arm: `branch /RE/ else "LABEL"`) */
	if (!(kind == RULE_branch && at_word(&c, "else")))
		r->label = take_label(&c);
	if (kind == RULE_branch && at_word(&c, "else")) {
		c.i++;
		r->else_label = take_label(&c);
	}
	take_args_clauses(&c, r);
	if (kind != RULE_function && at_word(&c, "whole")) {
		if (!r->label) {
			error_at(dc, c.n->args[c.i]->span, "a whole branch needs the label of its point (before 'else')");
			c.failed = true;
		}
		c.i++;
		r->whole = true;
		take_args_clauses(&c, r);
	}
	if (kind == RULE_function && at_word(&c, "opaque")) {
		c.i++;
		r->opaque = true;
		take_args_clauses(&c, r);
		if (at_word(&c, "steps")) {
			error_at(dc, c.n->args[c.i]->span,
				 "an opaque function has no steps: nothing inside it is planned (drop 'opaque' or 'steps')");
			c.failed = true;
		}
	} else if (kind == RULE_function && at_word(&c, "steps")) {
		c.i++;
		r->steps = take_label(&c);
		take_args_clauses(&c, r);
	}
	keep_rule(dc, &c);
}

static void d_wrap(struct decode *dc, const struct rule_node *n)
{
	struct rule_trace_rule *r = new_rule(dc, RULE_wrap, n);
	struct cursor c = cursor_of(dc, n);

	r->target = RULE_TARGET_call;
	if (take_keyword(&c, "call")) {
		r->match = take_regex(&c);
		take_nth(&c, &r->nth);
	}
	r->label = take_label(&c);
	take_args_clauses(&c, r);
	keep_rule(dc, &c);
}

static void d_region(struct decode *dc, const struct rule_node *n)
{
	struct rule_trace_rule *r = new_rule(dc, RULE_region, n);
	struct cursor c = cursor_of(dc, n);

	r->target = RULE_TARGET_call;
	if (at_word(&c, "after")) {
		/* from the statement after the call named (`after /^Gmm1\(/`) */
		c.i++;
		r->from_after = true;
		r->match = take_regex(&c);
		take_nth(&c, &r->nth);
	} else if (take_keyword(&c, "from")) {
		r->match = take_regex(&c);
		take_nth(&c, &r->nth);
	}
	if (take_keyword(&c, "to")) {
		if (at_word(&c, "end")) {
			c.i++;
			r->until_end = true; /* the end of the block (`do { ... } while (false)`) */
		} else {
			r->until = take_regex(&c);
			take_nth(&c, &r->until_nth);
		}
	}
	r->label = take_label(&c);
	take_args_clauses(&c, r);
	keep_rule(dc, &c);
}

static void d_hot(struct decode *dc, const struct rule_node *n)
{
	struct rule_trace_rule *r = new_rule(dc, RULE_hot, n);
	struct cursor c = cursor_of(dc, n);

	r->target = RULE_TARGET_call;
	r->match = take_regex(&c);
	take_nth(&c, &r->nth);
	if (!c.failed && peek(&c) && peek(&c)->kind == RV_STRING)
		r->label = take_label(&c);
	if (at_word(&c, "sync")) {
		c.i++;
		r->sync = true;
	}
	if (at_word(&c, "mark")) {
		/* a marker: B and E together before the call, the instant it starts */
		c.i++;
		r->mark = true;
	}
	keep_rule(dc, &c);
}

static void d_skip(struct decode *dc, const struct rule_node *n)
{
	struct rule_trace_rule *r = new_rule(dc, RULE_skip, n);
	struct cursor c = cursor_of(dc, n);
	int k = take_choice(&c, target_words, "skip target");

	r->target = k >= 0 ? (enum rule_target)k : RULE_TARGET_function;
	if (k >= 0)
		r->match = take_regex(&c);
	keep_rule(dc, &c);
}

static void d_merge(struct decode *dc, const struct rule_node *n)
{
	struct rule_trace_rule *r = new_rule(dc, RULE_merge, n);
	struct cursor c = cursor_of(dc, n);

	r->target = RULE_TARGET_function;
	if (take_keyword(&c, "function"))
		r->match = take_regex(&c);
	keep_rule(dc, &c);
}

/* transparent function|loop|branch /REGEX/: no point of its own, its code
 * planned as the code around it. */
static void d_transparent(struct decode *dc, const struct rule_node *n)
{
	static const char *const kinds[] = { "function", "loop", "branch", NULL };
	static const enum rule_target targets[] = { RULE_TARGET_function, RULE_TARGET_loop, RULE_TARGET_branch };
	struct rule_trace_rule *r = new_rule(dc, RULE_transparent, n);
	struct cursor c = cursor_of(dc, n);
	int k = take_choice(&c, kinds, "transparent target");

	r->target = k >= 0 ? targets[k] : RULE_TARGET_function;
	if (k >= 0)
		r->match = take_regex(&c);
	keep_rule(dc, &c);
}

static void decode_stmt(struct decode *dc, enum section sec, const struct rule_node *n);

/* in function|file /REGEX/ { trace rules }: the rules inside apply only to
 * the code of matching functions or files. */
static void d_in(struct decode *dc, const struct rule_node *n)
{
	static const char *const kinds[] = { "function", "file", NULL };
	struct cursor c = cursor_of(dc, n);
	int k = take_choice(&c, kinds, "scope kind");
	struct rule_regex *re = k >= 0 ? take_regex(&c) : NULL;
	struct rule_in *in;
	const struct rule_in *outer = dc->in;

	if (!finish(&c)) {
		rule_regex_free(re);
		return;
	}
	if (!n->is_block) {
		error_at(dc, after_prev(&c), "expected '{' after '%s': 'in' scopes a block of rules (%s)", prev_text(&c).s,
			 dc->def->synopsis);
		rule_regex_free(re);
		return;
	}
	in = xcalloc(1, sizeof(*in));
	in->target = k == 0 ? RULE_TARGET_function : RULE_TARGET_file;
	in->match = re;
	in->up = outer;
	in->loc = stmt_loc(dc, n);
	XGROW(dc->p->ins, dc->cap_ins, dc->p->nins + 1);
	dc->p->ins[dc->p->nins++] = in;
	dc->in = in;
	for (size_t i = 0; i < n->nchildren; i++) {
		const struct rule_node *ch = n->children[i];
		static const char *const settings[] = { "root", "depth", "density", "reset", NULL };
		bool setting = false;
		for (int s = 0; settings[s]; s++)
			setting |= strcmp(ch->keyword, settings[s]) == 0;
		if (setting) {
			error_at(dc, ch->kw_span, "'%s' applies to the whole trace and cannot be scoped: write it outside 'in'",
				 ch->keyword);
			continue;
		}
		decode_stmt(dc, SEC_trace, ch);
	}
	dc->in = outer;
}

static void d_reset(struct decode *dc, const struct rule_node *n)
{
	static const char *const kinds[] = {
		"all",
#define X(k) #k,
		RULE_KINDS(X)
#undef X
		NULL
	};
	struct cursor c = cursor_of(dc, n);
	int k = take_choice(&c, kinds, "rule kind");
	struct rule_policy *p = dc->p;
	size_t o = 0;

	if (k < 0 || !finish(&c))
		return;
	for (size_t i = 0; i < p->nrules; i++) {
		if (k == 0 || (int)p->rules[i].kind == k - 1)
			rule_trace_rule_clear(&p->rules[i]);
		else
			p->rules[o++] = p->rules[i];
	}
	p->nrules = o;
}

/* ---- gate ---- */

/* Each clause is optional (one at least, each once, in any order) and
 * replaces its own setting only; the tree is shell code once written into
 * the build script, so it is checked here. */
static void d_hook(struct decode *dc, const struct rule_node *n)
{
	static const char *const clauses[] = { "after", "before", "tree", NULL };
	struct cursor c = cursor_of(dc, n);
	struct rule_regex *after = NULL, *before = NULL;
	const char *tree = NULL;
	struct src_loc tree_loc;
	bool seen[3] = { false, false, false }, any = false;

	while (!c.failed && peek(&c) && !(peek(&c)->kind == RV_WORD && is_keyword(peek(&c)->text) &&
					  !at_word(&c, "after") && !at_word(&c, "before") && !at_word(&c, "tree"))) {
		const struct rule_value *kw = peek(&c);
		int k = take_choice(&c, clauses, "hook clause");
		if (k < 0)
			break;
		if (seen[k]) {
			error_at(dc, kw->span, "'%s' given twice in one hook statement", clauses[k]);
			c.failed = true;
			break;
		}
		seen[k] = any = true;
		if (k == 0)
			after = take_regex(&c);
		else if (k == 1)
			before = take_regex(&c);
		else if ((tree = take_string(&c, "the tree as the build script writes it", &tree_loc)) != NULL &&
			 sh_word_check_at(tree, tree_loc, true, dc->diag) != 0) {
			dc->errors++;
			c.failed = true;
		}
	}
	if (!any)
		expected(&c, "'after', 'before' or 'tree'");
	if (finish(&c) && once(dc, n)) {
		if (after) {
			rule_regex_free(dc->p->hook_after);
			dc->p->hook_after = after;
		}
		if (before) {
			rule_regex_free(dc->p->hook_before);
			dc->p->hook_before = before;
		}
		if (tree)
			rule_str_set(&dc->p->hook_tree, tree, tree_loc);
		return;
	}
	rule_regex_free(after);
	rule_regex_free(before);
}

static void d_gate_build(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	struct src_loc loc;
	const char *cmd = take_string(&c, "the build command string", &loc);

	if (cmd && finish(&c) && once(dc, n))
		rule_str_set(&dc->p->gate_build, cmd, loc);
}

/* ---- collect ---- */

static void d_layout(struct decode *dc, const struct rule_node *n)
{
	static const char *const layouts[] = { "auto", RULE_LAYOUT_NAMES, NULL };
	struct cursor c = cursor_of(dc, n);
	int k = take_choice(&c, layouts, "layout name");

	if (k >= 0 && finish(&c) && once(dc, n))
		dc->p->layout = k == 0 ? NULL : layouts[k];
}

static void d_clock(struct decode *dc, const struct rule_node *n)
{
	static const char *const units[] = { "Hz", "kHz", "MHz", "GHz", NULL };
	static const double scale[] = { 1, 1e3, 1e6, 1e9 };
	struct cursor c = cursor_of(dc, n);
	const struct rule_value *v = take(&c, RV_NUMBER, "a clock rate");
	int u = take_choice(&c, units, "clock unit");
	double hz;

	if (!v || u < 0 || !finish(&c))
		return;
	hz = v->number * scale[u];
	if (hz < 1 || hz > 1e12 || hz != floor(hz)) {
		error_at(dc, v->span, "the clock rate must be a whole number of Hz between 1 Hz and 1000 GHz");
		return;
	}
	if (once(dc, n))
		dc->p->clock_hz = (uint64_t)hz;
}

static void d_cores(struct decode *dc, const struct rule_node *n)
{
	static const char *const types[] = { "aic", "aiv", NULL };
	struct cursor c = cursor_of(dc, n);
	struct rule_core cores[2];
	size_t ncores = 0;

	do {
		long count;
		int t = take_choice(&c, types, "core type");
		if (t < 0 || !take_int(&c, "the core count", 1, 65536, &count))
			break;
		for (size_t i = 0; i < ncores; i++) {
			if (strcmp(cores[i].type, types[t]) == 0) {
				error_at(dc, c.n->args[c.i - 2]->span, "core type '%s' given twice", types[t]);
				c.failed = true;
			}
		}
		if (c.failed)
			break;
		cores[ncores].type = (char *)types[t];
		cores[ncores].count = (unsigned)count;
		ncores++;
	} while (ncores < 2 && take_comma(&c));
	if (!finish(&c) || !once(dc, n))
		return;
	for (size_t i = 0; i < dc->p->ncores; i++)
		free(dc->p->cores[i].type);
	dc->p->cores = xrealloc(dc->p->cores, ncores * sizeof(*dc->p->cores));
	for (size_t i = 0; i < ncores; i++) {
		dc->p->cores[i].type = xstrdup(cores[i].type);
		dc->p->cores[i].count = cores[i].count;
	}
	dc->p->ncores = ncores;
}

static void d_slot(struct decode *dc, const struct rule_node *n)
{
	struct cursor c = cursor_of(dc, n);
	long words;

	if (!take_int(&c, "the slot size in words", 8, 1L << 24, &words) || !finish(&c))
		return;
	if (words % 2) {
		error_at(dc, n->args[0]->span, "the slot size must be even (ids and cycles share it), found %ld", words);
		return;
	}
	if (once(dc, n))
		dc->p->slot_words = (unsigned)words;
}

/* ---- dispatch ---- */

static const struct stmt_def *lookup(enum section sec, const char *kw)
{
	for (size_t k = 0; k < NSTMTS; k++)
		if (stmt_defs[k].section == sec && strcmp(stmt_defs[k].keyword, kw) == 0)
			return &stmt_defs[k];
	return NULL;
}

static void unknown_statement(struct decode *dc, enum section sec, const struct rule_node *n)
{
	const char *names[NSTMTS];
	size_t nn = 0;
	const char *best;

	char where[160] = "";
	size_t wl = 0;
	int homes = 0;

	for (size_t k = 0; k < NSTMTS; k++) {
		if (stmt_defs[k].section == sec) {
			names[nn++] = stmt_defs[k].keyword;
		} else if (strcmp(stmt_defs[k].keyword, n->keyword) == 0) {
			if (stmt_defs[k].section == SEC_top) {
				error_at(dc, n->kw_span, "'%s' belongs at the top level, outside any section",
					 n->keyword);
				return;
			}
			wl += (size_t)snprintf(where + wl, sizeof(where) - wl, "%s'%s'", homes ? " or " : "",
					       section_names[stmt_defs[k].section]);
			homes++;
		}
	}
	if (homes) {
		error_at(dc, n->kw_span, "'%s' belongs in the %s section, not %s%s%s", n->keyword, where,
			 sec == SEC_top ? "at the " : "in '", section_names[sec], sec == SEC_top ? "" : "'");
		return;
	}
	if (sec == SEC_top) {
		for (int s = SEC_operator; s < SEC_COUNT; s++)
			names[nn++] = section_names[s];
	}
	best = suggest_closest(n->keyword, names, nn);
	if (best)
		error_at(dc, n->kw_span, "unknown statement '%s' (did you mean '%s'?)", n->keyword, best);
	else if (sec == SEC_top)
		error_at(dc, n->kw_span, "unknown statement '%s' at the top level (expected a section: operator, trace, gate, collect)",
			 n->keyword);
	else
		error_at(dc, n->kw_span, "unknown statement '%s' in section '%s'", n->keyword, section_names[sec]);
}

static void decode_stmt(struct decode *dc, enum section sec, const struct rule_node *n)
{
	const struct stmt_def *def = lookup(sec, n->keyword);

	if (!def) {
		unknown_statement(dc, sec, n);
		return;
	}
	if (n->is_block && def->fn != d_in) {
		/* `rule ... <newline> in function /x/ {`: the ';' was forgotten */
		for (size_t i = 1; i < n->nargs; i++)
			if (n->args[i]->kind == RV_WORD && strcmp(n->args[i]->text, "in") == 0) {
				struct rules_span at = { n->args[i - 1]->span.end, n->args[i - 1]->span.end };
				error_at(dc, at, "expected ';' after '%.*s'",
					 (int)(n->args[i - 1]->span.end - n->args[i - 1]->span.start),
					 dc->file->data + n->args[i - 1]->span.start);
				return;
			}
		error_at(dc, n->kw_span, "'%s' takes no block of rules: end it with ';' (%s)", n->keyword, def->synopsis);
		return;
	}
	dc->def = def;
	def->fn(dc, n);
}

static void decode_section(struct decode *dc, const struct rule_node *n)
{
	int sec = -1;
	const char *names[SEC_COUNT - 1];
	const char *best;

	for (int s = SEC_operator; s < SEC_COUNT; s++) {
		names[s - 1] = section_names[s];
		if (strcmp(section_names[s], n->keyword) == 0)
			sec = s;
	}
	if (sec < 0) {
		best = suggest_closest(n->keyword, names, SEC_COUNT - 1);
		if (best)
			error_at(dc, n->kw_span, "unknown section '%s' (did you mean '%s'?)", n->keyword, best);
		else
			error_at(dc, n->kw_span, "unknown section '%s' (sections: operator, trace, gate, collect)",
				 n->keyword);
		return;
	}
	if (!first_in_file(dc, section_names[sec], SEC_top, span_loc(dc, n->kw_span), "section"))
		return;
	for (size_t i = 0; i < n->nchildren; i++)
		decode_stmt(dc, (enum section)sec, n->children[i]);
}

unsigned rule_decode(struct rule_policy *policy, const struct src_file *file, const struct rule_node *root,
		     struct diag *diag, rule_include_fn include, void *include_ctx)
{
	struct decode dc;

	memset(&dc, 0, sizeof(dc));
	dc.p = policy;
	dc.file = file;
	dc.diag = diag;
	dc.include = include;
	dc.include_ctx = include_ctx;
	for (size_t i = 0; i < root->nchildren; i++) {
		const struct rule_node *n = root->children[i];
		if (n->is_section)
			decode_section(&dc, n);
		else
			decode_stmt(&dc, SEC_top, n);
	}
	free(dc.seen);
	return dc.errors;
}
