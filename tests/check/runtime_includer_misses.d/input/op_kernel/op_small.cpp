#include "helper.h"
#include "op.h"
