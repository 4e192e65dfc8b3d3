/* wire's plan over one loaded project: every layer's edits, in memory,
 * nothing written. `autotrace wire` writes the plan; gate offers
 * `autotrace wire` as the fix of the findings in the files the plan changes
 * (wire_fixes.c). */
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "xalloc.h"

int wire_plan(struct wire *w, struct project_model *p, const char *opdir, struct diag *diag, struct wire_result **res,
	      size_t *nres)
{
	memset(w, 0, sizeof(*w));
	*res = NULL;
	*nres = 0;
	w->p = p;
	w->opdir = opdir;
	w->prof = p->profiling;
	w->prof_camel = project_camel(p->profiling);
	w->required = p->required;
	w->runtime_path = wire_runtime_default();
	w->diag = diag;
	w->fn_main = -1;

	wire_opdef(w);
	wire_infer(w);
	wire_graph(w);
	wire_kernel(w);
	wire_base(w);
	wire_aclnn(w);
	wire_pybind(w);
	wire_decls(w);
	wire_launch(w);
	wire_fakes(w);
	wire_samples(w);
	wire_callers(w);

	for (size_t i = 0; i < w->nfiles; i++) {
		struct wire_result r = { &w->files[i], NULL, 0 };
		if (w->files[i].n == 0)
			continue;
		if (wire_file_result(w, &w->files[i], &r.text, &r.len) != 0) {
			wire_results_free(*res, *nres);
			*res = NULL;
			*nres = 0;
			return -1;
		}
		if (!w->files[i].create && r.len == w->files[i].f->len && memcmp(r.text, w->files[i].f->data, r.len) == 0) {
			free(r.text);
			continue;
		}
		*res = xrealloc(*res, (*nres + 1) * sizeof(**res));
		(*res)[(*nres)++] = r;
	}
	return 0;
}

void wire_results_free(struct wire_result *res, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(res[i].text);
	free(res);
}
