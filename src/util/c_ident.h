/* C and C++ identifier characters (ASCII, whatever the locale): the one test
 * of every reader that picks names out of source or rules text. */
#ifndef AUTOTRACE_C_IDENT_H
#define AUTOTRACE_C_IDENT_H

#include <stdbool.h>

/* Can an identifier start with c? */
static inline bool c_ident_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

/* Can an identifier hold c? */
static inline bool c_ident_char(char c)
{
	return c_ident_start(c) || (c >= '0' && c <= '9');
}

#endif
