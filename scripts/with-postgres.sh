#!/usr/bin/env bash
# Run a command with a throwaway PostgreSQL server (Debian's postgresql package): the server is
# made in a temporary directory, listens on a free loopback port, and is removed afterwards.
# The command gets KAIROS_TEST_POSTGRES, an admin URL (postgres://kairos:...@127.0.0.1:PORT);
# the tests create a fresh database of their own on it (kairos-pgtest, tests/e2e/helpers.py).
# As root, the server runs as Debian's `postgres` user (PostgreSQL refuses to run as root).
# Usage: bash scripts/with-postgres.sh COMMAND [ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/apt-install.sh postgresql >/dev/null
bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
password=kairos-test-password
dir="$(mktemp -d /tmp/kairos-pg.XXXXXX)"
chmod 755 "$dir"
as_server() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
printf '%s' "$password" >"$dir/pw"
as_server "$bin/initdb" -D "$dir/data" -U kairos --auth-local=trust --auth-host=scram-sha-256 \
  -E UTF8 --locale=C.UTF-8 --no-sync --pwfile="$dir/pw" >/dev/null
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
stop() { as_server "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
as_server "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o "-p $port -k $dir -c listen_addresses=127.0.0.1 \
  -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400" start >/dev/null
export KAIROS_TEST_POSTGRES="postgres://kairos:$password@127.0.0.1:$port"
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
"$@"
