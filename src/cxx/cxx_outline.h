/* The outline of one C++ source file: what later commands (apply, check, gate,
 * wire) know about kernel code. It lists the file's #include directives, its
 * #if structure, its #define macros and its function definitions; inside each
 * function body, its statements (loops, if chains, switch, return/break/
 * continue with their owner, lambdas), call sites (written calls and the
 * constructions of objects) and existing MoeTracing points.
 *
 * Every location is a byte range [start, end) into the file's data
 * (struct cxx_range); lines and columns are computed when printed.
 *
 * Ownership: a struct cxx_outline owns every array and string reachable from
 * it (strings live in a private arena); it borrows the struct src_file it was
 * built from, which must outlive it. cxx_outline_free() releases it all. */
#ifndef AUTOTRACE_CXX_OUTLINE_H
#define AUTOTRACE_CXX_OUTLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "src_file.h"

struct cxx_macro_table; /* cxx_pp.h */
struct cxx_arena;       /* private */

struct cxx_range {
	uint32_t start;
	uint32_t end;
};

#define CXX_NONE (-1) /* an absent index */

/* Where an #include led; set by cxx_scan (cxx_outline_build leaves UNRESOLVED). */
enum cxx_include_status {
	CXX_INC_UNRESOLVED = 0, /* not looked up */
	CXX_INC_FOLLOWED,       /* found under the kernel root: scanned too */
	CXX_INC_OUTSIDE,        /* found outside the root: listed, not followed */
	CXX_INC_MISSING,        /* "name" found nowhere (a warning was given) */
	CXX_INC_SYSTEM,         /* <name> not found in the include dirs: toolchain header */
	CXX_INC_INACTIVE,       /* in an #if branch that was not chosen */
};

struct cxx_include {
	struct cxx_range range; /* the whole directive, '#' to end of line */
	const char *name;       /* as written, without the quotes or brackets */
	bool system;            /* <name> rather than "name" */
	bool active;            /* in the chosen #if branches */
	enum cxx_include_status status;
	const char *resolved;   /* path as cxx_scan prints it, or NULL */
};

/* One branch of an #if group: its directive and the decision taken on it. */
enum cxx_cond_value {
	CXX_COND_FALSE = 0,
	CXX_COND_TRUE = 1,
	CXX_COND_UNKNOWN = 2,   /* depends on macros nobody defined: the default applies */
	CXX_COND_SKIPPED = 3,   /* not evaluated (an earlier branch was taken, or the group is inactive) */
};

struct cxx_cond_branch {
	struct cxx_range range;  /* the directive line */
	const char *directive;   /* "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else" */
	const char *condition;   /* normalised text after the directive name ("" for #else) */
	enum cxx_cond_value value;
	bool taken;
	int brace_delta;         /* '{' minus '}' in the branch's code */
};

struct cxx_cond {
	struct cxx_range range;  /* '#if' to the end of '#endif' (or of file when unterminated) */
	int parent;              /* index of the enclosing group, CXX_NONE at top */
	struct cxx_cond_branch *branches;
	size_t nbranches;
	bool split_braces;       /* branches change the brace depth differently */
	bool every_arm;          /* every arm was taken: the build may take any (cxx_pp.h) */
};

struct cxx_param {
	struct cxx_range range;
	const char *type;        /* the text without the name and default: "GM_ADDR", "Params const &" */
	const char *name;        /* NULL for unnamed parameters */
	const char *default_arg; /* the default argument as written ("0"), or NULL */
};

