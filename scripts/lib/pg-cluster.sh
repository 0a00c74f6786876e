# Sourced by scripts/test and scripts/bench: starts a throwaway PostgreSQL 15 cluster in a temporary
# directory on a free loopback port, stops and deletes it when the calling script exits, and exports
# its URL as OUTPOST_PG_URL. Needs the postgresql-15 Debian package.
pg_bin=/usr/lib/postgresql/15/bin
cluster=$(mktemp -d /tmp/outpost-pg.XXXXXX)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
as_pg=()
if [ "$(id -u)" -eq 0 ]; then
    # initdb refuses to run as root; the cluster belongs to the postgres system user.
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$cluster"
    as_pg=(runuser -u postgres --)
fi
stop_cluster() {
    "${as_pg[@]}" "$pg_bin/pg_ctl" -D "$cluster/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$cluster"
}
trap stop_cluster EXIT INT TERM

"${as_pg[@]}" "$pg_bin/initdb" -D "$cluster/data" -U outpost --auth=trust --no-locale -E UTF8 >"$cluster/initdb.log" 2>&1 ||
    { cat "$cluster/initdb.log" >&2; exit 1; }
"${as_pg[@]}" "$pg_bin/pg_ctl" -D "$cluster/data" -l "$cluster/postgres.log" -w -t 60 \
    -o "-p $port -k $cluster -c listen_addresses=127.0.0.1 -c max_connections=400 ${OUTPOST_PG_OPTIONS:-}" \
    start >/dev/null || { cat "$cluster/postgres.log" >&2; exit 1; }
export OUTPOST_PG_URL="postgres://outpost@127.0.0.1:$port/postgres"
