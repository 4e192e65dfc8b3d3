#!/bin/bash
# A cd in a subshell ends with it; the build step in a one-line subshell of its own: the block goes
# before that line, outside it.
set -e
(cd csrc/mc2 && ls >/dev/null)
(cd csrc && bash build.sh)
