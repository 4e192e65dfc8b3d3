/* autotrace: entry point; global options and dispatch to src/cli/cmd_<name>.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "byte_size.h"
#include "commands.h"
#include "config.h"
#include "exit_status.h"
#include "project_root.h"
#include "rule_load.h"
#include "rule_regex.h"
#include "src_file.h"
#include "suggest.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: autotrace [--allow-include-anywhere] [--project DIR] [--max-file-size SIZE]\n"
		"                 <command> [options] [operator-dir]\n"
		"       autotrace --help | --version\n"
		"\n"
		"Declarative, checked intra-kernel tracing for Ascend C operators.\n"
		"\n"
		"Commands:\n");
	for (unsigned i = 0; i < command_count; i++)
		fprintf(out, "  %-11s %s\n", command_table[i].name, command_table[i].summary);
	fprintf(out,
		"\n"
		"Run 'autotrace <command> --help' for the options of one command.\n"
		"The rules file comes from --rules, else autotrace.rules in the operator\n"
		"directory, else the installed default (%s/moe.rules).\n"
		"\n"
		"Global options (accepted anywhere before '--'):\n"
		"  --allow-include-anywhere  let rules files include files outside their own\n"
		"                            directory, the git top level above it, the\n"
		"                            operator's project and the shipped rules\n"
		"  --project DIR             the operator's project root is DIR (it must hold\n"
		"                            the operator directory); without it, the git top\n"
		"                            level above the operator directory, or the rules'\n"
		"                            'project' within it, or (outside git) the\n"
		"                            operator directory itself\n"
		"  --max-file-size SIZE      the largest file read (a source, a rules file, a\n"
		"                            script; bytes, or with K, M or G: 64M; default\n"
		"                            16M): a larger one a command must read is an\n"
		"                            error, one found by a walk is skipped, warned\n"
		"\n"
		"Exit status: 0 ok, 1 findings, 2 bad usage or bad input, 3 internal error.\n"
		"See autotrace(1) and autotrace-rules(5).\n",
		RULESDIR);
}

/* A command whose standard output could not be written (a full disk,
 * /dev/full, a closed pipe) did not do its job, whatever it returned. */
static int output_status(int status, struct diag *diag)
{
	int failed = fflush(stdout) != 0;
	int err = errno;

	if (failed || ferror(stdout)) {
		if (failed)
			diag_plain(diag, DIAG_ERROR, "cannot write the standard output: %s", strerror(err));
		else
			diag_plain(diag, DIAG_ERROR, "cannot write the standard output");
		status = EXIT_INTERNAL;
	}
	return status;
}

static int run(int argc, char **argv, struct diag *diag)
{
	const struct command *cmd;

	if (argc < 2) {
		usage(stderr);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		if (argc > 2 && strcmp(argv[1], "help") == 0 && (cmd = command_find(argv[2]))) {
			char *sub[] = { argv[2], "--help", NULL };
			return cmd->run(2, sub, diag);
		}
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("autotrace %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	cmd = command_find(argv[1]);
	if (!cmd) {
		const char *names[64];
		const char *best;
		for (unsigned i = 0; i < command_count; i++)
			names[i] = command_table[i].name;
		best = suggest_closest(argv[1], names, command_count);
		if (best)
			diag_plain(diag, DIAG_ERROR, "unknown command '%s' (did you mean '%s'?)", argv[1], best);
		else
			diag_plain(diag, DIAG_ERROR, "unknown command '%s'; see 'autotrace --help'", argv[1]);
		return EXIT_BAD_INPUT;
	}
	return cmd->run(argc - 1, argv + 1, diag);
}

/* --max-file-size SIZE: the bound of src_file_load. 0, or -1 after saying why. */
static int max_file_size(const char *text, struct diag *diag)
{
	uint64_t v;

	if (!text) {
		diag_plain(diag, DIAG_ERROR, "--max-file-size needs a size (bytes, or with K, M or G: 64M)");
		return -1;
	}
	if (byte_size_parse(text, &v) != 0) {
		diag_plain(diag, DIAG_ERROR, "--max-file-size '%s': not a size (bytes, or with K, M or G: 64M)", text);
		return -1;
	}
	if (v == 0 || v > SRC_FILE_MAX_LIMIT) {
		diag_plain(diag, DIAG_ERROR, "--max-file-size '%s': from 1 byte to %llu bytes (offsets are 32-bit)", text,
			   (unsigned long long)SRC_FILE_MAX_LIMIT);
		return -1;
	}
	src_file_set_max(v);
	return 0;
}

/* Takes the global options out of argv, wherever they stand before "--",
 * so that each command sees only its own. Returns the new argc, or -1 after
 * saying what is wrong with one. */
static int global_options(int argc, char **argv, struct diag *diag)
{
	int out = 1;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			while (i < argc)
				argv[out++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--allow-include-anywhere") == 0) {
			rule_load_allow_anywhere(true);
		} else if (strcmp(argv[i], "--project") == 0 || strncmp(argv[i], "--project=", 10) == 0) {
			const char *dir = argv[i][9] == '=' ? argv[i] + 10 : i + 1 < argc ? argv[++i] : NULL;
			if (!dir || !*dir) {
				diag_plain(diag, DIAG_ERROR, "--project needs a directory");
				return -1;
			}
			project_root_name(dir);
		} else if (strcmp(argv[i], "--max-file-size") == 0) {
			if (max_file_size(i + 1 < argc ? argv[++i] : NULL, diag) != 0)
				return -1;
		} else if (strncmp(argv[i], "--max-file-size=", 16) == 0) {
			if (max_file_size(argv[i] + 16, diag) != 0)
				return -1;
		} else {
			argv[out++] = argv[i];
		}
	}
	argv[out] = NULL;
	return out;
}

int main(int argc, char **argv)
{
	struct diag diag;
	int status;

	diag_init(&diag, stderr, diag_color_auto(stderr));
	diag.max_errors = DIAG_MAX_ERRORS;
	argc = global_options(argc, argv, &diag);
	status = argc < 0 ? EXIT_BAD_INPUT : run(argc, argv, &diag);
	/* a regex that gave up where no step reported it: said, and not a success */
	if (rule_regex_limits_report(&diag) > 0 && status < EXIT_BAD_INPUT)
		status = EXIT_BAD_INPUT;
	status = output_status(status, &diag);
	diag_finish(&diag);
	return status;
}
