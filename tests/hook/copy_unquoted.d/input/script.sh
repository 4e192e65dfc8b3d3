#!/bin/bash
# The copy's destination unquoted in the script ($BUILD_DIR and ${OP:-op}): the block writes it
# again with each expansion inside double quotes, so that it neither splits nor globs there.
BUILD_DIR=${1:-./build_out}
cp -r ./op_host ./op_kernel $BUILD_DIR/${OP:-op}
cmake --build $BUILD_DIR -j8
