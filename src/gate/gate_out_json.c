/* The JSON form of a gate report (`--format json`):
 *   {"version": 1, "opdir": "...", "passed": false,
 *    "gates": [{"id": "G1", "title": "...", "status": "passed|failed|skipped",
 *               "errors": 0, "warnings": 0, "note": null}, ...],
 *    "findings": [{"gate", "rule", "level", "file", "line", "column", "message",
 *                  "hint", "fix", "related": {"file", "line", "column", "message"} | null}]}
 * "hint": how to fix it in words, or null; "fix": a command that fixes it,
 * run as printed in the directory gate ran from, or null. */
#include <cjson/cJSON.h>
#include <stdlib.h>

#include "gate_out.h"

static void add_loc(cJSON *o, const struct gate_loc *l)
{
	if (l->path)
		cJSON_AddStringToObject(o, "file", l->path);
	else
		cJSON_AddNullToObject(o, "file");
	if (l->line) {
		cJSON_AddNumberToObject(o, "line", (double)l->line);
		cJSON_AddNumberToObject(o, "column", (double)l->col);
	} else {
		cJSON_AddNullToObject(o, "line");
		cJSON_AddNullToObject(o, "column");
	}
}

int gate_out_json(FILE *out, FILE *err, bool color, const struct gate_report *r)
{
	cJSON *root = cJSON_CreateObject(), *gates, *finds;
	char *text;
	int rc;

	(void)err;
	(void)color;
	cJSON_AddNumberToObject(root, "version", 1);
	cJSON_AddStringToObject(root, "opdir", r->opdir);
	cJSON_AddBoolToObject(root, "passed", gate_report_passed(r));
	gates = cJSON_AddArrayToObject(root, "gates");
	for (int g = 0; g < GATE_COUNT; g++) {
		cJSON *o = cJSON_CreateObject();
		unsigned e = 0, w = 0;
		for (size_t i = 0; i < r->n; i++)
			if (gate_rule_gate(r->v[i].rule) == (enum gate_id)g) {
				e += r->v[i].level == DIAG_ERROR;
				w += r->v[i].level == DIAG_WARNING;
			}
		cJSON_AddStringToObject(o, "id", gate_name((enum gate_id)g));
		cJSON_AddStringToObject(o, "title", gate_title((enum gate_id)g));
		cJSON_AddStringToObject(o, "status", gate_status_name(r->gates[g].status));
		cJSON_AddNumberToObject(o, "errors", e);
		cJSON_AddNumberToObject(o, "warnings", w);
		if (r->gates[g].note)
			cJSON_AddStringToObject(o, "note", r->gates[g].note);
		else
			cJSON_AddNullToObject(o, "note");
		cJSON_AddItemToArray(gates, o);
	}
	finds = cJSON_AddArrayToObject(root, "findings");
	for (int g = 0; g < GATE_COUNT; g++)
		for (size_t i = 0; i < r->n; i++) {
			const struct gate_finding *fd = &r->v[i];
			cJSON *o;
			if (gate_rule_gate(fd->rule) != (enum gate_id)g)
				continue;
			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "gate", gate_name((enum gate_id)g));
			cJSON_AddStringToObject(o, "rule", gate_rule_id(fd->rule));
			cJSON_AddStringToObject(o, "level",
						fd->level == DIAG_ERROR ? "error" : fd->level == DIAG_WARNING ? "warning" : "note");
			add_loc(o, &fd->loc);
			cJSON_AddStringToObject(o, "message", fd->message);
			if (fd->hint)
				cJSON_AddStringToObject(o, "hint", fd->hint);
			else
				cJSON_AddNullToObject(o, "hint");
			if (fd->fix)
				cJSON_AddStringToObject(o, "fix", fd->fix);
			else
				cJSON_AddNullToObject(o, "fix");
			if (fd->related_message) {
				cJSON *rel = cJSON_AddObjectToObject(o, "related");
				add_loc(rel, &fd->related);
				cJSON_AddStringToObject(rel, "message", fd->related_message);
			} else {
				cJSON_AddNullToObject(o, "related");
			}
			cJSON_AddItemToArray(finds, o);
		}
	text = cJSON_Print(root);
	rc = text && fputs(text, out) >= 0 && fputc('\n', out) != EOF && fflush(out) == 0 ? 0 : -1;
	free(text);
	cJSON_Delete(root);
	return rc;
}
