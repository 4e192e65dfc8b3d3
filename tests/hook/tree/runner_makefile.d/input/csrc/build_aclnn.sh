#!/bin/bash
# Run from csrc by the Makefile's recipe.
set -e
cd ../csrc
bash build.sh
