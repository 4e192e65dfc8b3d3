#!/bin/sh
# The sources copied by cp itself, options first (the anchor: --after ^cp); the build by cmake.
cp -r -f ./op_host ./op_kernel "${BUILD_DIR:-build}/src/"
cmake --build "${BUILD_DIR:-build}" -j8
