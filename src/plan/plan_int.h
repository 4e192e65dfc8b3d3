/* Internals shared by the files of the planner (plan_source.c,
 * plan_resolve.c, plan_walk.c, plan_print.c) and the editor (edit_*.c);
 * other modules use plan.h. */
#ifndef AUTOTRACE_PLAN_INT_H
#define AUTOTRACE_PLAN_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "plan.h"

/* A function of the plan: unit and index in that unit's outline. */
struct plan_fref {
	size_t unit;
	int func;
};

/* A class definition of the plan: unit and index in that unit's outline types. */
struct plan_cref {
	size_t unit;
	int type;
};

/* Where a type is written: the unit, the function whose code writes it
 * (CXX_NONE outside bodies), the offset, and the scope of the declaration
 * holding it (used outside functions). */
struct plan_tctx {
	size_t unit;
	int func;
	uint32_t at;
	const char *scope;
};

/* Per-function facts computed on demand (plan_resolve.c). */
struct plan_calls_memo {
	const struct rule_regex *re;
	bool hit;
};

struct plan_finfo {
	bool ready;
	int *call_first;   /* calls of statement s: call_order[call_first[s] .. call_first[s + 1]) */
	int *call_order;
	int *point_at;     /* statement -> the existing point that is the whole statement, or -1 */
	int *claimed;      /* existing points taken as the B of a planned point: that node + 1, else 0 */
	unsigned *restr;   /* statement -> core types it can run on (from core-type branches) */
	unsigned own;      /* the function's own restriction (operator()<AscendC::AIC>...) */
	unsigned mask;     /* union of the core types of the paths reaching it */
	bool reached;      /* on some path from a root */
	bool visited;      /* planned (first visit) */
	bool tile_noted;   /* reached from tile-level code: noted, or looked into */
	bool tile_queued;  /* reached from tile-level code: queued for the wrap and region rules */
	bool is_root;
	int root_rule;     /* is_root: the index of its root rule in the policy */
	long *res_first;   /* per call of the body: where its targets are in the index's
			      res_pool (-1: not resolved yet, -2: being resolved), see
			      plan_resolve_call */
	const char *phase; /* visited: the phase it was planned in (its labels name it) */
	const char **other_phases; /* other phases that reach it, noted once each */
	size_t nother;
	struct plan_fref *callers; /* the functions on paths from a root that call it (pass 1) */
	struct plan_calls_memo *calls_memo; /* `calls /RE/` asked of the whole function */
	size_t ncalls_memo;
	size_t ncallers, callers_cap;
};

#define PLAN_RESOLVE_MAX 16 /* targets of one call kept at most */

/* An identifier in declaration position: the hash of its name, its offset,
 * the next of its hash chain (index + 1, 0 ends). */
struct plan_decl_pos {
	uint32_t hash, pos, next;
};

struct plan_unit_decls {
	struct plan_decl_pos *v; /* in file order */
	size_t n;
	uint32_t *head, mask;    /* chain heads by hash & mask (index + 1) */
	bool built;
};

struct plan_index {
	struct plan_map *by_name;   /* "operator()" -> functions */
	struct plan_map *by_member; /* "Class::name" (last scope component) -> functions */
	struct plan_map *by_class;  /* "Class" -> units defining functions of it */
	struct plan_map *macros;    /* function-like macros with code -> (unit, macro) */
	struct plan_map *types;     /* type name -> (unit, outline type) */
	struct plan_map *types_q;   /* "scope::name" -> the same; function-local aliases
				     * under "\001unit:func:name" */
	struct plan_map *instances; /* class name -> aliases whose target instantiates it (`Name<`) */
	size_t *unit_base;          /* first global function id of each unit */
	size_t nfuncs;
	struct plan_finfo *info;    /* by global function id */
	struct plan_fref *res_pool; /* resolved calls: a header (unit = count, func = quiet),
				     * then the targets */
	size_t res_n, res_cap;
	struct plan_map *members;   /* "unit\002scope\002var" -> member_v index */
	struct plan_member *member_v;
	size_t nmember, member_cap;
	struct plan_map *locals;    /* "unit:func" -> that function's local types */
	struct plan_map *type_memo; /* plan_type_classes answers -> member_v index */
	struct plan_unit_decls *udecls; /* by unit: where names may be declared */
};

/* The classes of a class member variable, found once per class and unit. */
struct plan_member {
	size_t n;
	struct plan_cref cls[PLAN_RESOLVE_MAX];
	char name[128];             /* the written class name when no definition is known */
};

static inline size_t plan_fid(const struct plan *pl, struct plan_fref f)
{
	return pl->index->unit_base[f.unit] + (size_t)f.func;
}

static inline const struct cxx_func *plan_func(const struct plan *pl, struct plan_fref f)
{
	return &pl->units[f.unit].outline->funcs[f.func];
}

/* "a" SEP "b" into buf (cut at size - 1): the keys of the planner's maps,
 * built without printf on the hot paths. Returns buf. */
static inline char *plan_key(char *buf, size_t size, const char *a, size_t alen, const char *sep, const char *b)
{
	size_t n = 0, l;

	if (size == 0)
		return buf;
	l = alen < size - 1 ? alen : size - 1;
	memcpy(buf, a, l);
	n = l;
	for (const char *p = sep; *p && n + 1 < size; p++)
		buf[n++] = *p;
	for (const char *p = b; *p && n + 1 < size; p++)
		buf[n++] = *p;
	buf[n] = '\0';
	return buf;
}

