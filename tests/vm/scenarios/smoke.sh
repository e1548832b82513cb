# Smoke scenario: load, a few seconds of stress, unload; prints everything.
. /scenarios/lib.sh
scx_burst --stats 1 ${SCX_ARGS:-} > /tmp/out 2> /tmp/err &
d=$!
wait_state enabled 20 && tag ENABLED yes
stress-ng --cpu $(( 2 * $(nproc) )) --timeout ${SMOKE_SECONDS:-4} > /dev/null 2>&1
kill -INT $d
wait $d
tag RC $?
send_file OUT /tmp/out
send_file ERR /tmp/err
