#!/usr/bin/env bash
# Starts fault_server.py and runs the curl CLI against every fault path, printing a Markdown table
# of curl's exit code and elapsed time per path: which faults libcurl detects by itself and which
# it tolerates (those the Swift transport must check for itself).
#
# Usage: probe_faults.sh [--python PY] [--out FILE]
#   --python PY   interpreter with h2 (and trustme, unless FAULT_CERT/FAULT_KEY/FAULT_CA are set);
#                 default: $COURIER_PYTHON, else python3
#   --out FILE    also write the report to FILE
# Environment: FAULT_CERT, FAULT_KEY, FAULT_CA: an existing leaf, its key and the CA that signed it.
#              Otherwise a CA is made with `python -m trustme` (or, without trustme, openssl).
#
# Besides the table it runs a few checks of the server itself (controls answer, many concurrent
# fault connections do not delay others, clean shutdown on SIGTERM) and ends with
# "N passed, N failed"; it exits non-zero when a check failed.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${COURIER_PYTHON:-python3}"
out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --python) python="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
        *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done

max_time=5
work="$(mktemp -d "${TMPDIR:-/tmp}/fault-probe.XXXXXX")"
server_pid=""
background_pids=()

cleanup() {
    for pid in "${background_pids[@]}"; do kill "$pid" 2>/dev/null; done
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid" 2>/dev/null
        wait "$server_pid" 2>/dev/null
    fi
    rm -rf "$work"
}
trap cleanup EXIT

running() { # a zombie (exited, not yet reaped) does not count
    local state
    state="$(ps -o stat= -p "$1" 2>/dev/null)" || return 1
    [ -n "$state" ] && [[ "$state" != Z* ]]
}
trap 'exit 130' INT TERM

if ! "$python" -c 'import h2' 2>/dev/null; then
    echo "probe_faults: $python cannot import h2 (pip install h2==4.4.1)" >&2
    exit 2
fi

# --- certificates -------------------------------------------------------------------------------
if [ -n "${FAULT_CERT:-}" ] && [ -n "${FAULT_KEY:-}" ] && [ -n "${FAULT_CA:-}" ]; then
    cert="$FAULT_CERT"; key="$FAULT_KEY"; ca="$FAULT_CA"
elif "$python" -c 'import trustme' 2>/dev/null; then
    "$python" -m trustme -q -d "$work" -i localhost 127.0.0.1
    cert="$work/server.pem"; key="$work/server.key"; ca="$work/client.pem"
else
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=localhost" \
        -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
        -keyout "$work/server.key" -out "$work/server.pem" >/dev/null 2>&1
    cert="$work/server.pem"; key="$work/server.key"; ca="$work/server.pem"
fi

# --- server -------------------------------------------------------------------------------------
ready="$work/ready.env"
"$python" "$here/fault_server.py" --cert "$cert" --key "$key" --ready-file "$ready" \
    2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 100); do
    [ -s "$ready" ] && break
    running "$server_pid" || break
    sleep 0.1
done
if [ ! -s "$ready" ]; then
    echo "probe_faults: the server did not become ready" >&2
    cat "$work/server.log" >&2
    exit 1
fi
# shellcheck disable=SC1090
. "$ready"
http="$FAULT_HTTP_URL"
h2="$FAULT_H2_URL"

passed=0
failed=0
check() { # check NAME CONDITION-EXIT-CODE DETAIL
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok    $1 $3" >>"$work/checks"
    else failed=$((failed + 1)); echo "FAIL  $1 $3" >>"$work/checks"; fi
}
: >"$work/checks"

# --- the table ----------------------------------------------------------------------------------
# probe PROTO PATH KIND [curl options...]
#   KIND: control | fault | idle (needs an idle timeout) | session (redirects)
table="$work/table.md"
{
    echo "| proto | path | curl options | exit | time (s) | body bytes | curl says | libcurl detects? |"
    echo "|---|---|---|---|---|---|---|---|"
} >"$table"

