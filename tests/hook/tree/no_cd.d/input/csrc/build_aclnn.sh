#!/bin/bash
# No cd at all: the build step runs where the script is started (its runner starts it in csrc);
# the tree is named from the script's own directory, wherever that is.
set -e
bash build.sh