/* X(enum-suffix, JSON name) */
#define CXX_STMT_KIND_LIST(X)                                                               \
	X(EXPR, "stmt")        /* expression or declaration, up to its ';' */               \
	X(BLOCK, "block")      /* a free-standing { ... } */                                \
	X(IF, "if")            /* a whole if / else if / else chain; its arms are children */ \
	X(ARM, "arm")          /* one arm of an if chain */                                 \
	X(FOR, "for")                                                                       \
	X(WHILE, "while")                                                                   \
	X(DO, "do")                                                                         \
	X(SWITCH, "switch")                                                                 \
	X(CASE, "case")        /* `case X:` or `default:` label */                          \
	X(RETURN, "return")                                                                 \
	X(BREAK, "break")                                                                   \
	X(CONTINUE, "continue")                                                             \
	X(GOTO, "goto")                                                                     \
	X(LABEL, "label")                                                                   \
	X(ASM, "asm")          /* asm volatile (...); */                                    \
	X(MACRO, "macro")      /* NAME(...) used as a statement without ';', maybe with a body */ \
	X(LAMBDA, "lambda")    /* a lambda's body, nested in the statement that holds it */  \
	X(TYPE, "type")        /* a local struct/class/enum/union definition */

enum cxx_stmt_kind {
#define CXX_STMT_ENUM_(id, name) CXX_STMT_##id,
	CXX_STMT_KIND_LIST(CXX_STMT_ENUM_)
#undef CXX_STMT_ENUM_
	CXX_STMT_COUNT
};

/* Kinds of if-chain arms. */
enum cxx_arm_kind { CXX_ARM_IF, CXX_ARM_ELSE_IF, CXX_ARM_ELSE, CXX_ARM_MACRO };

/* A statement. Statements of a body are stored in source (pre-)order; each
 * names its parent (CXX_NONE: directly in the function or macro body).
 * Fields beyond kind/parent/range are meaningful only for some kinds. */
struct cxx_stmt {
	enum cxx_stmt_kind kind;
	int parent;
	struct cxx_range range;    /* whole statement, ';' or '}' included */
	/* IF arms, FOR, WHILE, DO, SWITCH, MACRO: the header between the parentheses
	 * (without them), or the condition of `if ASCEND_IS_AIC {`; for DO the
	 * condition of the trailing while. Zero-width when absent. */
	struct cxx_range head;
	const char *text;          /* normalised head (condition, for header, macro name, case
				    * label, goto/label name) or NULL */
	const char *var;           /* FOR: the loop variable, or NULL */
	/* FOR, WHILE, DO, SWITCH, ARM, BLOCK, MACRO (with body), LAMBDA: the body,
	 * braces included when braced; zero-width when there is none. */
	struct cxx_range body;
	bool braced;
	enum cxx_arm_kind arm;     /* ARM only */
	bool is_constexpr;         /* ARM: `if constexpr` */
	/* RETURN: the LAMBDA it returns from, or CXX_NONE for the function.
	 * BREAK: the innermost FOR/WHILE/DO/SWITCH; CONTINUE: the innermost loop
	 * (CXX_NONE when there is none, which is a defect of the code). */
	int owner;
};

/* How a call site makes an object, X(enum-suffix, name). A written call is
 * CALL; the others are constructions the syntax shows, calls of the class's
 * constructors. A written `T(args)` may construct a temporary too: only the
 * planner, which knows the types, can tell it from a function call. */
#define CXX_CONSTRUCT_LIST(X)                                                                  \
	X(CALL, "call")               /* f(args), obj.f(args), T(args) */                         \
	X(DECLARATION, "declaration") /* T a(args);  T a{args};  T a;  T a = {args};  T a[n]; */  \
	X(NEW, "new")                 /* new T(args), new T{args}, new T */                       \
	X(INITIALIZER, "initializer") /* a constructor's mem-initializer: `: disp_(t)`, `: Base(t)` */ \
	X(TEMPORARY, "temporary")     /* T{args} in an expression */

enum cxx_construct {
#define CXX_CONSTRUCT_ENUM_(id, name) CXX_CONSTRUCT_##id,
	CXX_CONSTRUCT_LIST(CXX_CONSTRUCT_ENUM_)
#undef CXX_CONSTRUCT_ENUM_
	CXX_CONSTRUCT_COUNT
};

