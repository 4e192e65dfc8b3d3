/* Allocation wrappers that abort on exhaustion, so callers never test for NULL. */
#ifndef AUTOTRACE_XALLOC_H
#define AUTOTRACE_XALLOC_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void xalloc_die(void)
{
	fputs("autotrace: out of memory\n", stderr);
	exit(3);
}

static inline void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		xalloc_die();
	return p;
}

static inline void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		xalloc_die();
	return p;
}

static inline void *xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);
	if (!p)
		xalloc_die();
	return p;
}

static inline char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static inline char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

/* vprintf into a newly allocated string; `ap` is consumed. */
static inline __attribute__((format(printf, 1, 0))) char *xvasprintf(const char *fmt, va_list ap)
{
	va_list count;
	char *s;
	int n;

	va_copy(count, ap);
	n = vsnprintf(NULL, 0, fmt, count);
	va_end(count);
	s = xmalloc((size_t)n + 1);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return s;
}

/* printf into a newly allocated string. */
static inline __attribute__((format(printf, 1, 2))) char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/* qsort for arrays that may be empty and NULL: glibc declares qsort's base
 * nonnull, so qsort(NULL, 0, ...) is undefined behaviour (UBSan stops on it). */
static inline void xqsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* Grow an array so that index `need - 1` fits; doubles the capacity. */
#define XGROW(ptr, cap, need)                                              \
	do {                                                                   \
		if ((need) > (cap)) {                                              \
			size_t xg_cap_ = (cap) ? (cap) : 8;                            \
			while (xg_cap_ < (need))                                       \
				xg_cap_ *= 2;                                              \
			(ptr) = xrealloc((ptr), xg_cap_ * sizeof(*(ptr)));             \
			(cap) = xg_cap_;                                               \
		}                                                                  \
	} while (0)

#endif
