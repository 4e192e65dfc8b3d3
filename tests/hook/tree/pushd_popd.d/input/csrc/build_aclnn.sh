#!/bin/bash
# pushd into the sources, the build, popd back.
set -e
pushd csrc >/dev/null
bash build.sh
popd >/dev/null
echo "built in $(pwd)"
