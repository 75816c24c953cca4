#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tests/html/run.sh: `schedrec report html` in Debian's headless Chromium.
#
#   bash tests/html/run.sh [SCREENSHOT.png]
#
# Installs playwright-core (the version tests/html/package-lock.json pins,
# from the npm registry, into build/html-test; never into the tree), makes
# a 6 s recording with tracegen (trace.awk), writes its page with
# `schedrec report html --seconds 3`, and runs browser_test.js on it: the
# page loads from file:// with no console error and no request outside
# its directory, the heat map, timeline and flame graph are drawn, a click
# on a heat-map cell shows that second, and a screenshot is saved
# (default build/check/html-report.png).  Needs /usr/bin/chromium
# (Debian's chromium: tests/check.sh installs it), node and npm.
#
# Prints a TAP line per check ("ok N - ..." / "not ok N - ..."); exit
# status 0 if all passed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=$root/build/html-test
screenshot=${1:-$root/build/check/html-report.png}
bin=$root/build/user/schedrec
tracegen=$root/build/user-tests/tracegen

fail() {
	echo "not ok 1 - $1"
	[ -z "${2:-}" ] || tail -n 20 "$2" | sed 's/^/#   /'
	exit 1
}

mkdir -p "$out" "$(dirname "$screenshot")" || fail "create $out"
command -v node >/dev/null || fail "node is missing (apt-get install nodejs npm)"
[ -x /usr/bin/chromium ] ||
	fail "Debian's chromium is missing: /usr/bin/chromium (apt-get install chromium)"

# playwright-core, as pinned; again only when the lock file changed
if ! cmp -s "$here/package-lock.json" "$out/package-lock.json" ||
	[ ! -d "$out/node_modules/playwright-core" ]; then
	cp "$here/package.json" "$here/package-lock.json" "$out/" ||
		fail "copy package.json into $out"
	if ! (cd "$out" && npm ci --no-audit --no-fund --loglevel=error) \
		>"$out/npm.log" 2>&1; then
		rm -f "$out/package-lock.json"	# try again next time
		fail "npm ci of playwright-core (log: build/html-test/npm.log)" \
			"$out/npm.log"
	fi
fi

make -C "$root/user" all "$tracegen" >"$out/make.log" 2>&1 ||
	fail "build schedrec and tracegen (log: build/html-test/make.log)" \
		"$out/make.log"
awk -f "$here/trace.awk" >"$out/trace.txt" ||
	fail "awk -f tests/html/trace.awk"
"$tracegen" "$out/trace.txt" "$out/trace.srec" >"$out/tracegen.log" 2>&1 ||
	fail "tracegen trace.awk" "$out/tracegen.log"
rm -rf "$out/page"
"$bin" report html "$out/trace.srec" -o "$out/page" --seconds 3 \
	>"$out/report.log" 2>&1 ||
	fail "schedrec report html (log: build/html-test/report.log)" \
		"$out/report.log"

NODE_PATH=$out/node_modules exec node "$here/browser_test.js" \
	"$out/page/index.html" "$screenshot"
