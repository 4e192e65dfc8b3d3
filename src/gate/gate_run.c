/* The gates as one table (from gate_list.h): the check each runs, its phase,
 * its help; and running the selected ones in phase order. */
#include "gate_run.h"

#include <string.h>
#include <strings.h>

static const struct gate_def gate_defs[GATE_COUNT] = {
#define X(e, fn, id_, phase_, title_, help_) { .id = id_, .title = title_, .help = help_, .phase = phase_, .check = fn },
	GATE_LIST(X)
#undef X
};

const struct gate_def *gate_def(enum gate_id g)
{
	return &gate_defs[g];
}

int gate_find(const char *name)
{
	for (int g = 0; g < GATE_COUNT; g++)
		if (strcasecmp(name, gate_defs[g].id) == 0)
			return g;
	return -1;
}

const char *gate_ids_text(void)
{
	static const char ids[] = ""
#define X(e, fn, id, phase, title, help) ", " id
		GATE_LIST(X)
#undef X
		;
	return ids + 2;
}

void gate_print_help(FILE *out)
{
	for (int g = 0; g < GATE_COUNT; g++) {
		const char *line = gate_defs[g].help;
		fprintf(out, "  %-4s", gate_defs[g].id);
		for (;;) {
			size_t n = strcspn(line, "\n");
			fprintf(out, "%.*s\n", (int)n, line);
			if (!line[n])
				break;
			line += n + 1;
			fputs("      ", out);
		}
	}
}

void gate_run_order(enum gate_id order[GATE_COUNT])
{
	static const enum gate_phase phases[] = { GATE_READS_SOURCES, GATE_BUILDS, GATE_READS_BUILD };
	size_t k = 0;

	for (size_t i = 0; i < sizeof(phases) / sizeof(phases[0]); i++)
		for (int g = 0; g < GATE_COUNT; g++)
			if (gate_defs[g].phase == phases[i])
				order[k++] = (enum gate_id)g;
}

void gate_run(struct project_model *p, struct gate_report *r)
{
	enum gate_id order[GATE_COUNT];

	gate_run_order(order);
	for (size_t i = 0; i < GATE_COUNT; i++)
		if (r->gates[order[i]].run)
			gate_defs[order[i]].check(p, r);
	gate_settle(r);
}

