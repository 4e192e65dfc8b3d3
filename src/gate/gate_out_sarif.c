/* The SARIF 2.1.0 form of a gate report (`--format sarif`), with what code
 * scanning consumers (GitHub's among them) require: version, $schema, one run whose
 * tool.driver has name, version and the rules (id, shortDescription), and
 * results with ruleId, level, message.text and physical locations
 * (artifactLocation.uri, region.startLine/startColumn) on every result. The fix is part of
 * the message; a related location (G5's origin) is a relatedLocation; the
 * gates' statuses are the run's properties. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "gate_out.h"

/* A finding without a file of its own (a layer not found, a build script
 * that does not exist) still gets a file-level location: code scanning
 * rejects the whole upload when one result has none. The report's anchor
 * stands for the operator (its rules file, OpDef or kernel entry), else the
 * operator directory. */
static cJSON *physical(const struct gate_loc *l, const struct gate_report *r)
{
	cJSON *loc = cJSON_CreateObject(), *phys = cJSON_AddObjectToObject(loc, "physicalLocation");
	cJSON *art = cJSON_AddObjectToObject(phys, "artifactLocation");
	const char *uri = l->path ? l->path : r->anchor ? r->anchor : r->opdir;

	if (strncmp(uri, "./", 2) == 0)
		uri += 2;
	cJSON_AddStringToObject(art, "uri", uri);
	if (l->path && l->line) {
		cJSON *region = cJSON_AddObjectToObject(phys, "region");
		cJSON_AddNumberToObject(region, "startLine", (double)l->line);
		cJSON_AddNumberToObject(region, "startColumn", (double)l->col);
		if (l->src_line)
			cJSON_AddNumberToObject(region, "endColumn", (double)(l->col + l->caret_len));
	}
	return loc;
}

int gate_out_sarif(FILE *out, FILE *err, bool color, const struct gate_report *r)
{
	cJSON *root = cJSON_CreateObject(), *runs, *run, *driver, *rules, *results, *props, *gates;
	char *text;
	int rc;

	(void)err;
	(void)color;
	cJSON_AddStringToObject(root, "$schema", "https://json.schemastore.org/sarif-2.1.0.json");
	cJSON_AddStringToObject(root, "version", "2.1.0");
	runs = cJSON_AddArrayToObject(root, "runs");
	run = cJSON_CreateObject();
	cJSON_AddItemToArray(runs, run);
	driver = cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "tool"), "driver");
	cJSON_AddStringToObject(driver, "name", "autotrace");
	cJSON_AddStringToObject(driver, "version", PACKAGE_VERSION);
	rules = cJSON_AddArrayToObject(driver, "rules");
	for (int i = 0; i < GATE_RULE_COUNT; i++) {
		cJSON *rule = cJSON_CreateObject();
		cJSON_AddStringToObject(rule, "id", gate_rule_id((enum gate_rule)i));
		cJSON_AddStringToObject(cJSON_AddObjectToObject(rule, "shortDescription"), "text",
					gate_rule_description((enum gate_rule)i));
		cJSON_AddItemToArray(rules, rule);
	}
	results = cJSON_AddArrayToObject(run, "results");
	for (int g = 0; g < GATE_COUNT; g++)
		for (size_t i = 0; i < r->n; i++) {
			const struct gate_finding *fd = &r->v[i];
			cJSON *res, *msg;
			char *m;
			size_t n;
			if (gate_rule_gate(fd->rule) != (enum gate_id)g)
				continue;
			res = cJSON_CreateObject();
			cJSON_AddStringToObject(res, "ruleId", gate_rule_id(fd->rule));
			cJSON_AddNumberToObject(res, "ruleIndex", (double)fd->rule);
			cJSON_AddStringToObject(res, "level",
						fd->level == DIAG_ERROR ? "error" : fd->level == DIAG_WARNING ? "warning" : "note");
			n = strlen(fd->message) + (fd->hint ? strlen(fd->hint) : 0) + (fd->fix ? strlen(fd->fix) : 0) + 24;
			m = malloc(n);
			if (m) {
				snprintf(m, n, "%s%s%s%s%s", fd->message, fd->hint ? "\nhint: " : "", fd->hint ? fd->hint : "",
					 fd->fix ? "\nfix: " : "", fd->fix ? fd->fix : "");
				msg = cJSON_AddObjectToObject(res, "message");
				cJSON_AddStringToObject(msg, "text", m);
				free(m);
			}
			cJSON_AddItemToArray(cJSON_AddArrayToObject(res, "locations"), physical(&fd->loc, r));
			if (fd->related_message && fd->related.path) {
				cJSON *rel = physical(&fd->related, r);
				cJSON_AddNumberToObject(rel, "id", 1);
				cJSON_AddStringToObject(cJSON_AddObjectToObject(rel, "message"), "text", fd->related_message);
				cJSON_AddItemToArray(cJSON_AddArrayToObject(res, "relatedLocations"), rel);
			}
			cJSON_AddItemToArray(results, res);
		}
	props = cJSON_AddObjectToObject(run, "properties");
	gates = cJSON_AddObjectToObject(props, "gates");
	for (int g = 0; g < GATE_COUNT; g++)
		cJSON_AddStringToObject(gates, gate_name((enum gate_id)g), gate_status_name(r->gates[g].status));
	cJSON_AddBoolToObject(props, "passed", gate_report_passed(r));
	text = cJSON_Print(root);
	rc = text && fputs(text, out) >= 0 && fputc('\n', out) != EOF && fflush(out) == 0 ? 0 : -1;
	free(text);
	cJSON_Delete(root);
	return rc;
}
