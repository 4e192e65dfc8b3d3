/* Scratch writes (edit_scratch.h). */
#include "edit_scratch.h"

static bool scratch;

void edit_scratch_set(bool on)
{
	scratch = on;
}

bool edit_scratch(void)
{
	return scratch;
}