/* A key being built for the planner's maps without printf: plan_ks appends
 * a string, plan_kn a number (cut at the buffer's size). */
struct plan_key {
	char s[1024];
	size_t n;
};

static inline struct plan_key *plan_ks(struct plan_key *k, const char *s)
{
	while (*s && k->n + 1 < sizeof(k->s))
		k->s[k->n++] = *s++;
	k->s[k->n] = '\0';
	return k;
}

static inline struct plan_key *plan_kn(struct plan_key *k, long long v)
{
	char d[24];
	int i = 0;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do
		d[i++] = (char)('0' + u % 10);
	while ((u /= 10) && i < 23);
	if (v < 0)
		d[i++] = '-';
	while (i > 0 && k->n + 1 < sizeof(k->s))
		k->s[k->n++] = d[--i];
	k->s[k->n] = '\0';
	return k;
}

/* plan_resolve.c */
void plan_index_build(struct plan *pl);
void plan_index_free(struct plan_index *ix, size_t nunits);
struct plan_finfo *plan_finfo(struct plan *pl, struct plan_fref f);
/* The functions a call may reach; returns their number (up to `max`). A
 * construction (or a temporary `T(args)`) reaches the constructors of the
 * class that take its arguments, each after what its mem-initializers
 * reach. *quiet is set when a call that reaches nothing is not one the
 * planner failed to follow: the call of a lambda, a construction whose
 * class has no constructor in the sources (not written, or not known). */
size_t plan_resolve_call(struct plan *pl, struct plan_fref f, const struct cxx_call *c, struct plan_fref *out,
			 size_t max, bool *quiet);
/* A call `c` of the body of macro (mu, mi), invoked by `inv` in function f:
 * like plan_resolve_call, and an object the macro declares with a type made
 * of its parameters is given the invocation's arguments. */
size_t plan_resolve_macro_call(struct plan *pl, struct plan_fref f, const struct cxx_call *inv, size_t mu, int mi,
			       const struct cxx_call *c, struct plan_fref *out, size_t max, bool *quiet);
/* Why call c of function f reaches none of the functions of its name the
 * sources define (newly allocated): the object's type, and where they are. */
char *plan_unresolved_why(struct plan *pl, struct plan_fref f, const struct cxx_call *c);
/* The (unit, macro) of a function-like macro with code called `name`, or false. */
bool plan_find_macro(const struct plan *pl, const char *name, size_t *unit, int *macro);
/* Core types named by a branch condition (PLAN_CORE_MIX when none). */
unsigned plan_cond_core(const char *text);
/* Is call site c of function f a call for rules that match call names (hot,
 * skip call): not a trace point, and not a construction that runs no
 * constructor of the sources (`AscendC::TPipe pipe;`, an aggregate)? */
bool plan_makes_call(struct plan *pl, struct plan_fref f, const struct cxx_call *c);
/* The enclosing namespaces and classes of a function, from its qualified
 * name: "ns::Cls" for "ns::Cls::operator()<X>". Returns buf. */
const char *plan_func_scope(const struct cxx_func *fn, char *buf, size_t size);

/* Template argument lists that are the same but for blanks (NULL matches all). */
bool plan_targs_equal(const char *a, const char *b);

/* plan_types.c */
/* The classes a type text names where `ctx` writes it (through aliases,
 * std::conditional and class template parameters); up to `max`. */
size_t plan_type_classes(struct plan *pl, const struct plan_tctx *ctx, const char *text, struct plan_cref *out,
			 size_t max);
/* Can type `text`, whose last name is `name`, name a class of the sources
 * where `ctx` writes it: a class or alias of that name, or a template
 * parameter of the context's class? (`AscendC::TPipe` cannot: its
 * resolution is not tried.) */
bool plan_type_known(struct plan *pl, const struct plan_tctx *ctx, const char *text, const char *name);
/* The definitions of `method` in those classes (or their base classes);
 * explicit template arguments pick a specialisation when one matches. */
size_t plan_class_members(struct plan *pl, const struct plan_cref *cls, size_t ncls, const char *method,
			  const char *targs, struct plan_fref *out, size_t max);

/* The constructors of those classes (defined in the class or out of it)
 * that can be given `nargs` arguments; of a class with no constructor
 * written, default construction (nargs 0) reaches its base classes'. */
size_t plan_class_constructors(struct plan *pl, const struct plan_cref *cls, size_t ncls, size_t nargs,
			       struct plan_fref *out, size_t max);

/* plan_walk.c */
/* Walks from the roots and makes the nodes. `fallback` (or NULL): rules
 * that decide a function only where the policy's decide nothing, placing no
 * function point deeper than `fallback_depth` nor in what a merged function
 * calls (plan_fallback.c). */
void plan_walk(struct plan *pl, struct diag *diag, const struct rule_policy *fallback, int fallback_depth);

/* plan_fallback.c */
/* The shipped fallback rules (fallback.rules in the rules directory), read
 * once; NULL when they cannot be read. */
const struct rule_policy *plan_fallback_policy(void);
/* Is the plan thin: fewer than PLAN_THIN_LABELS distinct labels over both
 * core types? */
bool plan_thin(const struct plan *pl);

/* Hash map from strings to lists of integer pairs (plan_resolve.c). */
struct plan_map;
struct plan_map *plan_map_new(void);
void plan_map_free(struct plan_map *m);
void plan_map_add(struct plan_map *m, const char *key, size_t a, int b);
/* The entries under `key`: pairs (a[i], b[i]); returns their number. */
size_t plan_map_get(const struct plan_map *m, const char *key, const size_t **a, const int **b);

#endif
