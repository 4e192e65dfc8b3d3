/* The shell words autotrace writes into a build script: a tree given by the
 * user (--tree, the rules' `hook tree`) or found in the script is shell code
 * once written, so it is either a plain path, written quoted, or a word made
 * only of quoted text and $NAME / ${NAME} expansions (${NAME:-DEFAULT} too,
 * the default made of path characters and such expansions); anything else
 * (command substitution, backquotes, `;`, `&`, `|`, a newline, an unbalanced
 * quote, an unquoted blank or glob) is refused. Also the quoting of the
 * paths autotrace prints in commands for the user to run. */
#ifndef AUTOTRACE_SH_WORD_H
#define AUTOTRACE_SH_WORD_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

enum sh_word_kind {
	SH_WORD_BAD = -1,
	SH_WORD_PLAIN,    /* a path with no shell syntax in it: written quoted */
	SH_WORD_EXPANDS,  /* quoted text and $NAME / ${NAME} / ${NAME:-DEFAULT} expansions, written as it is */
};

/* What `w` is. For SH_WORD_BAD, *at is the offset of the first byte that
 * makes it so, *len how many bytes to mark there, and *why says why (static
 * text). */
enum sh_word_kind sh_word_check(const char *w, size_t *at, size_t *len, const char **why);

/* Checks a tree given by the user (--tree, the rules' `hook tree`): `at` is
 * where its text was given -- the text itself, or with `quoted` a rules
 * string literal (its quote and escapes are skipped to find the column).
 * Reports a located error and returns -1 when it is SH_WORD_BAD, else 0. */
int sh_word_check_at(const char *tree, struct src_loc at, bool quoted, struct diag *diag);

/* A word the shell reads back as the text `s`: `s` itself when it holds only
 * [A-Za-z0-9_./,:@%+=-], else single-quoted. Newly allocated. */
char *sh_quote(const char *s);

/* The word to write for a tree that passed sh_word_check: a plain path
 * quoted, an expanding word as it is. Newly allocated. */
char *sh_word_for(const char *w);

/* The word naming `rel` (a relative path, "." for none) below the directory
 * `word` names: "\"${ROOT}/csrc\"" and "mc2/op" give "\"${ROOT}/csrc/mc2/op\"".
 * Newly allocated. */
char *sh_word_join(const char *word, const char *rel);

#endif
