#include "op.h"
