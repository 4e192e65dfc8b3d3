/* The subcommand table built from commands.def. */
#include "commands.h"

#include <string.h>

const struct command command_table[] = {
#define COMMAND(name, summary) { #name, summary, cmd_##name },
#include "commands.def"
#undef COMMAND
};

const unsigned command_count = sizeof(command_table) / sizeof(command_table[0]);

const struct command *command_find(const char *name)
{
	for (unsigned i = 0; i < command_count; i++)
		if (strcmp(command_table[i].name, name) == 0)
			return &command_table[i];
	return NULL;
}
