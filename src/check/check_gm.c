/* The kernel's GM parameters against the op_host OpDef: the `__global__`
 * function takes one GM_ADDR per `this->Input("x")` and `this->Output("y")`,
 * in the same order, followed by the framework's workspace and tiling.
 * The count and the order are checked; a name that differs is a warning.
 * The declarations are read from the rules' `host` files by the OpDef reader
 * gate G2 uses (project_opdef.h), so that check and G2 see the same inputs and
 * outputs. Names compare without case and underscores (`expert_ids` =
 * `expertIds`). A GM parameter for the profiling output that op_host does
 * not declare is not counted.
 *
 * Which kernels answer to the OpDef: where the sources define several
 * `__global__` functions and one is named as the OpDef's snake_case
 * (`prompt_flash_attention` for PromptFlashAttention), that one; the others
 * are kernels of other operators built from the same file (a `_FIAS`
 * variant) or device helpers it calls. A kernel that a host file launches
 * itself (EXEC_KERNEL_CMD, ACLRT_LAUNCH_KERNEL, <<<>>>) takes the launch's
 * arguments, not the OpDef's: the OpDef describes the tiling context only,
 * and G2 compares the launch with the kernel. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_trace.h"
#include "project_launch.h"
#include "project_opdef.h"
#include "project_tokens.h"
#include "path_glob.h"
#include "xalloc.h"

struct host_io {
	const struct src_file *file;
	struct cxx_range name;  /* the string literal */
	char *value;
	bool output;
	size_t order;           /* position among all declarations read */
};

struct host_decls {
	struct src_file **files;
	size_t nfiles;
	struct host_io *v;
	size_t n, cap;
};

static bool same_name(const char *a, size_t alen, const char *b, size_t blen)
{
	size_t i = 0, j = 0;

	for (;;) {
		while (i < alen && a[i] == '_')
			i++;
		while (j < blen && b[j] == '_')
			j++;
		if (i == alen || j == blen)
			return i == alen && j == blen;
		if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[j]))
			return false;
		i++;
		j++;
	}
}

/* The Input("name") and Output("name") of every OpDef in the file (of OpDef
 * class `op` only, when not NULL), in order. */
static void read_host_file(struct host_decls *h, struct src_file *f, const char *op)
{
	struct opdef_file od;

	project_opdef(f->data, f->len, &od);
	for (size_t o = 0; o < od.nops; o++)
		for (size_t k = 0; k < od.ops[o].nparams && (!op || strcmp(od.ops[o].name, op) == 0); k++) {
			const struct opdef_param *q = &od.ops[o].params[k];
			XGROW(h->v, h->cap, h->n + 1);
			h->v[h->n].file = f;
			h->v[h->n].name.start = q->name_lit.start;
			h->v[h->n].name.end = q->name_lit.end;
			h->v[h->n].value = xstrdup(q->name);
			h->v[h->n].output = q->output;
			h->v[h->n].order = h->n;
			h->n++;
		}
	opdef_file_release(&od);
}

