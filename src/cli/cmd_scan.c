/* autotrace scan: print the outline of kernel sources (files, #include
 * closure, #if structure, macros, functions, statements, calls, points). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "commands.h"
#include "cxx_dump.h"
#include "cxx_pp.h"
#include "cxx_scan.h"
#include "exit_status.h"
#include "xalloc.h"

static void usage(FILE *out)
{
	fputs("Usage: autotrace scan [--format json|text] [--root DIR] [-I DIR]... [-D NAME[=VALUE]]...\n"
	      "                      [-U NAME]... FILE|DIR...\n"
	      "\n"
	      "Print the outline of C++ kernel sources: for each file its #includes, #if\n"
	      "structure, macros and function definitions with their statements (loops,\n"
	      "if chains, switch, return/break/continue), call sites and MoeTracing points.\n"
	      "A call site that makes an object of a class type says how (\"constructs\":\n"
	      "declaration, new, temporary T{...}, a constructor's mem-initializer).\n"
	      "Directories are scanned for C/C++ sources; then #includes are followed\n"
	      "while they stay under the kernel root.\n"
	      "\n"
	      "  --format json|text  output form (default json; byte ranges are [start, end))\n"
	      "  --root DIR          kernel root: includes outside it are listed, not followed;\n"
	      "                      paths are printed relative to it (default: .)\n"
	      "  -I DIR              look for includes in DIR after the including file's dir\n"
	      "  -D NAME[=VALUE]     take NAME as defined when choosing #if branches\n"
	      "  -U NAME             take NAME as undefined\n"
	      "\n"
	      "An #if whose condition is unknown is taken (the first such branch of its\n"
	      "group) and the macros it tests are assumed accordingly for the rest of the\n"
	      "scan; #if 0 is never taken. Code the scanner cannot follow is a warning on\n"
	      "stderr; scanning goes on. Exit status: 0, or 2 when an input cannot be read.\n",
	      out);
}

/* Writes `text` with every line after the first indented by `indent`. */
static void put_indented(FILE *out, const char *text, const char *indent)
{
	const char *s = text;

	for (;;) {
		const char *nl = strchr(s, '\n');
		if (!nl) {
			fputs(s, out);
			return;
		}
		fwrite(s, 1, (size_t)(nl - s) + 1, out);
		fputs(indent, out);
		s = nl + 1;
	}
}

static void put_json_string(FILE *out, const char *s)
{
	cJSON *j = cJSON_CreateString(s);
	char *t = cJSON_PrintUnformatted(j);

	fputs(t, out);
	free(t);
	cJSON_Delete(j);
}

static void print_entries(FILE *out, const struct cxx_scan *s)
{
	bool first = true;

	fputs("\t\"entries\":\t[", out);
	for (size_t i = 0; i < cxx_scan_nfiles(s); i++) {
		cJSON *e, *arr;
		size_t *list, n;
		char *text;
		if (cxx_scan_nkernels(s, i) == 0)
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "file", cxx_scan_path(s, i));
		arr = cJSON_AddArrayToObject(e, "kernels");
		for (size_t k = 0; k < cxx_scan_nkernels(s, i); k++)
			cJSON_AddItemToArray(arr, cJSON_CreateString(cxx_scan_kernel(s, i, k)));
		arr = cJSON_AddArrayToObject(e, "closure");
		n = cxx_scan_closure(s, i, &list);
		for (size_t k = 0; k < n; k++)
			cJSON_AddItemToArray(arr, cJSON_CreateString(cxx_scan_path(s, list[k])));
		free(list);
		text = cJSON_Print(e);
		fputs(first ? "\n\t\t" : ", ", out);
		put_indented(out, text, "\t\t");
		free(text);
		cJSON_Delete(e);
		first = false;
	}
	fputs(first ? "]\n" : "\n\t]\n", out);
}

int cmd_scan(int argc, char **argv, struct diag *diag)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },       { "format", required_argument, NULL, 'f' },
		{ "root", required_argument, NULL, 'r' }, { "include", required_argument, NULL, 'I' },
		{ "define", required_argument, NULL, 'D' }, { "undef", required_argument, NULL, 'U' },
		{ NULL, 0, NULL, 0 },
	};
	struct cxx_macro_table *macros = cxx_macros_new();
	struct cxx_scan_opts so;
	struct cxx_scan *scan = NULL;
	struct cxx_unit *u;
	const char **idirs = xcalloc((size_t)argc + 1, sizeof(*idirs));
	size_t nidirs = 0;
	bool text = false, first = true;
	int c, status = EXIT_BAD_INPUT;

	memset(&so, 0, sizeof(so));
	while ((c = getopt_long(argc, argv, "hf:r:I:D:U:", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			status = EXIT_OK;
			goto out;
		case 'f':
			if (strcmp(optarg, "json") == 0) {
				text = false;
			} else if (strcmp(optarg, "text") == 0) {
				text = true;
			} else {
				diag_plain(diag, DIAG_ERROR, "scan: unknown format '%s' (json or text)", optarg);
				goto out;
			}
			break;
		case 'r':
			so.root = optarg;
			break;
		case 'I':
			idirs[nidirs++] = optarg;
			break;
		case 'D':
			if (cxx_macros_define(macros, optarg) < 0) {
				diag_plain(diag, DIAG_ERROR, "scan: -D %s: not a macro name", optarg);
				goto out;
			}
			break;
		case 'U':
			if (cxx_macros_undef(macros, optarg) < 0) {
				diag_plain(diag, DIAG_ERROR, "scan: -U %s: not a macro name", optarg);
				goto out;
			}
			break;
		default:
			usage(stderr);
			goto out;
		}
	}
	if (optind >= argc) {
		diag_plain(diag, DIAG_ERROR, "scan: no file or directory given");
		usage(stderr);
		goto out;
	}
	so.include_dirs = idirs;
	so.ninclude_dirs = nidirs;
	so.macros = macros;
	scan = cxx_scan_new(&so, diag);
	if (!scan)
		goto out;
	for (int i = optind; i < argc; i++)
		cxx_scan_add(scan, argv[i]);
	if (cxx_scan_errors(scan))
		goto out;

	if (!text) {
		fputs("{\n\t\"version\":\t1,\n\t\"root\":\t", stdout);
		put_json_string(stdout, so.root ? so.root : ".");
		fputs(",\n\t\"files\":\t[", stdout);
	}
	while ((u = cxx_scan_next(scan)) != NULL) {
		if (text) {
			cxx_outline_text(stdout, u->outline, u->path);
		} else {
			fputs(first ? "\n\t\t" : ", ", stdout);
			cxx_outline_write_json(stdout, u->outline, u->path, 2);
		}
		first = false;
		cxx_unit_free(u);
	}
	if (!text) {
		fputs(first ? "],\n" : "\n\t],\n", stdout);
		print_entries(stdout, scan);
		fputs("}\n", stdout);
	}
	status = cxx_scan_errors(scan) ? EXIT_BAD_INPUT : EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout))
		status = EXIT_INTERNAL; /* main says why */
out:
	cxx_scan_free(scan);
	cxx_macros_free(macros);
	free(idirs);
	return status;
}
