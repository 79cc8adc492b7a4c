# shellcheck shell=bash
# The dashboard server the web scripts share (dashboard_browser.sh, serve_load.sh), sourced once $serve and
# $build are set:
#   $tmp                 a fresh folder
#   start_serve <store>  aisp-serve over that store on a free loopback port: $port, $server_pid, its log in
#                        $tmp/serve.log; fails the script when it does not start within 10 s
# At exit the server is stopped (SIGTERM: a clean stop; SIGKILL if it has not exited within 5 s) and $tmp removed.
tmp=$(mktemp -d)
server_pid=

stop_serve() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap stop_serve EXIT

start_serve() {
  # The log exists before the server starts: the child opens its redirection only once it runs, and a read of a
  # missing file inside $(...) would end a `set -e` script on a loaded machine.
  : > "$tmp/serve.log"
  # shellcheck disable=SC2154  # $serve, $build: the sourcing script's arguments
  "$serve" --data "$1" --port 0 --web-root "$build/web" 2>> "$tmp/serve.log" &
  server_pid=$!
  port=
  for _ in $(seq 100); do
    port=$(sed -n 's#^aisp serve: http://127.0.0.1:\([0-9]*\)/.*#\1#p' "$tmp/serve.log" || true)
    [ -n "$port" ] && break
    sleep 0.1
  done
  if [ -z "$port" ]; then echo "FAIL: aisp-serve did not start:"; cat "$tmp/serve.log"; exit 1; fi
}
