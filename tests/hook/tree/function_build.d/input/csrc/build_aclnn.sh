#!/bin/bash
# The build step inside a function, in the directory its caller gives.
set -e
build_in() {
    local dir=$1
    cd "$dir"
    bash build.sh
}
build_in csrc
