#!/bin/bash
# The build step runs outside the project.
set -e
cd /tmp
bash build.sh