probe() {
    local proto="$1" path="$2" kind="$3"; shift 3
    local base="$http" options=()
    if [ "$proto" = "h2" ]; then base="$h2"; options=(--http2 --cacert "$ca"); fi
    local result rc
    result="$(curl -sS -o /dev/null --max-time "$max_time" "${options[@]}" "$@" \
        -w '%{time_total}\t%{size_download}\t%{http_code}' "$base$path" 2>"$work/stderr")"
    rc=$?
    local time bytes code says verdict
    IFS=$'\t' read -r time bytes code <<<"$result"
    time="$(printf '%.3f' "${time:-0}")"
    says="$(head -n 1 "$work/stderr" | sed 's/^curl: //; s/|/\\|/g')"
    [ -z "$says" ] && says="HTTP $code"
    local late
    late="$(awk -v t="$time" 'BEGIN { print (t >= 2.0) ? 1 : 0 }')"
    case "$kind" in
        control)
            if [ "$rc" -eq 0 ]; then verdict="control: ok"; else verdict="control FAILED"; fi
            check "control $proto $path" "$rc" "(exit $rc)" ;;
        idle)
            if [ "$rc" -eq 28 ]; then verdict="n/a: idle-timeout test (ends only by timeout)"
            else verdict="n/a: idle-timeout test (exit $rc)"; fi ;;
        session)
            if [ "$rc" -eq 0 ]; then verdict="n/a: redirect followed"
            elif [ "$late" -eq 0 ]; then verdict="yes: redirect limit"
            else verdict="late"; fi ;;
        *)
            if [ "$rc" -eq 0 ]; then verdict="**no: tolerated (exit 0)**"
            elif [ "$rc" -eq 28 ]; then verdict="**no: hangs until timeout**"
            elif [ "$late" -eq 1 ]; then verdict="late (exit $rc after ${time}s)"
            else verdict="yes"; fi ;;
    esac
    local shown="${*:-}"
    echo "| $proto | \`$path\` | ${shown:+\`$shown\`} | $rc | $time | $bytes | $says | $verdict |" >>"$table"
    # No probe may outlive curl's own limit: that would be a server that keeps a client past it.
    local over
    over="$(awk -v t="$time" -v m="$max_time" 'BEGIN { print (t > m + 1) ? 1 : 0 }')"
    check "bounded $proto $path" "$over" "(${time}s)"
}

probe h1 /ok control
probe h1 /dup-content-length fault
probe h1 /cl-and-te fault
probe h1 /body-longer fault
probe h1 /body-longer-close fault
probe h1 /body-shorter fault
probe h1 /endless-1xx fault
probe h1 '/endless-1xx?interval_ms=0' fault
probe h1 /huge-header fault
probe h1 /many-headers fault
probe h1 '/gzip-bomb?size_mib=256' fault --compressed
probe h1 /reset-mid-body fault
probe h1 /truncated-chunked fault
probe h1 /bad-chunk-size fault
probe h1 /malformed-status fault
probe h1 /malformed-status-garbage fault
probe h1 /slow-headers idle
probe h1 /slow-body idle
probe h1 /stall idle
probe h1 /redirect-loop session -L
probe h1 "/redirect-to?url=$http/ok" session -L
probe h2 /ok control
probe h2 /rst-stream fault
probe h2 /goaway fault
probe h2 /goaway-close fault
probe h2 /malformed-frame fault
probe h2 /bad-hpack fault
probe h2 /oversized-frame fault
probe h2 /dup-content-length fault
probe h2 /body-longer fault
probe h2 /body-shorter fault

# --- extra observations -------------------------------------------------------------------------
notes="$work/notes.md"
: >"$notes"

# body-longer on keep-alive: does curl reuse the connection that had 10 excess bytes?
curl -sv --max-time "$max_time" -o "$work/first" "$http/body-longer" -o "$work/second" "$http/ok" \
    2>"$work/verbose"
reused="no"; grep -q 'Re-using existing connection' "$work/verbose" && reused="yes"
excess="$(grep -o 'Excess found[^*]*' "$work/verbose" | head -n 1 | sed 's/[[:space:]]*$//')"
first="$(cat "$work/first" 2>/dev/null)"
intact="no"; [ "$(cat "$work/second" 2>/dev/null)" = "ok" ] && intact="yes"
echo "- \`/body-longer\` then \`/ok\` in one curl run: first body \`$first\` (the declared 10 bytes), connection reused: $reused, second response intact: $intact; the only trace of the excess is the verbose line \"$excess\"." >>"$notes"
[ "$intact" = "yes" ]
check "next response after body-longer is intact" $? "(reused: $reused)"

