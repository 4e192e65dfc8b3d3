#!/bin/bash
set -e
cd csrc
bash build.sh
