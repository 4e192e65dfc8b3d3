#!/bin/bash
# Builds everything from the top of the project.
set -e
cd "$(dirname "$0")/.."
echo "building the custom ops with csrc/build_aclnn.sh"
(cd csrc && bash build_aclnn.sh)
