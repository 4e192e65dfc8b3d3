#!/bin/bash
# The build step in a directory only the environment names.
set -e
cd "$OPS_BUILD_DIR"
bash build.sh
