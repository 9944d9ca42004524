#!/usr/bin/env bash
# Side-by-side HTTP move throughput of two `tabula serve` builds.
#
#   sidebyside.sh [-r ROUNDS] [-n REQUESTS] [-c CONNECTIONS] [-m "0 1.0"] OLD_TABULA NEW_TABULA LOAD
#
# OLD_TABULA / NEW_TABULA: the two `tabula` binaries (copy them out of target/
# first: another build may replace them mid-run). LOAD: the load example
# (crates/server/examples/load.rs), the one client for both servers, so only
# the server differs. docs/BENCHMARKS.md ("HTTP moves per second") has the
# whole command.
#
# For every round and every mode (fraction of sessions with a computer reply,
# load's --computer), each server is started fresh on its own temporary
# database, the load runs against it, and the server is stopped. The two
# servers alternate, and which one goes first flips every round (OLD NEW, then
# NEW OLD, ...) so both see the same background noise on average. Peak RSS is
# the server's VmHWM read from /proc just before it is stopped; server CPU per
# move is its user + system time over the load run divided by the moves.
#
# Prints one line per run (tab separated) and a summary (median per server and
# mode); the raw lines also go to $OUT (default sidebyside-<time>.tsv in the
# temporary folder).
set -euo pipefail

ROUNDS=3
REQUESTS=20000
CONNECTIONS=32
MODES="0 1.0"
while getopts "r:n:c:m:" opt; do
    case $opt in
    r) ROUNDS=$OPTARG ;;
    n) REQUESTS=$OPTARG ;;
    c) CONNECTIONS=$OPTARG ;;
    m) MODES=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -ne 3 ]; then
    sed -n '2,22p' "$0"
    exit 2
fi
OLD=$1
NEW=$2
LOAD=$3
for b in "$OLD" "$NEW" "$LOAD"; do
    [ -x "$b" ] || { echo "not an executable: $b" >&2; exit 2; }
done
# NICE=-10 runs both servers and the load at that niceness (root only), so
# builds others run at the same time disturb the measurement less.
NICE_CMD=
if [ -n "${NICE:-}" ]; then NICE_CMD="nice -n $NICE"; fi
OUT=${OUT:-${TMPDIR:-/tmp}/sidebyside-$(date -u +%Y%m%dT%H%M%S).tsv}
WORK=$(mktemp -d /tmp/sidebyside.XXXXXX)
SERVER_PID=
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# utime + stime of a process, in clock ticks.
cpu_ticks() {
    awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0
}

free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# run_one NAME BINARY COMPUTER ROUND: one fresh server, one load run, one result line.
run_one() {
    local name=$1 bin=$2 computer=$3 round=$4
    local port db log
    port=$(free_port)
    db="$WORK/$name-$round-$computer/t.db"
    mkdir -p "$(dirname "$db")"
    log="$WORK/$name-$round-$computer/server.log"
    $NICE_CMD "$bin" serve --addr "127.0.0.1:$port" --db "$db" >"$log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 100); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
        sleep 0.05
    done
    local cpu0 cpu1
    cpu0=$(cpu_ticks "$SERVER_PID")
    local load_out rc=0
    load_out=$($NICE_CMD "$LOAD" --requests "$REQUESTS" --connections "$CONNECTIONS" \
        --computer "$computer" --addr "127.0.0.1:$port" 2>&1) || rc=$?
    cpu1=$(cpu_ticks "$SERVER_PID")
    local hwm
    hwm=$(awk '/^VmHWM/ {print $2}' "/proc/$SERVER_PID/status" 2>/dev/null || echo 0)
    kill -INT "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
    local load1 mps p50 p99
    load1=$(grep 'moves/s' <<<"$load_out" || true)
    mps=$(sed -n 's/.* s, \([0-9]*\) moves\/s.*/\1/p' <<<"$load1")
    p50=$(sed -n 's/.*p50 \([0-9.]*\).*/\1/p' <<<"$load1")
    p99=$(sed -n 's/.*p99 \([0-9.]*\).*/\1/p' <<<"$load1")
    if [ $rc -ne 0 ] || [ -z "$mps" ]; then
        echo "run $name round $round computer $computer failed (load exit $rc):" >&2
        echo "$load_out" >&2
    fi
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    # Server CPU (user + system) per move, in microseconds: less sensitive to
    # what else runs on the machine than moves per second.
    local ticks cpu_us
    ticks=$(getconf CLK_TCK)
    cpu_us=$(( (cpu1 - cpu0) * 1000000 / ticks / REQUESTS ))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$round" "$computer" "$name" "${mps:-0}" \
        "${p50:-0}" "${p99:-0}" "$((${hwm:-0} / 1024))" "$cpu_us" "$load" | tee -a "$OUT"
}

printf 'round\tcomputer\tserver\tmoves/s\tp50_ms\tp99_ms\tpeak_rss_MiB\tcpu_us_per_move\tloadavg1\n' | tee "$OUT"
for round in $(seq "$ROUNDS"); do
    for computer in $MODES; do
        if [ $((round % 2)) -eq 1 ]; then
            run_one OLD "$OLD" "$computer" "$round"
            run_one NEW "$NEW" "$computer" "$round"
        else
            run_one NEW "$NEW" "$computer" "$round"
            run_one OLD "$OLD" "$computer" "$round"
        fi
    done
done

echo
echo "median over $ROUNDS rounds ($REQUESTS moves, $CONNECTIONS connections each):"
python3 - "$OUT" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
modes = sorted({r["computer"] for r in rows}, key=float)
print("computer\tserver\tmoves/s\tp50_ms\tp99_ms\tpeak_rss_MiB\tcpu_us_per_move\tnew/old")
for m in modes:
    med = {}
    for s in ("OLD", "NEW"):
        rs = [r for r in rows if r["computer"] == m and r["server"] == s]
        if not rs:
            continue
        f = lambda k: statistics.median(float(r[k]) for r in rs)
        med[s] = f("moves/s")
        ratio = "" if s == "OLD" or "OLD" not in med or med["OLD"] == 0 else "%.2f" % (med[s] / med["OLD"])
        print("%s\t%s\t%.0f\t%.2f\t%.2f\t%.0f\t%.0f\t%s" % (m, s, med[s], f("p50_ms"), f("p99_ms"), f("peak_rss_MiB"), f("cpu_us_per_move"), ratio))
EOF
echo "raw lines: $OUT"
