#!/bin/sh
# Builds in place: nothing is copied into a build tree.
set -e
cd op_kernel
make -j4
