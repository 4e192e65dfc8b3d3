#!/bin/bash
# The build step after a relative cd: the script is run from the top of the project.
set -e
cd csrc
bash build.sh
