#!/bin/sh
# CopyOps is only defined here; the caller is another script.
CopyOps() {
    mkdir -p "$2"
    cp -r "$1"/* "$2"
    ./build.sh
}
