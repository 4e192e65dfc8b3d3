/* Replays a LLVMFuzzerTestOneInput target without a fuzzing engine, for
 * `make check`: over the seed files given on the command line, or (bare) over
 * every file under $TOP_SRCDIR/FUZZ_SEEDS (directories separated by ':')
 * whose name ends in one of FUZZ_SUFFIXES (both set per target at compile
 * time). Each seed runs whole,
 * cut at many lengths ("chop"), with bytes flipped, zeroed, deleted and
 * replaced by syntax characters. Every run gets a private copy of exactly its
 * length, so a read past the end is caught by ASan or valgrind. Prints TAP,
 * one line per seed; a crash fails the test. The same targets build for
 * libFuzzer and AFL++ (see tests/fuzz/README). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef FUZZ_SEEDS
#define FUZZ_SEEDS "tests/collect/fixtures"
#endif
#ifndef FUZZ_SUFFIXES
#define FUZZ_SUFFIXES "" /* space-separated; empty: every file */
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long runs;
static unsigned nseeds;

static void one(const unsigned char *data, size_t len)
{
	unsigned char *copy = malloc(len ? len : 1);

	if (!copy)
		abort();
	memcpy(copy, data, len);
	LLVMFuzzerTestOneInput(copy, len);
	free(copy);
	runs++;
}

static void mutate(const unsigned char *data, size_t len)
{
	static const unsigned char flips[] = { 0xFF, 0x01, 0x80 };
	static const char noise[] = "{}()<>\"'#\\/*\n;:,[]";
	size_t step = len / 97 + 1;
	unsigned char *m = malloc(len + 1);
	unsigned seed = 1;

	if (!m)
		abort();
	one(data, len);
	for (size_t cut = 0; cut < len; cut += (cut < 64 ? 1 : step))
		one(data, cut);
	memcpy(m, data, len);
	for (size_t i = 0; i < len; i += (i < 128 ? 1 : step)) {
		for (size_t f = 0; f < sizeof(flips); f++) {
			m[i] ^= flips[f];
			one(m, len);
			m[i] ^= flips[f];
		}
		m[i] = 0;
		one(m, len);
		m[i] = data[i];
	}
	for (int round = 0; round < 64 && len > 0; round++) {
		size_t at;
		memcpy(m, data, len);
		seed = seed * 1103515245u + 12345u;
		at = (seed >> 8) % len;
		if (round % 2) {
			m[at] = (unsigned char)noise[(seed >> 4) % (sizeof(noise) - 1)];
			one(m, len);
		} else {
			memmove(m + at, m + at + 1, len - at - 1);
			one(m, len - 1);
		}
	}
	free(m);
}

static void seed_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf;
	long len;

	if (!f) {
		printf("not ok %u - %s (unreadable)\n", ++nseeds, path);
		return;
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	if (buf && fread(buf, 1, (size_t)len, f) == (size_t)len)
		mutate(buf, (size_t)len);
	fclose(f);
	free(buf);
	printf("ok %u - %s\n", ++nseeds, path);
	fflush(stdout);
}

static int wanted(const char *name)
{
	const char *s = FUZZ_SUFFIXES;
	size_t nl = strlen(name);

	if (!*s)
		return 1;
	while (*s) {
		size_t k = strcspn(s, " ");
		if (k && nl >= k && memcmp(name + nl - k, s, k) == 0)
			return 1;
		s += k;
		s += strspn(s, " ");
	}
	return 0;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;

	if (!d)
		return;
	while ((e = readdir(d))) {
		size_t l;
		if (e->d_name[0] == '.')
			continue;
		l = strlen(dir) + strlen(e->d_name) + 2;
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!names || !(names[n] = malloc(l)))
			abort();
		snprintf(names[n++], l, "%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp);
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0) {
			if (S_ISDIR(st.st_mode))
				walk(names[i]);
			else if (st.st_size < (1 << 20) && wanted(names[i]))
				seed_file(names[i]);
		}
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	const char *top = getenv("TOP_SRCDIR");
	char dir[4096];

	if (argc > 1) {
		for (int i = 1; i < argc; i++)
			seed_file(argv[i]);
	} else {
		/* FUZZ_SEEDS may name several directories, separated by ':' */
		for (const char *s = FUZZ_SEEDS; *s;) {
			size_t k = strcspn(s, ":");
			snprintf(dir, sizeof(dir), "%s/%.*s", top ? top : ".", (int)k, s);
			walk(dir);
			s += k + (s[k] == ':');
		}
	}
	if (nseeds == 0)
		printf("not ok 1 - no seed found under %s\n", FUZZ_SEEDS);
	printf("1..%u\n# %lu inputs\n", nseeds ? nseeds : 1, runs);
	return nseeds == 0;
}
