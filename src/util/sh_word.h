/* The shell words autotrace writes into a build script: a tree given by the
 * user (--tree, the rules' `hook tree`), found in the script or made of a
 * path (the operator directory) is shell code once written, so it is either
 * a plain path, written single-quoted, or a word made only of quoted text and
 * $NAME / ${NAME} expansions (${NAME:-DEFAULT} too, the default made of path
 * characters and such expansions); anything else (command substitution,
 * backquotes, `;`, `&`, `|` outside single quotes, a newline or another
 * control character anywhere, an unbalanced quote, an unquoted blank or
 * glob) is refused. A literal path reaches a script through sh_word_literal
 * alone. Also the quoting of the paths autotrace prints in commands for the
 * user to run (sh_quote). */
#ifndef AUTOTRACE_SH_WORD_H
#define AUTOTRACE_SH_WORD_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

enum sh_word_kind {
	SH_WORD_BAD = -1,
	SH_WORD_PLAIN,    /* a path with no shell syntax in it: written quoted */
	SH_WORD_EXPANDS,  /* quoted text and $NAME / ${NAME} / ${NAME:-DEFAULT} expansions (single-quoted text
	                     may hold any byte but a quote and a control character; \' stands for a quote
	                     between quoted parts), written as it is */
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
 * [A-Za-z0-9_./,:@%+=-], else single-quoted, each quote written '\''. For
 * commands printed for the user (a newline stays inside the quotes). Newly
 * allocated. */
char *sh_quote(const char *s);

/* Can the text `s` stand on one line of a script: no newline, no other
 * control character? */
bool sh_word_one_line(const char *s);

/* The word to write into a build script for the literal text `s` (a path):
 * sh_quote(s), or NULL when `s` is empty or holds a newline or another
 * control character -- the block is read back line by line, and a line of a
 * path could pass for one of its markers. Every path autotrace writes into a
 * script goes through here. Newly allocated. */
char *sh_word_literal(const char *s);

/* A word of a build script (shell syntax as the script writes it: a copy's
 * destination) written again with the same meaning, and nothing in it that
 * splits or globs where it is run: each unquoted $NAME, ${NAME} or
 * ${NAME:-DEFAULT} expansion put inside double quotes ($X/out gives
 * "$X"/out), unquoted text holding another shell character single-quoted,
 * quoted parts as they are, a leading tilde prefix (~ or ~USER, then '/' or
 * the end: a home directory, no code) kept unquoted. NULL when it cannot
 * be: what sh_word_check refuses in it, an unquoted glob or brace (its
 * meaning is other words or file names), a '~' that starts no tilde
 * prefix; then *at, *len and *why say where and why, as sh_word_check
 * does. Newly allocated. */
char *sh_word_requote(const char *w, size_t *at, size_t *len, const char **why);

/* The word to write for a tree that passed sh_word_check: a plain path
 * quoted (sh_word_literal), an expanding word with its expansions quoted
 * (sh_word_requote). Newly allocated. */
char *sh_word_for(const char *w);

/* The word naming `rel` (a relative path, "." for none) below the directory
 * `word` names: "\"${ROOT}/csrc\"" and "mc2/op" give "\"${ROOT}/csrc/mc2/op\"",
 * "$ROOT" and "my op" give "$ROOT/'my op'". NULL when `rel` cannot be
 * written (sh_word_literal). Newly allocated. */
char *sh_word_join(const char *word, const char *rel);

/* The text the shell reads the word `w` as, quotes removed, when `w` is a
 * word sh_word_check accepts and expands nothing (no $, no unquoted blank,
 * glob or '~'); else NULL. The reading
 * back of what sh_word_literal wrote (the fuzz target of the block writer
 * holds them to each other). Newly allocated. */
char *sh_word_unquote(const char *w);

#endif