/* Inputs first, then outputs, each in declaration order (OpDef order). */
static int cmp_io(const void *a, const void *b)
{
	const struct host_io *x = a, *y = b;

	if (x->output != y->output)
		return x->output ? 1 : -1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Whether a GM parameter other than the one at `skip` is named `name`. */
static bool named_by_param(const struct cxx_param *const *gm, size_t n, size_t skip, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (i != skip && same_name(gm[i]->name, strlen(gm[i]->name), name, strlen(name)))
			return true;
	return false;
}

static bool gm_param(const struct cxx_param *p)
{
	return p->name && p->type && (strstr(p->type, "GM_ADDR") || strstr(p->type, "__gm__"));
}

static bool framework_param(const char *name)
{
	char low[64];
	size_t n = 0;

	for (; *name && n + 1 < sizeof(low); name++)
		if (*name != '_')
			low[n++] = (char)tolower((unsigned char)*name);
	low[n] = '\0';
	return strstr(low, "workspace") || strstr(low, "tiling");
}

/* `prof`: the profiling output's name when op_host does not declare it (a
 * direct launch: the OpDef describes the tiling context), so that the
 * kernel's parameter for it is no extra tensor; NULL otherwise. */
static unsigned check_kernel(const struct cxx_outline *ol, const struct cxx_func *fn, const struct host_decls *h,
			     const char *prof, struct diag *diag)
{
	const struct cxx_param **gm = xcalloc(fn->nparams + 1, sizeof(*gm));
	size_t n = 0, k;
	unsigned errors = 0;
	bool renamed = false;

	for (k = 0; k < fn->nparams; k++)
		if (gm_param(&fn->params[k]) && !(prof && tv_names_profiling(fn->params[k].name, prof)))
			gm[n++] = &fn->params[k];
	while (n > 0 && framework_param(gm[n - 1]->name))
		n--;
	/* Real projects rename (gmm1_permuted_weight for gmm1_weight; x, y, z
	 * for x1, x2, y): what must hold is the count and the order. Two
	 * declarations both named by parameters, each at the other's place, are
	 * out of order (an error); any other difference is a rename (a warning,
	 * once per kernel). */
	for (k = 0; k < n && k < h->n; k++) {
		const struct host_io *io = &h->v[k];
		size_t j;
		if (same_name(gm[k]->name, strlen(gm[k]->name), io->value, strlen(io->value)))
			continue;
		for (j = 0; j < h->n; j++)
			if (j != k && same_name(gm[k]->name, strlen(gm[k]->name), h->v[j].value, strlen(h->v[j].value)))
				break;
		if (j < h->n && !named_by_param(gm, n, k, io->value))
			j = h->n;
		if (j < h->n) {
			errors++;
			diag_at(diag, DIAG_ERROR, src_loc_make(ol->file, gm[k]->range.start, gm[k]->range.end),
				"GM parameter %zu of kernel '%s' is '%s' where op_host declares %s '%s'", k + 1, fn->name,
				gm[k]->name, io->output ? "output" : "input", io->value);
			diag_at(diag, DIAG_NOTE, src_loc_make(io->file, io->name.start, io->name.end),
				"'%s' is declared here; '%s' is declaration %zu", io->value, h->v[j].value, j + 1);
			goto out;
		}
		if (!renamed) {
			renamed = true;
			diag_at(diag, DIAG_WARNING, src_loc_make(ol->file, gm[k]->range.start, gm[k]->range.end),
				"GM parameter %zu of kernel '%s' is '%s' where op_host declares %s '%s' (a rename? only the "
				"count and the order of the parameters are checked)",
				k + 1, fn->name, gm[k]->name, io->output ? "output" : "input", io->value);
			diag_at(diag, DIAG_NOTE, src_loc_make(io->file, io->name.start, io->name.end), "'%s' is declared here",
				io->value);
		}
	}
	if (n < h->n) {
		const struct host_io *io = &h->v[n];
		errors++;
		diag_at(diag, DIAG_ERROR, src_loc_make(ol->file, fn->params_range.start, fn->params_range.end),
			"kernel '%s' has %zu GM parameters for inputs and outputs, op_host declares %zu: none for %s '%s'",
			fn->name, n, h->n, io->output ? "output" : "input", io->value);
		diag_at(diag, DIAG_NOTE, src_loc_make(io->file, io->name.start, io->name.end), "'%s' is declared here",
			io->value);
	} else if (n > h->n) {
		errors++;
		diag_at(diag, DIAG_ERROR, src_loc_make(ol->file, gm[h->n]->range.start, gm[h->n]->range.end),
			"kernel '%s' has %zu GM parameters for inputs and outputs, op_host declares %zu: '%s' is extra",
			fn->name, n, h->n, gm[h->n]->name);
	}
out:
	free(gm);
	return errors;
}

static bool body_kernel(const struct cxx_func *fn)
{
	return fn->kernel && fn->def == CXX_DEF_BODY;
}

/* The kernels a host file launches itself (see the top of the file). */
static void read_launched(const struct host_decls *h, struct cxx_outline *const *kernels, size_t nkernels,
			  const char *prof, struct project_launch *l)
{
	char **names = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < nkernels; i++)
		for (size_t k = 0; k < kernels[i]->nfuncs; k++)
			if (body_kernel(&kernels[i]->funcs[k])) {
				XGROW(names, cap, n + 1);
				names[n++] = xstrdup(kernels[i]->funcs[k].name);
			}
	project_launch_read_files(l, h->files, h->nfiles, names, n, prof ? prof : "profiling_data");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool launched(const struct project_launch *l, const char *name)
{
	for (size_t f = 0; f < l->nfiles; f++)
		for (size_t s = 0; s < l->files[f].nsites; s++)
			if (strcmp(l->files[f].sites[s].kernel, name) == 0)
				return true;
	return false;
}

static unsigned check_kernels(struct cxx_outline *const *kernels, size_t nkernels, const struct host_decls *h,
			      const char *op, const char *prof, struct diag *diag)
{
	struct project_launch l;
	char *snake = op ? project_snake(op) : NULL;
	size_t nbody = 0, named = 0;
	unsigned errors = 0;

	for (size_t i = 0; i < nkernels; i++)
		for (size_t k = 0; k < kernels[i]->nfuncs; k++)
			if (body_kernel(&kernels[i]->funcs[k])) {
				nbody++;
				named += snake && strcmp(kernels[i]->funcs[k].name, snake) == 0;
			}
	read_launched(h, kernels, nkernels, prof, &l);
	for (size_t i = 0; i < nkernels; i++)
		for (size_t k = 0; k < kernels[i]->nfuncs; k++) {
			const struct cxx_func *fn = &kernels[i]->funcs[k];
			if (!body_kernel(fn) || (nbody > 1 && named > 0 && strcmp(fn->name, snake) != 0) ||
			    launched(&l, fn->name))
				continue;
			errors += check_kernel(kernels[i], fn, h, prof, diag);
		}
	project_launch_release(&l);
	free(snake);
	return errors;
}

unsigned check_gm_params(const char *opdir, const struct rule_policy *p, const char *op,
			 struct cxx_outline *const *kernels, size_t nkernels, struct diag *diag)
{
	struct host_decls h;
	char **found = NULL;
	size_t nfound = 0;
	unsigned errors = 0;
	const char *prof = p->profiling.value ? p->profiling.value : "profiling_data";

	memset(&h, 0, sizeof(h));
	if (nkernels == 0 || p->host.n == 0 || path_glob(opdir, p->host.v, p->host.n, &found, &nfound, diag) != 0)
		return 0;
	h.files = xcalloc(nfound + 1, sizeof(*h.files));
	for (size_t i = 0; i < nfound; i++) {
		char *path = path_join(opdir, found[i]);
		struct src_file *f = src_file_load(path);
		if (!f) {
			diag_plain(diag, DIAG_WARNING, "cannot read op_host file '%s': %s", path, strerror(errno));
			free(path);
			continue;
		}
		free(path);
		h.files[h.nfiles++] = f;
		read_host_file(&h, f, op);
	}
	if (h.n > 1)
		xqsort(h.v, h.n, sizeof(*h.v), cmp_io);
	for (size_t i = 0; i < h.n && prof; i++)
		if (tv_names_profiling(h.v[i].value, prof))
			prof = NULL;
	if (h.n > 0)
		errors = check_kernels(kernels, nkernels, &h, op, prof, diag);
	for (size_t i = 0; i < h.n; i++)
		free(h.v[i].value);
	free(h.v);
	for (size_t i = 0; i < h.nfiles; i++)
		src_file_free(h.files[i]);
	free(h.files);
	path_glob_free(found, nfound);
	return errors;
}
