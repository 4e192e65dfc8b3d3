/* Constructors and destructors for the raw rules syntax tree (grammar actions). */
#include "rule_ast.h"

#include "xalloc.h"

struct rule_value *rule_ast_value(enum rule_value_kind kind, struct rules_span span, char *text)
{
	struct rule_value *v = xcalloc(1, sizeof(*v));
	v->kind = kind;
	v->span = span;
	v->text = text;
	return v;
}

struct rule_node *rule_ast_args_new(void)
{
	return xcalloc(1, sizeof(struct rule_node));
}

struct rule_node *rule_ast_args_add(struct rule_node *args, struct rule_value *v)
{
	XGROW(args->args, args->cap_args, args->nargs + 1);
	args->args[args->nargs++] = v;
	return args;
}

/* n named by `keyword` (its text taken over, the value freed), spanning `span`. */
static struct rule_node *named_node(struct rule_node *n, struct rule_value *keyword, struct rules_span span)
{
	n->keyword = keyword->text;
	n->kw_span = keyword->span;
	n->span = span;
	keyword->text = NULL;
	rule_value_free(keyword);
	return n;
}

struct rule_node *rule_ast_stmt(struct rule_value *keyword, struct rule_node *args, struct rules_span span)
{
	return named_node(args, keyword, span);
}

struct rule_node *rule_ast_list_new(void)
{
	struct rule_node *n = xcalloc(1, sizeof(*n));
	n->is_section = true;
	return n;
}

struct rule_node *rule_ast_list_add(struct rule_node *list, struct rule_node *item)
{
	if (!item)
		return list;
	XGROW(list->children, list->cap_children, list->nchildren + 1);
	list->children[list->nchildren++] = item;
	return list;
}

struct rule_node *rule_ast_section(struct rule_value *name, struct rule_node *body, struct rules_span span)
{
	body->is_section = true;
	return named_node(body, name, span);
}

struct rule_node *rule_ast_block(struct rule_value *keyword, struct rule_node *args, struct rule_node *body,
				 struct rules_span span)
{
	struct rule_node *n = rule_ast_stmt(keyword, args, span);

	n->is_block = true;
	n->children = body->children;
	n->nchildren = body->nchildren;
	n->cap_children = body->cap_children;
	body->children = NULL;
	body->nchildren = body->cap_children = 0;
	rule_node_free(body);
	return n;
}

void rule_value_free(struct rule_value *v)
{
	if (!v)
		return;
	free(v->text);
	free(v->flags);
	free(v);
}

void rule_node_free(struct rule_node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nargs; i++)
		rule_value_free(n->args[i]);
	for (size_t i = 0; i < n->nchildren; i++)
		rule_node_free(n->children[i]);
	free(n->args);
	free(n->children);
	free(n->keyword);
	free(n);
}
