#!/bin/bash
# Run by setup.py in csrc (cwd=).
set -e
cd ../csrc
bash build.sh