struct cxx_call {
	struct cxx_range range;    /* callee start to the closing ')' or '}' (`T a;`: to the name) */
	struct cxx_range args_range; /* inside the brackets (zero-width when there are none) */
	const char *callee;        /* normalised callee expression: "AscendC::CrossCoreSetFlag<0x2, PIPE_MTE3>",
				    * "dispatcher.Init", "this->blockEpilogue"; of a construction, the
				    * class type as written ("ns::Dispatcher<T>"), or the member or base
				    * class a mem-initializer names ("disp_", "Base<T>") */
	const char *name;          /* the last name, without template arguments: "Init", "Dispatcher" */
	const char *object;        /* what precedes the last '.' or '->', or NULL */
	const char *template_args; /* of the last name, without the brackets, or NULL */
	const char **args;         /* normalised argument texts (what a constructor is given) */
	struct cxx_range *arg_ranges;
	size_t nargs;
	enum cxx_construct constructs; /* CXX_CONSTRUCT_CALL for a written call */
	/* innermost statement holding the call; CXX_NONE in a macro body and for
	 * a constructor's mem-initializers (its first calls, run before its body) */
	int stmt;
};

/* An existing trace point: `MoeTracing<sync>(TRACE_POINT("label", "B"), extra..., index)`. */
struct cxx_point {
	struct cxx_range range;    /* the MoeTracing call */
	const char *label;         /* unescaped label, NULL when the first argument is not TRACE_POINT("...", ...) */
	const char *event;         /* "B", "E", ... or NULL */
	const char *data;          /* the first argument as written */
	const char **extra;        /* the arguments after the first */
	size_t nextra;
	const char *template_args; /* "true" for MoeTracing<true>(...), or NULL */
	int stmt;
	int call;                  /* index in the body's calls */
};

/* What a function or macro body holds. */
struct cxx_body {
	struct cxx_stmt *stmts;
	size_t nstmts;
	struct cxx_call *calls;
	size_t ncalls;
	struct cxx_point *points;
	size_t npoints;
};

enum cxx_func_def { CXX_DEF_BODY, CXX_DEF_DEFAULT, CXX_DEF_DELETE };

struct cxx_func {
	const char *name;           /* the last component: "Process", "operator()", "~Kernel" */
	const char *qualified_name; /* enclosing namespaces and classes, written qualifiers
				     * without their template arguments, and the function's own
				     * specialisation arguments: "ns::Kernel::operator()<AscendC::AIC>" */
	const char *written_name;   /* as written: "Kernel<T>::Process" */
	const char *scope;          /* enclosing namespaces and classes: "ns::Kernel", "" */
	const char *template_params;/* inside `template <...>` ("" for `template <>`), or NULL */
	const char *template_args;  /* the name's explicit arguments ("AscendC::AIC"), or NULL */
	const char *prefix;         /* specifiers and return type: "__global__ __aicore__ void" */
	struct cxx_param *params;
	size_t nparams;
	bool kernel;                /* __global__ */
	bool extern_c;
	bool in_class;              /* defined inside its class body */
	enum cxx_func_def def;
	struct cxx_range range;     /* from `template` or the first specifier to the body's '}' */
	struct cxx_range name_range;
	struct cxx_range params_range; /* the parentheses included */
	struct cxx_range body_range;   /* braces included; zero-width for = default/delete */
	struct cxx_body body;
};

struct cxx_macro {
	const char *name;
	const char *params;         /* text inside the parentheses of a function-like macro, or NULL */
	struct cxx_range range;     /* the whole #define, continuations included */
	struct cxx_range body_range;/* the replacement list; zero-width when empty */
	bool has_code;              /* the body holds a statement or block (`;`, `{`, `do`, `else`, ...) */
	struct cxx_body body;       /* calls and points (statements are not analysed) */
};

/* A type name the file declares: an alias (`using N = T;`, `typedef T N;`,
 * `template <...> using N = T<...>;`) or a class, struct or union
 * definition. The planner follows a variable's type through these to the
 * class whose methods a call reaches. */
