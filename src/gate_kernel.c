/* __global__ entries, their Init call and the Init definition, from the outline. */
#include "gate_kernel.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cxx_scan.h"
#include "path_glob.h"
#include "xalloc.h"

static struct gate_kparam *copy_params(const struct cxx_func *fn, size_t *n)
{
	struct gate_kparam *v = fn->nparams ? xcalloc(fn->nparams, sizeof(*v)) : NULL;

	for (size_t i = 0; i < fn->nparams; i++) {
		v[i].type = xstrdup(fn->params[i].type ? fn->params[i].type : "");
		v[i].name = fn->params[i].name ? xstrdup(fn->params[i].name) : NULL;
		v[i].start = fn->params[i].range.start;
		v[i].end = fn->params[i].range.end;
	}
	*n = fn->nparams;
	return v;
}

static void free_params(struct gate_kparam *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].type);
		free(v[i].name);
	}
	free(v);
}

static void take_init_call(struct gate_kentry *e, const struct cxx_func *fn)
{
	for (size_t c = 0; c < fn->body.ncalls; c++) {
		const struct cxx_call *call = &fn->body.calls[c];
		if (strcmp(call->name, "Init") != 0)
			continue;
		e->has_init = true;
		e->init_object = call->object ? xstrdup(call->object) : NULL;
		e->ninit_args = call->nargs;
		e->init_args = call->nargs ? xmalloc(call->nargs * sizeof(*e->init_args)) : NULL;
		e->init_arg_start = call->nargs ? xmalloc(call->nargs * sizeof(uint32_t)) : NULL;
		e->init_arg_end = call->nargs ? xmalloc(call->nargs * sizeof(uint32_t)) : NULL;
		for (size_t a = 0; a < call->nargs; a++) {
			e->init_args[a] = xstrdup(call->args[a]);
			e->init_arg_start[a] = call->arg_ranges[a].start;
			e->init_arg_end[a] = call->arg_ranges[a].end;
		}
		e->init_start = call->range.start;
		e->init_end = call->range.end;
		e->init_args_start = call->args_range.start;
		e->init_args_end = call->args_range.end;
		return;
	}
}

int gate_kernels_read(const char *kernel_root, struct gate_kernels *out, struct diag *diag)
{
	struct cxx_scan_opts so;
	struct cxx_scan *scan;
	struct cxx_unit *u, **units = NULL;
	size_t nunits = 0;
	struct diag quiet;
	FILE *null = fopen("/dev/null", "w");
	struct stat st;

	memset(out, 0, sizeof(*out));
	memset(&so, 0, sizeof(so));
	so.root = kernel_root;
	diag_init(&quiet, null ? null : stderr, false);
	if (stat(kernel_root, &st) != 0 || !S_ISDIR(st.st_mode)) {
		diag_plain(diag, DIAG_ERROR, "the kernel directory %s cannot be read", kernel_root);
		if (null)
			fclose(null);
		return -1;
	}
	/* includes the scanner cannot find are the toolchain's: no warnings */
	scan = cxx_scan_new(&so, &quiet);
	if (!scan || cxx_scan_add(scan, kernel_root) != 0) {
		cxx_scan_free(scan);
		if (null)
			fclose(null);
		return -1;
	}
	while ((u = cxx_scan_next(scan)) != NULL) {
		char *p = path_join(kernel_root, u->path);
		free(u->file->path);
		u->file->path = p;
		units = xrealloc(units, (nunits + 1) * sizeof(*units));
		units[nunits++] = u;
	}
	cxx_scan_free(scan);
	if (null)
		fclose(null);
	out->nsources = nunits;
	for (size_t i = 0; i < nunits; i++) {
		const struct cxx_outline *ol = units[i]->outline;
		for (size_t f = 0; f < ol->nfuncs; f++) {
			const struct cxx_func *fn = &ol->funcs[f];
			struct gate_kentry e;
			if (!fn->kernel || fn->def != CXX_DEF_BODY)
				continue;
			memset(&e, 0, sizeof(e));
			e.name = xstrdup(fn->name);
			e.file = units[i]->file;
			e.params = copy_params(fn, &e.nparams);
			e.params_start = fn->params_range.start;
			e.params_end = fn->params_range.end;
			take_init_call(&e, fn);
			out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
			out->v[out->n++] = e;
		}
	}
	/* the Init definitions reached: same number of parameters, first found */
	for (size_t k = 0; k < out->n; k++) {
		struct gate_kentry *e = &out->v[k];
		const struct cxx_func *any = NULL;
		const struct src_file *any_file = NULL;
		if (!e->has_init)
			continue;
		for (size_t i = 0; i < nunits && !e->init_file; i++) {
			const struct cxx_outline *ol = units[i]->outline;
			for (size_t f = 0; f < ol->nfuncs; f++) {
				const struct cxx_func *fn = &ol->funcs[f];
				if (strcmp(fn->name, "Init") != 0 || fn->def != CXX_DEF_BODY)
					continue;
				if (!any) {
					any = fn;
					any_file = units[i]->file;
				}
				if (fn->nparams == e->ninit_args) {
					any = fn;
					any_file = units[i]->file;
					e->init_file = any_file;
					break;
				}
			}
		}
		if (any) {
			e->init_file = any_file;
			e->init_qualified = xstrdup(any->qualified_name);
			e->init_params = copy_params(any, &e->ninit_params);
			e->init_params_start = any->params_range.start;
			e->init_params_end = any->params_range.end;
		}
	}
	/* keep the files, drop the outlines */
	out->files = nunits ? xmalloc(nunits * sizeof(*out->files)) : NULL;
	for (size_t i = 0; i < nunits; i++) {
		out->files[out->nfiles++] = units[i]->file;
		units[i]->file = NULL;
		cxx_unit_free(units[i]);
	}
	free(units);
	return 0;
}

void gate_kernels_release(struct gate_kernels *k)
{
	for (size_t i = 0; i < k->n; i++) {
		struct gate_kentry *e = &k->v[i];
		free(e->name);
		free_params(e->params, e->nparams);
		free(e->init_object);
		for (size_t a = 0; a < e->ninit_args; a++)
			free(e->init_args[a]);
		free(e->init_args);
		free(e->init_arg_start);
		free(e->init_arg_end);
		free(e->init_qualified);
		free_params(e->init_params, e->ninit_params);
	}
	for (size_t i = 0; i < k->nfiles; i++)
		src_file_free(k->files[i]);
	free(k->files);
	free(k->v);
	memset(k, 0, sizeof(*k));
}
