/* Findings of the gates and what each gate came to. */
#include "gate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate_out.h"
#include "gate_run.h"
#include "strbuf.h"
#include "xalloc.h"

static const char *const gate_names[GATE_COUNT] = {
#define X(e, check, id, phase, title, help) id,
	GATE_LIST(X)
#undef X
};

static const char *const gate_titles[GATE_COUNT] = {
#define X(e, check, id, phase, title, help) title,
	GATE_LIST(X)
#undef X
};

static const enum gate_id rule_gates[GATE_RULE_COUNT] = {
#define X(e, g, id, desc, help) GATE_##g,
	GATE_RULE_LIST(X)
#undef X
};

static const char *const rule_ids[GATE_RULE_COUNT] = {
#define X(e, g, id, desc, help) id,
	GATE_RULE_LIST(X)
#undef X
};

static const char *const rule_descs[GATE_RULE_COUNT] = {
#define X(e, g, id, desc, help) desc,
	GATE_RULE_LIST(X)
#undef X
};

const char *gate_name(enum gate_id g) { return gate_names[g]; }
const char *gate_title(enum gate_id g) { return gate_titles[g]; }
enum gate_id gate_rule_gate(enum gate_rule rule) { return rule_gates[rule]; }
const char *gate_rule_id(enum gate_rule rule) { return rule_ids[rule]; }
static const char *const rule_helps[GATE_RULE_COUNT] = {
#define X(e, g, id, desc, help) help,
	GATE_RULE_LIST(X)
#undef X
};

const char *gate_rule_description(enum gate_rule rule) { return rule_descs[rule]; }
const char *gate_rule_help(enum gate_rule rule) { return rule_helps[rule]; }

const char *gate_status_name(enum gate_status s)
{
	switch (s) {
	case GATE_PASSED:
		return "passed";
	case GATE_FAILED:
		return "failed";
	case GATE_SKIPPED:
		return "skipped";
	}
	return "failed";
}

struct gate_report *gate_report_new(const char *opdir)
{
	struct gate_report *r = xcalloc(1, sizeof(*r));

	r->opdir = xstrdup(opdir);
	for (int g = 0; g < GATE_COUNT; g++)
		r->gates[g].run = true;
	return r;
}

void gate_report_set_anchor(struct gate_report *r, const char *path)
{
	free(r->anchor);
	r->anchor = path ? xstrdup(path) : NULL;
}

void gate_report_set_root(struct gate_report *r, const char *abs)
{
	free(r->root);
	r->root = abs ? xstrdup(abs) : NULL;
}

void gate_loc_release(struct gate_loc *l)
{
	free(l->path);
	free(l->src_line);
}

void gate_report_free(struct gate_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		struct gate_finding *f = &r->v[i];
		gate_loc_release(&f->loc);
		gate_loc_release(&f->related);
		free(f->message);
		free(f->hint);
		free(f->fix);
		free(f->related_message);
	}
	for (int g = 0; g < GATE_COUNT; g++)
		free(r->gates[g].note);
	free(r->v);
	free(r->opdir);
	free(r->anchor);
	free(r->root);
	free(r);
}

struct gate_loc gate_loc_at(const struct src_file *f, uint32_t start, uint32_t end)
{
	struct gate_loc l = { 0 };
	size_t line = src_file_line(f, start);
	uint32_t ls = src_file_line_start(f, line);
	size_t llen = src_file_line_length(f, line);
	size_t c1, c2;

	if (start > f->len)
		start = (uint32_t)f->len;
	l.path = xstrdup(f->path);
	l.line = line;
	l.col = src_file_column(f, start);
	if (end > ls + llen)
		end = ls + (uint32_t)llen;
	c1 = l.col;
	c2 = end > start ? src_file_column(f, end) : c1 + 1;
	l.caret_len = c2 > c1 ? c2 - c1 : 1;
	{
		/* the line as diag shows it: a long one cut around the column */
		struct diag_window w = diag_source_window(f, ls, ls + (uint32_t)llen, start);
		struct strbuf b = { 0 };
		size_t cut = w.cut_left ? sizeof(DIAG_CUT) - 1 : 0, lim = w.to;
		if (w.cut_left)
			strbuf_puts(&b, DIAG_CUT);
		strbuf_put(&b, f->data + w.from, w.to - w.from);
		if (w.cut_right)
			strbuf_puts(&b, DIAG_CUT);
		l.src_line = strbuf_take(&b);
		l.src_col = cut + 1;
		for (uint32_t i = w.from; i < start && i < lim; i++)
			l.src_col += ((unsigned char)f->data[i] & 0xC0) != 0x80;
		l.src_len = 1;
		for (uint32_t i = start + 1; i < end && i < lim; i++)
			l.src_len += ((unsigned char)f->data[i] & 0xC0) != 0x80;
	}
	return l;
}

struct gate_loc gate_loc_path(const char *path, size_t line, size_t col)
{
	struct gate_loc l = { 0 };

