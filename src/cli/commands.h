/* The subcommand table: every command has the same signature and parses its
 * own options (argv[0] is the command name). */
#ifndef AUTOTRACE_COMMANDS_H
#define AUTOTRACE_COMMANDS_H

#include "diag.h"

typedef int (*cmd_fn)(int argc, char **argv, struct diag *diag);

struct command {
	const char *name;
	const char *summary;
	cmd_fn run;
};

#define COMMAND(name, summary) int cmd_##name(int argc, char **argv, struct diag *diag);
#include "commands.def"
#undef COMMAND

extern const struct command command_table[];
extern const unsigned command_count;

const struct command *command_find(const char *name);

#endif
