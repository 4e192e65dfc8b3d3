#!/bin/bash
# Run from csrc by tools/build_all.sh: its relative cd is followed from there.
set -e
cd ../csrc
bash build.sh
