#!/usr/bin/env bash
# A real full disk under a running `kairos serve`: its data directory on a 4 MB tmpfs, mounted
# in a private mount namespace (unshare, no root needed), filled up while a job is due every
# minute. Prints the server's CPU use while the disk is full and how long it takes, once space
# is freed, until the job fires again. Figures go to docs/benchmarks.md ("Full disk").
# Usage: bash scripts/bench-disk-full.sh [SECONDS_FULL]   (default 90)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/kairos-target}"
FULL_FOR="${1:-90}"

cargo build -q --release -p kairos-cli
KAIROS="$CARGO_TARGET_DIR/release/kairos"
TOKEN="disk-full-bench-token-0123456789abcdef"
WORK="$(mktemp -d)"
trap 'kill $SERVER $TARGET 2>/dev/null || true; rm -rf "$WORK"' EXIT

# The target: counts requests, prints each arrival time.
python3 - "$WORK/target.port" > "$WORK/hits" <<'EOF' &
import http.server, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        print(time.time(), flush=True)
        self.send_response(200); self.end_headers()
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_port))
s.serve_forever()
EOF
TARGET=$!
until [ -s "$WORK/target.port" ]; do sleep 0.1; done
TARGET_PORT=$(cat "$WORK/target.port")

mkdir -p "$WORK/mnt"
unshare --user --map-root-user --mount sh -c "
  mount -t tmpfs -o size=4m tmpfs '$WORK/mnt' &&
  KAIROS_API_TOKEN=$TOKEN RUST_LOG=info exec '$KAIROS' serve --listen 127.0.0.1:0 --data-dir '$WORK/mnt/data'
" > "$WORK/serve.out" 2> "$WORK/serve.log" &
SERVER=$!
until grep -q listening "$WORK/serve.out" 2>/dev/null; do sleep 0.1; done
BASE=$(sed -n 's/^listening on //p' "$WORK/serve.out")
# The server's own process (unshare execs sh, which execs kairos: same pid) and its view of
# the tmpfs.
ROOT="/proc/$SERVER/root$WORK/mnt"
api() { curl -sf -X PUT -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' "$BASE$1?api-version=2016-03-01" -d "$2" > /dev/null; }
api /subscriptions/s/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/jc \
  '{"location": "West US", "properties": {"sku": {"name": "Standard"}}}'
api /subscriptions/s/resourceGroups/rg/providers/Microsoft.Scheduler/jobCollections/jc/jobs/tick \
  "{\"properties\": {\"startTime\": \"2020-01-01T00:00:00Z\", \"recurrence\": {\"frequency\": \"Minute\"},
    \"action\": {\"type\": \"Http\", \"request\": {\"uri\": \"http://127.0.0.1:$TARGET_PORT/tick\", \"method\": \"GET\"}}}}"

cpu_ticks() { awk '{print $14 + $15}' "/proc/$SERVER/stat"; }
HZ=$(getconf CLK_TCK)

echo "filling the 4 MB file system"
dd if=/dev/zero of="$ROOT/filler" bs=64k 2>/dev/null || true
df -h "$ROOT" | tail -1
HITS_BEFORE=$(wc -l < "$WORK/hits")
T0=$(cpu_ticks)
sleep "$FULL_FOR"
T1=$(cpu_ticks)
HITS_FULL=$(( $(wc -l < "$WORK/hits") - HITS_BEFORE ))
ERRORS=$(grep -c "cannot" "$WORK/serve.log" || true)
CPU=$(python3 -c "print(f'{($T1 - $T0) / $HZ / $FULL_FOR * 100:.2f}')")
echo "disk full for ${FULL_FOR} s: CPU ${CPU} % of one core; $HITS_FULL runs fired; $ERRORS error lines logged"

rm "$ROOT/filler"
FREED=$(date +%s.%N)
HITS_AT_FREE=$(wc -l < "$WORK/hits")
until [ "$(wc -l < "$WORK/hits")" -gt "$HITS_AT_FREE" ]; do sleep 0.05; done
FIRST=$(tail -1 "$WORK/hits")
python3 -c "print(f'space freed: the next run fired {($FIRST - $FREED):.1f} s later (runs are due each minute; the backoff is at most 30 s)')"
grep -E "accepts writes again|cannot" "$WORK/serve.log" | sed 's/\x1b\[[0-9;]*m//g' | cut -c1-220
