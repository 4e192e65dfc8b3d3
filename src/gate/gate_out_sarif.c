/* The SARIF 2.1.0 form of a gate report (`--format sarif`), valid against
 * the OASIS schema (the SARIF Multitool's `validate` checks it in the tests)
 * and with what code scanning consumers (GitHub's among them) require:
 * version, $schema, one run whose tool.driver has name, version and the
 * rules (id, shortDescription, fullDescription, help), and results with
 * ruleId, level, message.text, partialFingerprints and a physical location
 * on every result: artifactLocation.uri relative to the project root
 * (uriBaseId %SRCROOT%, which run.originalUriBaseIds gives as a file URI),
 * region startLine/endLine, and the columns only where there is one. The
 * fix is part of the message; a related location (G5's origin) is a
 * relatedLocation; the gates' statuses are the run's properties. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "gate_out.h"
#include "gate_run.h"
#include "path_rel.h"
#include "strbuf.h"
#include "xalloc.h"

#define SRCROOT "%SRCROOT%"

/* `path` as URI path characters: every byte but the unreserved ones and
 * '/' percent-encoded (a space, '%', '#', '?', ':' and non-ASCII bytes among
 * them: a relative reference's first segment must hold no ':'). */
static void uri_path(struct strbuf *b, const char *path)
{
	static const char hex[] = "0123456789ABCDEF";

	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p)) {
			strbuf_putc(b, (char)*p);
		} else {
			strbuf_putc(b, '%');
			strbuf_putc(b, hex[*p >> 4]);
			strbuf_putc(b, hex[*p & 15]);
		}
	}
}

/* The absolute form of `path` (relative to the working directory),
 * lexically: the file need not exist. Newly allocated. */
