/* Parsing a rules file into its raw syntax tree: the reentrant flex scanner
 * and the bison parser run over it (grammar/), whose actions build the tree
 * with rule_ast.c's constructors. */
#include <string.h>

#include "rule_ast.h"
#include "xalloc.h"

/* The flex scanner's entry points (prefix rules_yy, reentrant). */
int rules_yylex_init_extra(struct rules_parse *extra, void **scanner);
int rules_yylex_destroy(void *scanner);
int rules_yyparse(void *scanner, struct rules_parse *p);

struct rule_node *rule_ast_parse(const struct src_file *file, struct diag *diag, unsigned *errors)
{
	struct rules_parse p;
	void *scanner = NULL;
	struct rule_node *root;

	memset(&p, 0, sizeof(p));
	p.file = file;
	p.diag = diag;
	if (rules_yylex_init_extra(&p, &scanner) != 0)
		xalloc_die();
	if (rules_yyparse(scanner, &p) != 0 && p.errors == 0) {
		diag_at(diag, DIAG_ERROR, src_loc_make(file, 0, 0), "cannot parse this rules file");
		p.errors++;
	}
	rules_yylex_destroy(scanner);
	root = p.root ? p.root : rule_ast_list_new();
	*errors = p.errors;
	return root;
}
