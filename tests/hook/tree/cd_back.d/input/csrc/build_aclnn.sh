#!/bin/bash
# cd - goes back where the cd before came from.
set -e
cd csrc
cd mc2
cd -
bash build.sh
