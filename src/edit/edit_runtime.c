/* The trace point runtime apply provides, so that the points it writes
 * compile: when the operator's base header (the one its kernel entry
 * includes, see plan.h) does not define MoeTracing, autotrace's runtime
 * (device/moe_tracing.h) is embedded in it, or `<entry>_base.h` is created
 * beside the entry when it has none, by the mechanism wire uses
 * (runtime_embed.h), apply's block tagged so that strip takes it back. */
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "path_glob.h"
#include "runtime_embed.h"
#include "xalloc.h"

int edit_runtime_provide(const struct plan *pl, const char *runtime_path, struct edit_runtime *out, struct diag *diag)
{
	struct src_file *rt;
	char *blk;
	bool points = false;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < pl->nnodes && !points; i++)
		points = pl->nodes[i].fate == PLAN_FATE_INSERT;
	if (!points || (pl->base != SIZE_MAX && pl->base_has_runtime))
		return 0;
	rt = src_file_load(runtime_path);
	if (!rt) {
		diag_pos(diag, DIAG_ERROR, runtime_path, 0, 0,
			 "cannot read the device runtime, which the trace points need (set AUTOTRACE_DEVICE_DIR)");
		return -1;
	}
	blk = runtime_block(rt->data, rt->len, RUNTIME_BY_APPLY);
	src_file_free(rt);
	if (pl->base == SIZE_MAX) {
		out->path = path_join(pl->opdir, pl->base_new);
		out->shown = xstrdup(pl->base_new);
		out->text = runtime_new_header(pl->base_new, blk, RUNTIME_BY_APPLY);
		out->created = true;
	} else {
		const struct plan_unit *u = &pl->units[pl->base];
		const char *d = u->file->data;
		size_t len = u->file->len, at, b, e;
		if (runtime_markers(d, len, &b, &e) != 0) {
			diag_at(diag, DIAG_ERROR, src_loc_make(u->file, (uint32_t)b, (uint32_t)b),
				"the runtime markers here hold no MoeTracing: restore the runtime between them "
				"('autotrace wire' does) or delete the marker lines");
			free(blk);
			return -1;
		}
		at = runtime_embed_at(d, len);
		out->path = xstrdup(u->fs_path);
		out->shown = xstrdup(u->path);
		out->text = xasprintf("%.*s%s%s", (int)at, d, blk, d + at);
	}
	out->len = strlen(out->text);
	free(blk);
	return 0;
}

void edit_runtime_release(struct edit_runtime *r)
{
	free(r->path);
	free(r->shown);
	free(r->text);
	memset(r, 0, sizeof(*r));
}
