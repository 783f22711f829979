#!/usr/bin/env bash
# Runs the published-ably-js conformance adapter against every ably version
# pinned in conformance/ably-js-versions/package-lock.json and prints a
# table per version and area: passed, failed, known differences, the
# decisions outside the spec's domain, and what changed from the version
# before (see docs/conformance.md, "Published ably-js versions").
# Needs Go and Node.js 20 with npm; takes about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
(cd conformance/ably-js-versions && npm ci --no-audit --no-fund --loglevel=error --ignore-scripts)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/reconnect" ./cmd/reconnect
node conformance/ably-js-versions/run.mjs "$tmp/reconnect"
