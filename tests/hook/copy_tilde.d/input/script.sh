#!/bin/bash
# The copy writes below a home directory: the tilde prefix is written again unquoted (it expands to
# a directory, runs nothing), the rest of the word as the script means it, $OP quoted.
cp -r ./op_host ./op_kernel ~/build/$OP
cmake --build ~/build -j8
