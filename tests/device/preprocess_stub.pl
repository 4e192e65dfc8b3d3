#!/usr/bin/perl
# preprocess_stub.pl MAP FILE... - the tests' stand-in for `autotrace preprocess`: rewrites each
# TRACE_POINT("label", "B|E") call in the given files (in place, in argument order) into an id
# from 1 and writes "id<TAB>event<TAB>label" lines to MAP. Only string-literal calls match, so
# the runtime's own #define TRACE_POINT(label, event) is left alone.
use strict;
use warnings;
my $map = shift @ARGV or die "usage: preprocess_stub.pl MAP FILE...\n";
open(my $m, '>', $map) or die "$map: $!\n";
my $id = 0;
for my $f (@ARGV) {
    open(my $in, '<', $f) or die "$f: $!\n";
    local $/;
    my $text = <$in>;
    close $in;
    $text =~ s/TRACE_POINT\(\s*"([^"]*)"\s*,\s*"([BE])"\s*\)/$id++; print $m "$id\t$2\t$1\n"; $id/ge;
    open(my $out, '>', $f) or die "$f: $!\n";
    print $out $text;
    close $out;
}
close $m;
