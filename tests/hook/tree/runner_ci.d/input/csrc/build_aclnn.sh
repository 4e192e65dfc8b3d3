#!/bin/bash
# Run from csrc by a CI step: its relative cd is followed from there.
set -e
cd ../csrc
bash build.sh
