#include "op.h"
#include "helper.h"
