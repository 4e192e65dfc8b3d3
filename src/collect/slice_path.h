/* The paths of nested slices, interned: a path (the labels from the
 * outermost slice open around a slice down to its own) is a number made
 * from its parent path's number and its label. A reader keeps one number
 * per open or held slice and hands a slice's whole path over in it, however
 * deep the slice is; a consumer (report's flame graph, its wait share)
 * resolves each path once, from its parent. Copying or walking the path per
 * slice made a trace of 50,000 nested B events cost 4.9 GB and 30 s (issue
 * 33); memory now grows with the distinct paths (the flame graph's nodes)
 * and time with the slices. */
#ifndef AUTOTRACE_SLICE_PATH_H
#define AUTOTRACE_SLICE_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "index_table.h"

/* The empty path: the parent of the outermost slices' paths. A child's
 * number is always larger than its parent's. */
#define SLICE_PATH_ROOT 0u

struct slice_path {
	uint32_t parent, label;
	uint32_t hint_label, hint;  /* the child asked for last: its number + 1 (0: none) */
};

struct slice_paths {
	struct slice_path *v;       /* v[SLICE_PATH_ROOT]: the root, once a child is made */
	size_t n, cap;
	struct index_table index;   /* (parent, label) -> path */
};

/* Zeroed storage is an empty set of paths; release frees it. */
void slice_paths_release(struct slice_paths *p);

/* The path of a slice labelled `label` open in (the slice of) path `parent`:
 * made when new. */
uint32_t slice_path_child(struct slice_paths *p, uint32_t parent, uint32_t label);

static inline uint32_t slice_path_parent(const struct slice_paths *p, uint32_t path)
{
	return p->v[path].parent;
}

static inline uint32_t slice_path_label(const struct slice_paths *p, uint32_t path)
{
	return p->v[path].label;
}

#endif