# Which of two different Content-Length values does curl use?
dup="$(curl -s --max-time "$max_time" "$http/dup-content-length")"
echo "- \`/dup-content-length\` (\`Content-Length: 10\` then \`Content-Length: 5\`, 10 bytes sent): curl returns \`$dup\` with exit 0, i.e. it takes the last value: a silently wrong body." >>"$notes"

# GOAWAY with an error code: what libcurl logs while it keeps waiting (curl 7.88 spells it
# "recveived").
curl -sv --max-time 2 --http2 --cacert "$ca" -o /dev/null "$h2/goaway" 2>"$work/verbose"
goaway="$(grep -o '[a-z]* GOAWAY, error=[^*]*' "$work/verbose" | head -n 1 | sed 's/[[:space:]]*$//')"
echo "- \`h2 /goaway\` (connection left open): curl logs \"$goaway\" and then waits for the rest of the body until its own timeout." >>"$notes"

# gzip bomb: how much does curl decode? (size_download above counts the compressed bytes.)
decoded="$(curl -s --compressed --max-time 20 "$http/gzip-bomb" | wc -c)"
echo "- \`/gzip-bomb\` with \`--compressed\`: curl decoded $decoded bytes from the ~1 MiB body and exited 0; libcurl 7.88 has no limit on decoded size (CURLOPT_MAXFILESIZE only looks at Content-Length)." >>"$notes"

# --- h2: stream faults must not break other streams multiplexed on the same connection ----------
curl -s --max-time "$max_time" --http2 --cacert "$ca" -Z \
    -w '%{url_effective} %{exitcode}\n' -o /dev/null -o /dev/null -o /dev/null -o /dev/null \
    -o /dev/null "$h2/ok" "$h2/rst-stream" "$h2/ok" "$h2/body-longer" "$h2/ok" \
    >"$work/multiplex" 2>/dev/null
streams="$(grep -c '/ok 0$' "$work/multiplex")"
[ "$streams" -eq 3 ]
check "h2 /ok streams beside /rst-stream and /body-longer on one connection" $? "($streams of 3 ok)"

# --- robustness: many fault connections at once must not delay a control request ---------------
for _ in $(seq 1 20); do
    for path in /stall /endless-1xx /slow-body /reset-mid-body /body-longer; do
        curl -s -o /dev/null --max-time 4 "$http$path" 2>/dev/null &
        background_pids+=($!)
    done
    for path in /goaway /malformed-frame /rst-stream; do
        curl -s -o /dev/null --max-time 4 --http2 --cacert "$ca" "$h2$path" 2>/dev/null &
        background_pids+=($!)
    done
done
sleep 1
t1="$(curl -s -o /dev/null --max-time 2 -w '%{time_total}' "$http/ok")"; r1=$?
t2="$(curl -s -o /dev/null --max-time 2 -w '%{time_total}' --http2 --cacert "$ca" "$h2/ok")"; r2=$?
slow1="$(awk -v t="${t1:-9}" 'BEGIN { print (t < 1.0) ? 0 : 1 }')"
slow2="$(awk -v t="${t2:-9}" 'BEGIN { print (t < 1.0) ? 0 : 1 }')"
check "h1 /ok during 160 concurrent fault connections" $((r1 + slow1)) "(${t1}s)"
check "h2 /ok during 160 concurrent fault connections" $((r2 + slow2)) "(${t2}s)"
for pid in "${background_pids[@]}"; do wait "$pid" 2>/dev/null; done
background_pids=()

running "$server_pid"
check "server alive after all probes" $? ""
! grep -q 'Traceback' "$work/server.log"
check "no traceback in the server log" $? ""

# --- shutdown -----------------------------------------------------------------------------------
kill -TERM "$server_pid"
stopped=1
for _ in $(seq 1 30); do
    if ! running "$server_pid"; then stopped=0; break; fi
    sleep 0.1
done
wait "$server_pid" 2>/dev/null
server_pid=""
check "server exits within 3 s of SIGTERM" "$stopped" ""
[ ! -e "$ready" ]
check "ready file removed on exit" $? ""

# --- report -------------------------------------------------------------------------------------
{
    echo "curl: $(curl --version | head -n 1)"
    echo
    cat "$table"
    echo
    cat "$notes"
    echo
    cat "$work/checks"
    echo
    echo "$passed passed, $failed failed"
} >"$work/report"
cat "$work/report"
[ -n "$out" ] && cp "$work/report" "$out"
[ "$failed" -eq 0 ]
