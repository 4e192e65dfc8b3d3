#!/bin/bash
# A function of the script does the cd, given the directory as its argument.
set -e
enter() {
    cd "$1" || exit 1
    echo "in $(pwd)"
}
enter csrc
bash build.sh
