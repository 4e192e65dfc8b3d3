/* Fuzz target for the Python scanner (py_scan.c) and the G4/G5 recognisers
 * that walk its output (the rank and world size of project_py_rank.c too): every input is scanned and every call, assignment
 * and statement is visited; nothing may read outside the input. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "project_py.h"
#include "py_scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct py_module *m;
	size_t nopt;
	struct project_py_option *opts;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	m = py_scan(text, size);
	for (size_t i = 0; i < m->ncalls; i++) {
		const struct py_call *c = &m->calls[i];
		struct project_py_value v;
		if (project_py_rank(m, m->stmts[c->stmt].func, c->range.start, "args", &v))
			project_py_value_release(&v);
		if (project_py_world_size(m, m->stmts[c->stmt].func, c->range.start, NULL, &v))
			project_py_value_release(&v);
		(void)project_py_is_spawn(c);
		(void)project_py_is_collector(m, c);
		(void)project_py_spawn_nojoin(m, c);
		for (size_t a = 0; a < c->nargs; a++) {
			char *s = py_string_value(m, c->args[a].tok_start);
			free(s);
			(void)project_py_abs_expr(m, c->args[a].tok_start, c->args[a].tok_end);
		}
	}
	for (size_t i = 0; i < m->nassigns; i++)
		(void)py_text(m, m->assigns[i].value_tok_start, m->assigns[i].value_tok_end);
	for (size_t i = 0; i + 1 < m->nstmts; i++) {
		(void)py_dominates(m, (int)i, (int)(i + 1));
		(void)project_py_top(m, (int)i);
	}
	opts = project_py_options(m, &nopt);
	project_py_options_free(opts, nopt);
	py_module_free(m);
	free(text);
	return 0;
}
