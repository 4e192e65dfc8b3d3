/* A scanner for the shell build scripts of operator projects (bash/sh): splits
 * a script into simple commands with byte ranges, knowing quotes, comments,
 * here-documents, line continuations, `{ }` groups and function definitions,
 * so that the G1 hook can be placed in the flow that really runs.
 * Redirections (`> log`, `2>&1`, `&>/dev/null`) are not words of a command. */
#ifndef AUTOTRACE_SH_SCAN_H
#define AUTOTRACE_SH_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sh_word {
	uint32_t start, end;        /* as written, quotes included */
};

struct sh_cmd {
	uint32_t start, end;        /* the simple command, first word to last (no comment) */
	uint32_t line_start;        /* start of the line holding the first word */
	uint32_t line_end;          /* just past the newline ending its logical line */
	int func;                   /* index of the function whose body holds it, or -1 */
	int defines;                /* index of the function this command defines, or -1 */
	int subshell;               /* the innermost subshell holding it (sh_script.subshells), or -1 */
	struct sh_word *words;      /* owned */
	size_t nwords;
};

struct sh_func {
	char *name;                 /* owned */
	uint32_t start;             /* the definition's first word */
	uint32_t body_end;          /* just past the closing '}' (or the end of the script) */
	int parent;                 /* enclosing function, or -1 */
	int header_cmd;             /* the sh_cmd of `name() {` */
};

/* A subshell: `( ... )`, a function body written `name() ( ... )`, `<( ... )`.
 * What runs inside it (cd, assignments) does not outlive it. */
struct sh_subshell {
	uint32_t start;             /* the '(' */
	uint32_t end;               /* just past the ')' (or the end of the script) */
	int parent;                 /* the enclosing subshell, or -1 */
};

struct sh_script {
	const char *data;           /* not owned */
	size_t len;
	struct sh_cmd *cmds;
	size_t ncmds, cap_cmds;
	struct sh_func *funcs;
	size_t nfuncs, cap_funcs;
	struct sh_subshell *subshells;
	size_t nsubshells, cap_subshells;
	uint32_t unclosed;          /* offset of an unclosed quote/group, or UINT32_MAX */
	const char *unclosed_what;
};

/* Scans `len` bytes of `data` (kept by reference). Never fails; what it cannot
 * close (a quote, a group) is noted in `unclosed`. */
void sh_scan(const char *data, size_t len, struct sh_script *out);
void sh_script_release(struct sh_script *s);

/* The function named `name`, or -1. */
int sh_find_func(const struct sh_script *s, const char *name, size_t len);

/* The index of the first word of `c` that is not an assignment NAME=value
 * (the command word), or -1. */
long sh_cmd_word(const struct sh_script *s, const struct sh_cmd *c);

/* True when command `cmd` runs when the script runs: it is at the top level,
 * or inside a function that a running command calls. */
bool sh_cmd_reachable(const struct sh_script *s, size_t cmd);

/* True when command `cmd`'s effects on the shell (cd, assignments) are
 * still there at offset `at` of the script: every subshell holding the
 * command holds `at` too. */
bool sh_cmd_visible_at(const struct sh_script *s, size_t cmd, uint32_t at);

/* The word `w` of `cmd` with quotes removed when it is a plain quoted word;
 * newly allocated. */
char *sh_word_text(const struct sh_script *s, const struct sh_word *w);

#endif
