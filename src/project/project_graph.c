/* Reader of REG_OP graph prototypes: see project_graph.h. */
#define _GNU_SOURCE /* memmem(3) */
#include <stdlib.h>
#include <string.h>

#include "project_graph.h"
#include "project_tokens.h"
#include "xalloc.h"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Where the call [start, end) sits on its line: first on it, what follows it. */
static void place(const char *data, size_t len, struct graph_io *io)
{
	uint32_t s = io->start, e = io->end;

	while (s > 0 && (data[s - 1] == ' ' || data[s - 1] == '\t'))
		s--;
	io->line_first = s == 0 || data[s - 1] == '\n';
	io->indent_start = s;
	while (e < len && (data[e] == ' ' || data[e] == '\t' || data[e] == '\r'))
		e++;
	if (e + 1 < len && data[e] == '/' && data[e + 1] == '/')
		while (e < len && data[e] != '\n')
			e++;
	io->rest_blank = e == len || data[e] == '\n';
	while (e < len && data[e] != '\n')
		e++;
	io->line_end = e < len ? e + 1 : (uint32_t)len;
}

/* The chain of `.METHOD(...)` calls after REG_OP(name), from token i. */
static void read_chain(const struct tok_view *tv, size_t i, struct graph_op *op)
{
	size_t cap = 0;

	while (i + 2 < tv->n && tv_punct(tv, i, CXX_P_DOT) && tv_ident(tv, i + 1) && tv_punct(tv, i + 2, CXX_P_LPAREN) &&
	       tv->match[i + 2] != TV_NONE) {
		size_t close = tv->match[i + 2], *st = NULL, *en = NULL, nargs;
		char *method = tv_tok_text(tv, i + 1, false);
		bool in = ends_with(method, "INPUT"), out = ends_with(method, "OUTPUT");

		if (strcmp(method, "OP_END_FACTORY_REG") == 0) {
			free(method);
			break;
		}
		nargs = tv_split_args(tv, i + 2, &st, &en);
		if ((in || out) && nargs >= 1 && en[0] == st[0] + 1 && tv_ident(tv, st[0])) {
			struct graph_io *io;
			XGROW(op->io, cap, op->nio + 1);
			io = &op->io[op->nio];
			memset(io, 0, sizeof(*io));
			io->kind = method;
			method = NULL;
			io->output = out;
			io->name = tv_tok_text(tv, st[0], false);
			io->type = nargs >= 2 ? tv_text(tv, st[1], en[1]) : xstrdup("");
			io->start = tv->v[i].start;
			io->end = tv->v[close].end;
			place(tv->data, tv->len, io);
			if (out) {
				op->last_output = (long)op->nio;
				op->noutputs++;
			} else {
				op->last_input = (long)op->nio;
				op->ninputs++;
			}
			op->nio++;
		}
		free(method);
		free(st);
		free(en);
		i = close + 1;
	}
}

void project_graph(const char *data, size_t len, struct graph_file *out)
{
	struct tok_view tv;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (!memmem(data, len, "REG_OP", 6))
		return;
	tok_view_init(&tv, data, len);
	for (size_t i = 0; i + 3 < tv.n; i++) {
		struct graph_op *op;
		if (!tv_is(&tv, i, "REG_OP") || !tv_punct(&tv, i + 1, CXX_P_LPAREN) || !tv_ident(&tv, i + 2) ||
		    !tv_punct(&tv, i + 3, CXX_P_RPAREN))
			continue;
		XGROW(out->ops, cap, out->nops + 1);
		op = &out->ops[out->nops++];
		memset(op, 0, sizeof(*op));
		op->name = tv_tok_text(&tv, i + 2, false);
		op->name_start = tv.v[i + 2].start;
		op->name_end = tv.v[i + 2].end;
		op->last_output = op->last_input = -1;
		read_chain(&tv, i + 4, op);
		i += 3;
	}
	tok_view_release(&tv);
}

void graph_file_release(struct graph_file *g)
{
	for (size_t o = 0; o < g->nops; o++) {
		for (size_t k = 0; k < g->ops[o].nio; k++) {
			free(g->ops[o].io[k].kind);
			free(g->ops[o].io[k].name);
			free(g->ops[o].io[k].type);
		}
		free(g->ops[o].io);
		free(g->ops[o].name);
	}
	free(g->ops);
	memset(g, 0, sizeof(*g));
}

const struct graph_op *graph_find(const struct graph_file *g, const char *name)
{
	for (size_t o = 0; o < g->nops; o++)
		if (strcmp(g->ops[o].name, name) == 0)
			return &g->ops[o];
	return NULL;
}

long graph_prof_io(const struct graph_op *op, const char *prof, size_t *outputs_before)
{
	*outputs_before = 0;
	for (size_t k = 0; k < op->nio; k++) {
		if (tv_names_profiling(op->io[k].name, prof))
			return (long)k;
		*outputs_before += op->io[k].output;
	}
	return -1;
}

long graph_output(const struct graph_op *op, size_t k)
{
	for (size_t i = 0; i < op->nio; i++)
		if (op->io[i].output && k-- == 0)
			return (long)i;
	return -1;
}
