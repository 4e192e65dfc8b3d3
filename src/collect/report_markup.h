/* Escapes for report's HTML and SVG: text and attribute values (XML), JSON
 * strings safe inside a <script> element, and the number formats the
 * pages show. Bytes that are not UTF-8 become U+FFFD (a label is anyone's). */
#ifndef AUTOTRACE_REPORT_MARKUP_H
#define AUTOTRACE_REPORT_MARKUP_H

#include <stdint.h>

#include "strbuf.h"

/* `s` as XML text or attribute value: & < > " ' escaped. */
void markup_text(struct strbuf *b, const char *s);
/* `s` as a JSON string with its quotes; < > & as \u escapes (no "</script>"). */
void markup_json_string(struct strbuf *b, const char *s);
/* printf into `b`. */
void markup_printf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A duration for people: "812 ns", "12.3 us", "4.56 ms", "1.23 s". */
void markup_duration(struct strbuf *b, uint64_t ns);

#endif