enum cxx_type_kind { CXX_TYPE_ALIAS, CXX_TYPE_CLASS };

struct cxx_type {
	enum cxx_type_kind kind;
	const char *name;            /* "MatmulKernel", "BlockEpilogue" */
	const char *scope;           /* enclosing namespaces and classes: "Catlass::Gemm::Kernel", "" */
	const char *target;          /* ALIAS: the aliased type, normalised; CLASS: the base
				      * clause after ':' ("public Base<T>"), or NULL */
	const char *template_params; /* inside `template <...>`, or NULL */
	const char *template_args;   /* CLASS: the arguments of a specialisation `struct X<A, B>`, or NULL */
	struct cxx_range range;      /* the declaration; CLASS: key to the closing '}' */
	int func;                    /* ALIAS in a function body: that function's index; else CXX_NONE */
};

/* A function definition the statement parser could not follow: it is left
 * out of `funcs` (with a warning) and listed here, so that editors can refuse
 * to work on it. */
struct cxx_unfollowed {
	const char *qualified_name;
	struct cxx_range range;     /* the whole definition */
	struct cxx_range name_range;
};

struct cxx_outline {
	const struct src_file *file; /* borrowed */
	struct cxx_include *includes;
	size_t nincludes;
	struct cxx_cond *conds;
	size_t nconds;
	struct cxx_macro *macros;
	size_t nmacros;
	struct cxx_func *funcs;     /* in source order; members of nested classes included */
	size_t nfuncs;
	struct cxx_type *types;     /* aliases and classes, in source order */
	size_t ntypes;
	struct cxx_unfollowed *unfollowed; /* functions left out, in source order */
	size_t nunfollowed;
	bool balanced;              /* braces balance under the chosen #if branches */
	unsigned warnings;          /* warnings given while building it */
	struct cxx_arena *arena;
};

/* Builds the outline of `file`. `macros` holds the defines and undefs that
 * choose #if branches (see cxx_pp.h for the default); it is updated by the
 * file's own #define/#undef and by the assumptions made for unknown
 * conditions, so that one table passed to every file of a tree keeps the
 * choices consistent. NULL uses a private empty table. Warnings (code it
 * cannot follow, missing braces) go to `diag`, which may be NULL to stay
 * silent. Never fails: a function it cannot follow is left out with a
 * warning. The result is freed with cxx_outline_free. */
struct cxx_outline *cxx_outline_build(const struct src_file *file, struct cxx_macro_table *macros,
				      struct diag *diag);

/* A branch to take, whatever the conditions: group (the `#if` directive's
 * offset) and branch index (0 the #if, 1 the next #elif or #else, ...). */
struct cxx_branch_choice {
	uint32_t group_start;
	unsigned branch;
};

/* cxx_outline_build, with the given groups taking the given branches: the
 * outline of another configuration of the same file (offsets are shared). */
struct cxx_outline *cxx_outline_build_choosing(const struct src_file *file, struct cxx_macro_table *macros,
					       const struct cxx_branch_choice *choices, size_t nchoices,
					       struct diag *diag);

void cxx_outline_free(struct cxx_outline *ol);

const char *cxx_stmt_kind_name(enum cxx_stmt_kind kind);
const char *cxx_arm_kind_name(enum cxx_arm_kind kind);
const char *cxx_include_status_name(enum cxx_include_status st);
const char *cxx_construct_name(enum cxx_construct c);

/* Checks the structural invariants (ranges inside the file and nested in
 * their parents, bodies braced where they say so, indices in bounds).
 * Returns 0, or -1 with a description in `why` (of `size` bytes). Used by
 * the tests and the fuzz target. */
int cxx_outline_validate(const struct cxx_outline *ol, char *why, size_t size);

/* Strings in the outline's arena (used by cxx_scan to record resolved paths). */
const char *cxx_outline_strdup(struct cxx_outline *ol, const char *s, size_t len);

#endif