	l.path = path ? xstrdup(path) : NULL;
	l.line = line;
	l.col = col;
	l.caret_len = 1;
	return l;
}

static char *vformat(const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	char *s;

	va_copy(aq, ap);
	{
		char one;
		n = vsnprintf(&one, 1, fmt, aq);
	}
	va_end(aq);
	s = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap);
	return s;
}

struct gate_finding *gate_add(struct gate_report *r, enum gate_rule rule, enum diag_level level, struct gate_loc loc,
			      const char *hint, const char *fmt, ...)
{
	struct gate_finding *f;
	va_list ap;

	XGROW(r->v, r->cap, r->n + 1);
	f = &r->v[r->n++];
	memset(f, 0, sizeof(*f));
	f->rule = rule;
	f->level = level;
	f->loc = loc;
	f->hint = hint ? xstrdup(hint) : NULL;
	va_start(ap, fmt);
	f->message = vformat(fmt, ap);
	va_end(ap);
	return f;
}

void gate_set_fix(struct gate_finding *f, const char *command)
{
	free(f->fix);
	f->fix = command ? xstrdup(command) : NULL;
}

void gate_relate(struct gate_finding *f, struct gate_loc loc, const char *fmt, ...)
{
	va_list ap;

	gate_loc_release(&f->related);
	free(f->related_message);
	f->related = loc;
	va_start(ap, fmt);
	f->related_message = vformat(fmt, ap);
	va_end(ap);
}

static void capture_sink(void *ctx, const struct diag_msg *m)
{
	struct gate_diag_capture *cap = ctx;
	struct gate_loc loc;

	/* a note with no place of its own, right after an error, is the next step
	   the shared check gives for that error */
	if (m->level == DIAG_NOTE && !m->loc.file && !m->path && cap->last &&
	    cap->report->v[cap->last - 1].level == DIAG_ERROR) {
		struct gate_finding *f = &cap->report->v[cap->last - 1];
		if (strncmp(m->text, "run: ", 5) == 0) {
			gate_set_fix(f, m->text + 5);
		} else {
			free(f->hint);
			f->hint = xstrdup(m->text);
			gate_set_fix(f, NULL);
		}
		cap->last = 0;
		return;
	}
	if (m->loc.file)
		loc = gate_loc_at(m->loc.file, m->loc.start, m->loc.end);
	else
		loc = gate_loc_path(m->path, m->line, m->col);
	gate_set_fix(gate_add(cap->report, cap->rule, m->level, loc, cap->hint, "%s", m->text), cap->fix);
	cap->last = cap->report->n;
}

void gate_diag_capture(struct diag *d, struct gate_diag_capture *cap)
{
	diag_init(d, NULL, false);
	d->sink = capture_sink;
	d->sink_ctx = cap;
}

bool gate_finding_about_sources(const struct gate_finding *f)
{
	return f->level == DIAG_ERROR && f->rule != GATE_RULE_G1_TOOL;
}

unsigned gate_errors(const struct gate_report *r, enum gate_id g)
{
	unsigned n = 0;

	for (size_t i = 0; i < r->n; i++)
		if (gate_rule_gate(r->v[i].rule) == g && r->v[i].level == DIAG_ERROR)
			n++;
	return n;
}

void gate_settle(struct gate_report *r)
{
	for (int g = 0; g < GATE_COUNT; g++) {
		if (!r->gates[g].run)
			r->gates[g].status = GATE_SKIPPED;
		else
			r->gates[g].status = gate_errors(r, (enum gate_id)g) ? GATE_FAILED : GATE_PASSED;
	}
}

struct gate_counts gate_counts_text(const struct gate_report *r, enum gate_id g)
{
	struct gate_counts c;
	unsigned e = 0, w = 0;

	for (size_t i = 0; i < r->n; i++) {
		if (gate_rule_gate(r->v[i].rule) != g)
			continue;
		if (r->v[i].level == DIAG_ERROR)
			e++;
		else if (r->v[i].level == DIAG_WARNING)
			w++;
	}
	c.s[0] = '\0';
	if (e && w)
		snprintf(c.s, sizeof(c.s), "%u error%s, %u warning%s", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s");
	else if (e)
		snprintf(c.s, sizeof(c.s), "%u error%s", e, e == 1 ? "" : "s");
	else if (w)
		snprintf(c.s, sizeof(c.s), "%u warning%s", w, w == 1 ? "" : "s");
	return c;
}

bool gate_report_passed(const struct gate_report *r)
{
	for (int g = 0; g < GATE_COUNT; g++)
		if (r->gates[g].status == GATE_FAILED)
			return false;
	return true;
}

struct gate_loc gate_anchor_loc(const struct project_model *p, enum project_anchor_kind kind)
{
	const struct src_file *f;
	uint32_t s, e;

	if (project_op_anchor(p, kind, &f, &s, &e))
		return gate_loc_at(f, s, e);
	return gate_loc_path(NULL, 0, 0);
}
