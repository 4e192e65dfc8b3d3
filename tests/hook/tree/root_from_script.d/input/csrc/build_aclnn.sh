#!/bin/bash
# The project's top computed from the script's own place, wherever it is run from.
set -e
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT/csrc"
bash build.sh
