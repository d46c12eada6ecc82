#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for CI's run of the team hub's tests
# (src/main/engine/sync/hub.test.ts, through test/helpers/postgres.ts).
#   scripts/ci-postgres.sh start   initdb in a temporary folder, start the server on
#                                  127.0.0.1 and a free port (password auth over TCP), and
#                                  print `export LOCI_TEST_PG_URL=… LOCI_TEST_PG_DATA=…`
#                                  for the caller to eval. Everything else goes to stderr.
#   scripts/ci-postgres.sh stop    stop the server in $LOCI_TEST_PG_DATA, delete its folder.
# PostgreSQL refuses to run as root: under root its programs run as the `postgres` system
# user (or `nobody`), which owns the folder.
set -euo pipefail

# The newest server binaries: Debian's /usr/lib/postgresql/<major>/bin, else PATH.
bindir() {
  local dir
  dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -n | tail -n 1 || true)
  if [ -n "$dir" ] && [ -x "$dir/initdb" ]; then
    echo "$dir"
  elif command -v initdb >/dev/null 2>&1; then
    dirname "$(command -v initdb)"
  else
    echo "ci-postgres: no initdb in /usr/lib/postgresql/*/bin or PATH" >&2
    return 1
  fi
}

server_user() {
  if [ "$(id -u)" -ne 0 ]; then
    echo ""
  elif id -u postgres >/dev/null 2>&1; then
    echo postgres
  elif id -u nobody >/dev/null 2>&1; then
    echo nobody
  else
    echo "ci-postgres: running as root with neither a postgres nor a nobody user" >&2
    return 1
  fi
}

# Runs a command as the server's user (ourselves unless we are root).
as_server() {
  local user=$1
  shift
  if [ -z "$user" ]; then
    "$@"
  else
    runuser -u "$user" -- "$@"
  fi
}

start() {
  local bin user dir password port
  bin=$(bindir)
  user=$(server_user)
  dir=$(mktemp -d "${TMPDIR:-/tmp}/loci-ci-pg.XXXXXX")
  chmod 700 "$dir"
  password=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  (umask 077 && printf '%s\n' "$password" >"$dir/pwfile")
  if [ -n "$user" ]; then
    chown -R "$user" "$dir"
  fi
  cd "$dir"
  if ! as_server "$user" "$bin/initdb" -D "$dir/data" -U postgres --pwfile="$dir/pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C --no-sync \
    >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2
    rm -rf "$dir"
    return 1
  fi
  rm -f "$dir/pwfile"
  # A free port: another process may take it between this probe and the server's bind,
  # so try a few.
  local attempt
  for attempt in 1 2 3; do
    port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
    if as_server "$user" "$bin/pg_ctl" start -D "$dir/data" -l "$dir/server.log" -w -t 180 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100" >&2; then
      echo "export LOCI_TEST_PG_URL=postgres://postgres:$password@127.0.0.1:$port/postgres"
      echo "export LOCI_TEST_PG_DATA=$dir/data"
      return 0
    fi
    echo "ci-postgres: start attempt $attempt failed:" >&2
    tail -n 20 "$dir/server.log" >&2 || true
  done
  rm -rf "$dir"
  return 1
}

stop() {
  local data=${LOCI_TEST_PG_DATA:-}
  if [ -z "$data" ] || [ ! -d "$data" ]; then
    return 0
  fi
  local bin user
  bin=$(bindir)
  user=$(server_user)
  as_server "$user" "$bin/pg_ctl" stop -D "$data" -m immediate -w -t 60 >&2 || true
  # Only a folder this script made.
  case "$(basename "$(dirname "$data")")" in
    loci-ci-pg.*) rm -rf "$(dirname "$data")" ;;
  esac
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
