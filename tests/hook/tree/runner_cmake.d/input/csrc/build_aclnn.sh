#!/bin/bash
# Run from csrc by CMake's execute_process: its relative cd is followed from there.
set -e
cd ../csrc
bash build.sh
