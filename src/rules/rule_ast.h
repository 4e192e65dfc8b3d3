/* The raw syntax tree of a rules file, as the bison grammar builds it: a list
 * of statements (`keyword args... ;`) and sections (`name { statements }`).
 * Meaning is given later by rule_decode.c, which checks every statement
 * against the table in rule_statements.def. */
#ifndef AUTOTRACE_RULE_AST_H
#define AUTOTRACE_RULE_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "src_file.h"

/* A byte range in the file being parsed; the parser's location type. */
struct rules_span {
	uint32_t start;
	uint32_t end;
};

/* RV_NTH: `#N` right after a regular expression (no blank between '#' and N),
 * the text after the '#'; a '#' anywhere else starts a comment. */
enum rule_value_kind { RV_WORD, RV_STRING, RV_REGEX, RV_NUMBER, RV_COMMA, RV_NTH };

struct rule_value {
	enum rule_value_kind kind;
	struct rules_span span;
	char *text;   /* word, decoded string, regex pattern as written, number text */
	char *flags;  /* regex flags after the closing slash ("" if none) */
	double number;
};

/* A statement, or a section when `is_section` (then `children` holds its
 * statements and `args` is empty); a block statement (`is_block`) has both
 * arguments and the statements of its block. */
struct rule_node {
	bool is_section;
	bool is_block;
	char *keyword;
	struct rules_span kw_span;
	struct rules_span span;       /* keyword to ';' or '}' */
	struct rule_value **args;
	size_t nargs, cap_args;
	struct rule_node **children;
	size_t nchildren, cap_children;
};

/* The state of one parse: the input, where diagnostics go, the result. */
struct rules_parse {
	const struct src_file *file;
	struct diag *diag;
	struct rule_node *root;       /* a section-like node holding the top level */
	unsigned errors;
	size_t input_pos;             /* lexer read position */
	uint32_t offset;              /* byte offset of the next token */
	struct rules_span prev2;      /* the token before prev */
	struct rules_span prev;       /* the token before the last one */
	struct rules_span last;       /* the last token */
	int last_kind;                /* its token kind */
	struct rules_span open_braces[16];
	struct rules_span open_names[16]; /* the word before each open '{' */
	unsigned nopen;
};

/* Constructors called from the grammar actions; they take ownership of their
 * arguments. */
struct rule_value *rule_ast_value(enum rule_value_kind kind, struct rules_span span, char *text);
struct rule_node *rule_ast_args_new(void);
struct rule_node *rule_ast_args_add(struct rule_node *args, struct rule_value *v);
struct rule_node *rule_ast_stmt(struct rule_value *keyword, struct rule_node *args, struct rules_span span);
struct rule_node *rule_ast_list_new(void);
struct rule_node *rule_ast_list_add(struct rule_node *list, struct rule_node *item);
struct rule_node *rule_ast_section(struct rule_value *name, struct rule_node *body, struct rules_span span);
struct rule_node *rule_ast_block(struct rule_value *keyword, struct rule_node *args, struct rule_node *body,
				 struct rules_span span);

void rule_value_free(struct rule_value *v);
void rule_node_free(struct rule_node *n);

/* Parses `file`; errors go to `diag`. Returns the top-level list (never NULL)
 * and stores the count of syntax errors in *errors. Caller frees the node. */
struct rule_node *rule_ast_parse(const struct src_file *file, struct diag *diag, unsigned *errors);

/* A location in `file` for a span. */
static inline struct src_loc rule_span_loc(const struct src_file *file, struct rules_span s)
{
	return src_loc_make(file, s.start, s.end);
}

#endif
