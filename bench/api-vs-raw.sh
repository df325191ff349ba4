#!/usr/bin/env bash
# Throughput of a Labrador endpoint as a ratio to a raw node:http server on the same machine, in the same
# run: a ratio stays comparable on a noisy machine. The raw baseline checks PRIVATE-TOKEN, matches the route with a regex and
# JSON.stringify()s the very body the target answered, so both sides send the same bytes.
#
#   bench/api-vs-raw.sh <base-url> <token> <path> [rounds=5] [seconds=5] [connections=32]
#   bench/api-vs-raw.sh http://127.0.0.1:8080 "$TOKEN" /api/v3/user
#
# Rounds alternate the order of the two targets; req/s, p50 and p99 are medians over the rounds, and the
# ratio is the median of the per-round ratios. The last line is `ratio target/raw req/s: X.XXX`.
set -euo pipefail

if [ $# -lt 3 ]; then
  sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
BASE=${1%/}
TOKEN=$2
URLPATH=$3
ROUNDS=${4:-5}
SECONDS_PER_ROUND=${5:-5}
CONNECTIONS=${6:-32}

command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
command -v node >/dev/null || { echo "node is not installed" >&2; exit 2; }

WORK=$(mktemp -d)
RAW_PID=
cleanup() {
  if [ -n "$RAW_PID" ]; then kill "$RAW_PID" 2>/dev/null || true; wait "$RAW_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# The body the target answers, which the baseline will serve.
STATUS=$(curl -s -o "$WORK/body.json" -w '%{http_code}' -H "PRIVATE-TOKEN: $TOKEN" "$BASE$URLPATH")
if [ "$STATUS" != 200 ]; then
  echo "target answered $STATUS for GET $BASE$URLPATH; expected 200" >&2
  exit 1
fi

cat > "$WORK/raw.mjs" <<'JS'
import http from 'node:http';
import fs from 'node:fs';
const [bodyFile, token, path] = process.argv.slice(2);
const entity = JSON.parse(fs.readFileSync(bodyFile, 'utf8'));
const escaped = path.split('?')[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const route = new RegExp(`^${escaped}(\\?.*)?$`);
const server = http.createServer((request, response) => {
  if (request.headers['private-token'] !== token) {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end('{"message":"401 Unauthorized"}');
    return;
  }
  if (!route.test(request.url)) {
    response.writeHead(404, { 'content-type': 'application/json' });
    response.end('{"error":"404 Not Found"}');
    return;
  }
  const body = JSON.stringify(entity);
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
JS
node "$WORK/raw.mjs" "$WORK/body.json" "$TOKEN" "$URLPATH" > "$WORK/raw.port" &
RAW_PID=$!
for _ in $(seq 1 50); do [ -s "$WORK/raw.port" ] && break; sleep 0.1; done
RAW_URL="http://127.0.0.1:$(cat "$WORK/raw.port")"

# One wrk run: prints "rps p50ms p99ms non2xx errors".
run_wrk() {
  local url=$1 seconds=$2
  wrk -t1 -c"$CONNECTIONS" -d"${seconds}s" --latency -H "PRIVATE-TOKEN: $TOKEN" "$url$URLPATH" 2>&1 |
    awk '
      function ms(v) {
        if (v ~ /us$/) return substr(v, 1, length(v) - 2) / 1000;
        if (v ~ /ms$/) return substr(v, 1, length(v) - 2) + 0;
        if (v ~ /s$/) return substr(v, 1, length(v) - 1) * 1000;
        return v + 0;
      }
      /Requests\/sec:/ { rps = $2 }
      $1 == "50%" { p50 = ms($2) }
      $1 == "99%" { p99 = ms($2) }
      /Non-2xx or 3xx responses:/ { non2xx = $NF }
      /Socket errors:/ { errors = $0; sub(/.*Socket errors: /, "", errors); gsub(/[^0-9]+/, "+", errors); errors = errors "0" }
      END { printf "%s %s %s %d %s\n", rps, p50, p99, non2xx, (errors == "" ? "0" : errors) }'
}

echo "warm-up: 1 s each"
run_wrk "$RAW_URL" 1 >/dev/null
run_wrk "$BASE" 1 >/dev/null

: > "$WORK/results"
for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) -eq 1 ]; then order="raw target"; else order="target raw"; fi
  for which in $order; do
    if [ "$which" = raw ]; then url=$RAW_URL; else url=$BASE; fi
    line=$(run_wrk "$url" "$SECONDS_PER_ROUND")
    echo "$round $which $line" >> "$WORK/results"
    read -r rps p50 p99 non2xx _ <<< "$line"
    printf 'round %d %-6s req/s %10s  p50 %7s ms  p99 %7s ms  non2xx %s\n' "$round" "$which" "$rps" "$p50" "$p99" "$non2xx"
  done
done

node - "$WORK/results" <<'JS'
const fs = require('node:fs');
const rows = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n').map((line) => {
  const [round, which, rps, p50, p99, non2xx] = line.split(' ');
  return { round: Number(round), which, rps: Number(rps), p50: Number(p50), p99: Number(p99), non2xx: Number(non2xx) };
});
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const of = (which, key) => median(rows.filter((row) => row.which === which).map((row) => row[key]));
const ratios = [];
for (const round of new Set(rows.map((row) => row.round))) {
  const raw = rows.find((row) => row.round === round && row.which === 'raw');
  const target = rows.find((row) => row.round === round && row.which === 'target');
  ratios.push(target.rps / raw.rps);
}
const failures = rows.filter((row) => row.which === 'target').reduce((sum, row) => sum + row.non2xx, 0);
console.log('');
console.log('          median req/s   p50 ms   p99 ms');
for (const which of ['raw', 'target']) {
  console.log(`${which.padEnd(8)} ${of(which, 'rps').toFixed(0).padStart(14)} ${of(which, 'p50').toFixed(2).padStart(8)} ${of(which, 'p99').toFixed(2).padStart(8)}`);
}
console.log(`p50 target/raw: ${(of('target', 'p50') / of('raw', 'p50')).toFixed(2)}x  p99 target/raw: ${(of('target', 'p99') / of('raw', 'p99')).toFixed(2)}x`);
if (failures > 0) console.log(`WARNING: the target answered ${failures} non-2xx responses`);
console.log(`ratio target/raw req/s: ${median(ratios).toFixed(3)}`);
JS
