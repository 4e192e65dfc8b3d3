/* Grammar of the rules language: statements `keyword args ;`, sections
 * `name { statements }` and, inside sections, block statements
 * `keyword args { statements }`. The grammar is deliberately generic; what each
 * statement means and which arguments it takes is checked by rule_decode.c. */
%code top {
#include <stdio.h>
#include <string.h>
}

%code requires {
#include "rule_ast.h"
}

%code provides {
int rules_yylex(RULES_YYSTYPE *lvalp, RULES_YYLTYPE *llocp, void *scanner);
int rules_yyparse(void *scanner, struct rules_parse *p);
}

%code {
#define YYLLOC_DEFAULT(cur, rhs, n)                                         \
	do {                                                                \
		if (n) {                                                    \
			(cur).start = YYRHSLOC(rhs, 1).start;               \
			(cur).end = YYRHSLOC(rhs, n).end;                   \
		} else {                                                    \
			(cur).start = (cur).end = YYRHSLOC(rhs, 0).end;     \
		}                                                           \
	} while (0)

static void rules_yyerror(RULES_YYLTYPE *loc, void *scanner, struct rules_parse *p, const char *msg);
}

%define api.pure full
%define api.prefix {rules_yy}
%define api.location.type {struct rules_span}
%define parse.error custom
%locations
%expect 0
%lex-param {void *scanner}
%parse-param {void *scanner} {struct rules_parse *p}

%union {
	struct rule_value *value;
	struct rule_node *node;
}

%token END 0 "end of file"
%token <value> WORD "word"
%token <value> STRING "string"
%token <value> REGEX "regular expression"
%token <value> NUMBER "number"
%token <value> NTH "occurrence '#N'"
%token LBRACE "'{'" RBRACE "'}'" SEMI "';'" COMMA "','"

%type <node> items item stmts stmt simple args args_ne
%type <value> arg

%destructor { rule_value_free($$); } <value>
%destructor { rule_node_free($$); } <node>

%%

file:	items				{ p->root = $1; }
	;

items:	%empty				{ $$ = rule_ast_list_new(); }
	| items item			{ $$ = rule_ast_list_add($1, $2); }
	;

item:	simple				{ $$ = $1; }
	| WORD LBRACE stmts RBRACE		{ $$ = rule_ast_section($1, $3, @$); }
	| WORD LBRACE stmts RBRACE SEMI	{ $$ = rule_ast_section($1, $3, @$); }
	| WORD LBRACE stmts error RBRACE	{ $$ = rule_ast_section($1, $3, @$); }
	;

stmts:	%empty				{ $$ = rule_ast_list_new(); }
	| stmts stmt			{ $$ = rule_ast_list_add($1, $2); }
	;

stmt:	simple				{ $$ = $1; }
	| WORD args_ne LBRACE stmts RBRACE	{ $$ = rule_ast_block($1, $2, $4, @$); }
	| WORD args_ne LBRACE stmts error RBRACE	{ $$ = rule_ast_block($1, $2, $4, @$); }
	;

simple:	WORD args SEMI			{ $$ = rule_ast_stmt($1, $2, @$); }
	| error SEMI			{ $$ = NULL; }
	;

args:	%empty				{ $$ = rule_ast_args_new(); }
	| args_ne			{ $$ = $1; }
	;

args_ne: arg				{ $$ = rule_ast_args_add(rule_ast_args_new(), $1); }
	| args_ne arg			{ $$ = rule_ast_args_add($1, $2); }
	;

arg:	WORD				{ $$ = $1; }
	| STRING			{ $$ = $1; }
	| REGEX				{ $$ = $1; }
	| NUMBER			{ $$ = $1; }
	| NTH				{ $$ = $1; }
	| COMMA				{ $$ = rule_ast_value(RV_COMMA, @1, NULL); }
	;

%%

static void rules_yyerror(RULES_YYLTYPE *loc, void *scanner, struct rules_parse *p, const char *msg)
{
	(void)scanner;
	diag_at(p->diag, DIAG_ERROR, rule_span_loc(p->file, *loc), "%s", msg);
	p->errors++;
}

static int yyreport_syntax_error(const yypcontext_t *ctx, void *scanner, struct rules_parse *p)
{
	enum { MAX_EXPECTED = 8 };
	yysymbol_kind_t expected[MAX_EXPECTED];
	yysymbol_kind_t got = yypcontext_token(ctx);
	const RULES_YYLTYPE *loc = yypcontext_location(ctx);
	int n = yypcontext_expected_tokens(ctx, expected, MAX_EXPECTED);
	int wants_semi = 0;
	char buf[256];
	size_t len = 0;

	(void)scanner;
	if (p->errors)
		return 0; /* the first error is the precise one; the rest would be noise */
	for (int i = 0; i < n; i++)
		if (expected[i] == YYSYMBOL_SEMI)
			wants_semi = 1;
	if (got == YYSYMBOL_YYEOF && p->nopen) {
		struct rules_span open = p->open_braces[p->nopen - 1 < 16 ? p->nopen - 1 : 15];
		rules_yyerror(&open, scanner, p, "unclosed '{': expected '}' before the end of the file");
		return 0;
	}
	if (got == YYSYMBOL_RBRACE && p->nopen == 0 && !wants_semi) {
		rules_yyerror((RULES_YYLTYPE *)loc, scanner, p, "unmatched '}'");
		return 0;
	}
	if (got == YYSYMBOL_LBRACE && p->nopen >= 2) {
		unsigned outer = p->nopen - 2 < 16 ? p->nopen - 2 : 15;
		diag_at(p->diag, DIAG_ERROR, rule_span_loc(p->file, p->prev),
			"sections do not nest: is a '}' missing before this section?");
		diag_at(p->diag, DIAG_NOTE, rule_span_loc(p->file, p->open_names[outer]),
			"the section still open starts here");
		p->errors++;
		return 0;
	}
	if (got == YYSYMBOL_LBRACE && wants_semi &&
	    src_file_line(p->file, p->prev.start) > src_file_line(p->file, p->prev2.end)) {
		/* `include "x"` then `trace {` on a later line: the ';' was forgotten */
		RULES_YYLTYPE at = { p->prev2.end, p->prev2.end };
		snprintf(buf, sizeof(buf), "expected ';' after '%.*s'", (int)(p->prev2.end - p->prev2.start),
			 p->file->data + p->prev2.start);
		rules_yyerror(&at, scanner, p, buf);
		return 0;
	}
	if (wants_semi && (got == YYSYMBOL_RBRACE || got == YYSYMBOL_YYEOF || got == YYSYMBOL_LBRACE)) {
		RULES_YYLTYPE at = { p->prev.end, p->prev.end };
		if (got == YYSYMBOL_LBRACE) {
			rules_yyerror((RULES_YYLTYPE *)loc, scanner, p,
				      "unexpected '{': a section is 'name { ... }' at the top level");
			return 0;
		}
		snprintf(buf, sizeof(buf), "expected ';' after '%.*s'", (int)(p->prev.end - p->prev.start),
			 p->file->data + p->prev.start);
		rules_yyerror(&at, scanner, p, buf);
		return 0;
	}
	len += (size_t)snprintf(buf + len, sizeof(buf) - len, "unexpected %s", yysymbol_name(got));
	for (int i = 0; i < n && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s", i == 0 ? ", expected " : " or ",
					yysymbol_name(expected[i]));
	rules_yyerror((RULES_YYLTYPE *)loc, scanner, p, buf);
	return 0;
}