static char *absolute(const char *path)
{
	char *cwd, *joined, *abs;

	if (path[0] == '/')
		return path_normalize(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return path_normalize(path);
	joined = xmalloc(strlen(cwd) + strlen(path) + 2);
	sprintf(joined, "%s/%s", cwd, path);
	abs = path_normalize(joined);
	free(joined);
	free(cwd);
	return abs;
}

/* The root's URI for originalUriBaseIds: file:// and the absolute path,
 * ending in '/'. Newly allocated. */
static char *root_uri(const char *root)
{
	struct strbuf b = { 0 };

	strbuf_puts(&b, "file://");
	uri_path(&b, root);
	if (!b.n || b.s[b.n - 1] != '/')
		strbuf_putc(&b, '/');
	return strbuf_take(&b);
}

/* `path` relative to the root when it lies under it (*under set), else
 * absolute. A path reached through a symbolic link (an operator named by a
 * linked directory, while the root is the git top level's real path) is
 * compared by its real path too. Newly allocated. */
static char *from_root(const char *path, const char *root, bool *under)
{
	char *abs = absolute(path), *rel;

	*under = root && path_within(abs, root) && strcmp(abs, root) != 0;
	if (!*under && root) {
		char *real = realpath(abs, NULL);
		if (real && path_within(real, root) && strcmp(real, root) != 0) {
			free(abs);
			abs = real;
			*under = true;
		} else {
			free(real);
		}
	}
	if (!*under)
		return abs;
	rel = path_relative(root, abs);
	free(abs);
	return rel;
}

/* artifactLocation of `path`: relative to the root with uriBaseId
 * %SRCROOT% when it lies under the root, else an absolute file URI. */
static void artifact(cJSON *art, const char *path, const char *root)
{
	struct strbuf b = { 0 };
	bool under;
	char *site = from_root(path, root, &under), *uri;

	if (!under)
		strbuf_puts(&b, "file://");
	uri_path(&b, site);
	uri = strbuf_take(&b);
	cJSON_AddStringToObject(art, "uri", uri);
	if (under)
		cJSON_AddStringToObject(art, "uriBaseId", SRCROOT);
	free(uri);
	free(site);
}

/* A finding without a file of its own (a layer not found, a build script
 * that does not exist) still gets a file-level location: code scanning
 * rejects the whole upload when one result has none. The report's anchor
 * stands for the operator (its rules file, OpDef or kernel entry), else the
 * operator directory. A line without a column (a file-level G1 finding)
 * has a region of lines only: columns start at 1. */
static cJSON *physical(const struct gate_loc *l, const struct gate_report *r)
{
	cJSON *loc = cJSON_CreateObject(), *phys = cJSON_AddObjectToObject(loc, "physicalLocation");

	artifact(cJSON_AddObjectToObject(phys, "artifactLocation"), l->path ? l->path : r->anchor ? r->anchor : r->opdir,
		 r->root);
	if (l->path && l->line) {
		cJSON *region = cJSON_AddObjectToObject(phys, "region");
		cJSON_AddNumberToObject(region, "startLine", (double)l->line);
		cJSON_AddNumberToObject(region, "endLine", (double)l->line);
		if (l->col) {
			cJSON_AddNumberToObject(region, "startColumn", (double)l->col);
			if (l->src_line)
				cJSON_AddNumberToObject(region, "endColumn", (double)(l->col + l->caret_len));
		}
	}
	return loc;
}

/* The rule's fullDescription: its short description, then what its gate
 * checks (the gate's help, its lines joined). Newly allocated. */
static char *full_description(enum gate_rule rule)
{
	const struct gate_def *g = gate_def(gate_rule_gate(rule));
	struct strbuf b = { 0 };

	strbuf_puts(&b, gate_rule_description(rule));
	strbuf_puts(&b, ". Gate ");
	strbuf_puts(&b, g->id);
	strbuf_puts(&b, " (");
	strbuf_puts(&b, g->title);
	strbuf_puts(&b, ") checks that ");
	for (const char *p = g->help; *p; p++)
		strbuf_putc(&b, *p == '\n' ? ' ' : *p);
	strbuf_putc(&b, '.');
	return strbuf_take(&b);
}

/* partialFingerprints: what identifies a finding from one run to the next
 * when lines move: its rule, file (from the root) and message (FNV-1a, 64
 * bits, hex). */
static void fingerprint(cJSON *res, const struct gate_finding *fd, const struct gate_report *r)
{
	bool under;
	char *site = from_root(fd->loc.path ? fd->loc.path : r->anchor ? r->anchor : r->opdir, r->root, &under);
	const char *parts[3] = { gate_rule_id(fd->rule), site, fd->message };
	uint64_t h = 0xcbf29ce484222325ull;
	char hex[17];

	for (int i = 0; i < 3; i++)
		for (const unsigned char *p = (const unsigned char *)parts[i];; p++) {
			h = (h ^ *p) * 0x100000001b3ull; /* the terminating NUL separates the parts */
			if (!*p)
				break;
		}
	free(site);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	cJSON_AddStringToObject(cJSON_AddObjectToObject(res, "partialFingerprints"), "autotraceFinding/v1", hex);
}

int gate_out_sarif(FILE *out, FILE *err, bool color, const struct gate_report *r)
{
	cJSON *root = cJSON_CreateObject(), *runs, *run, *driver, *rules, *results, *props, *gates;
	char *text, *cwd = r->root ? NULL : getcwd(NULL, 0), *base;
	const char *top = r->root ? r->root : cwd;
	struct gate_report rooted = *r;
	int rc;

	(void)err;
	(void)color;
	rooted.root = (char *)top;
	r = &rooted;
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
		char *full = full_description((enum gate_rule)i);
		cJSON_AddStringToObject(rule, "id", gate_rule_id((enum gate_rule)i));
		cJSON_AddStringToObject(cJSON_AddObjectToObject(rule, "shortDescription"), "text",
					gate_rule_description((enum gate_rule)i));
		cJSON_AddStringToObject(cJSON_AddObjectToObject(rule, "fullDescription"), "text", full);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(rule, "help"), "text", gate_rule_help((enum gate_rule)i));
		cJSON_AddItemToArray(rules, rule);
		free(full);
	}
	if (top) {
		base = root_uri(top);
		cJSON_AddStringToObject(cJSON_AddObjectToObject(cJSON_AddObjectToObject(run, "originalUriBaseIds"), SRCROOT),
					"uri", base);
		free(base);
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
			fingerprint(res, fd, r);
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
	free(cwd);
	cJSON_Delete(root);
	return rc;
}
