/* The value of a string literal as every reader of trace point labels takes
 * it (the C++ parser for scan and plan, check, and the scanner of
 * preprocess): a label's identity across the commands depends on their
 * agreeing, so there is one definition. The escapes of C++: the simple
 * ones (\n \t \r \a \b \f \v, and \" \' \\ \? standing for themselves), octal
 * (\033, up to three digits), hex (\x1b, every digit, the value kept to a
 * byte), \uXXXX and \UXXXXXXXX as UTF-8; an unknown escape stands for its
 * letter. Lines continued with a backslash are joined first (phase 2), so
 * that a label is the text the compiler sees. */
#ifndef AUTOTRACE_STRING_LITERAL_H
#define AUTOTRACE_STRING_LITERAL_H

#include <stddef.h>

/* The length of the line splice at p (translation phase 2: a backslash
 * and the newline after it, which the compiler removes before it reads a
 * token), or 0 when there is none before `end`. Blanks between the
 * backslash and the newline still splice, as GCC and clang take them (with
 * a warning); so does a CR before the newline. */
size_t string_literal_splice(const char *p, const char *end);

/* Unescapes the literal's body [s, e) (the text between the quotes) into
 * `out`, which has room for e - s + 1 bytes, NUL-terminates it and returns
 * its length (a NUL written as an escape counts: the length can exceed
 * strlen(out)). Line splices go first, as in the compiler: "a\<newline>b"
 * is "ab", and a backslash spliced to the next line escapes what follows
 * the splice. */
size_t string_literal_unescape(const char *s, const char *e, char *out);

#endif
