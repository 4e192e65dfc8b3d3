/* Comparing source text as the readers mean it: equal but for blanks
 * (spaces, tabs, line ends), as "<int, 2>" and "<int,2>" or a declaration
 * split over lines. */
#ifndef AUTOTRACE_TEXT_COMPARE_H
#define AUTOTRACE_TEXT_COMPARE_H

#include <stdbool.h>

bool text_same_but_blanks(const char *a, const char *b);

#endif
