# Sourced by scripts/test: a throwaway PostgreSQL cluster for one run of the suite.
#
# start_throwaway_postgres installs PostgreSQL from Debian if no server is found (as root,
# or through sudo without a password), makes a cluster in a temporary directory owned by an
# unprivileged user (the one running this script, or `postgres` when that is root), starts
# it on a free loopback port with a random password, and exports PBEM_TEST_DATABASE_URL.
# stop_throwaway_postgres stops it and removes the directory; scripts/test calls it on exit.
# PBEM_PG_BINDIR names the server's bin directory when it is somewhere unusual.

source "$(dirname "${BASH_SOURCE[0]}")/_apt.sh"

PG_DIR=""
PG_USER=""
PG_BIN=""

# The directory holding initdb, pg_ctl and postgres: PBEM_PG_BINDIR, then the one initdb
# on PATH links to, then the newest of Debian's /usr/lib/postgresql/*/bin.
find_postgres() {
    local dir
    local on_path=""
    on_path="$(command -v initdb 2>/dev/null)" && on_path="$(dirname "$(readlink -f "$on_path")")"
    for dir in "${PBEM_PG_BINDIR:-}" "$on_path" $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -n "$dir" ] && [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
            echo "$dir"
            return 0
        fi
    done
    return 1
}

install_postgres() {
    can_be_root PostgreSQL || return 1
    if [ ! -e /etc/postgresql-common ]; then
        # Only the throwaway cluster is wanted: not the `main` cluster the package makes.
        $AS_ROOT mkdir -p /etc/postgresql-common/createcluster.d
        echo "create_main_cluster = false" |
            $AS_ROOT tee /etc/postgresql-common/createcluster.d/pbem-test.conf >/dev/null
    fi
    apt_install PostgreSQL --no-install-recommends postgresql
}

# Runs a command as the cluster's owner (from /: root's working directory may be closed
# to that user, and initdb refuses to start where it cannot look around).
as_pg_user() {
    if [ "$(id -u)" = 0 ]; then
        (cd / && runuser -u "$PG_USER" -- "$@")
    else
        "$@"
    fi
}

start_throwaway_postgres() {
    PG_BIN="$(find_postgres)" || { install_postgres && PG_BIN="$(find_postgres)"; } || {
        echo "no PostgreSQL server found after installing it" >&2
        return 1
    }
    PG_USER="$(id -un)"
    if [ "$(id -u)" = 0 ]; then
        # The server refuses to run as root.
        PG_USER=postgres
        id postgres >/dev/null 2>&1 || PG_USER=nobody
    fi
    PG_DIR="$(mktemp -d "${TMPDIR:-/tmp}/pbem-pg.XXXXXX")"
    chmod 700 "$PG_DIR"
    local password
    password="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
    printf '%s\n' "$password" >"$PG_DIR/pwfile"
    [ "$(id -u)" = 0 ] && chown -R "$PG_USER" "$PG_DIR"
    as_pg_user "$PG_BIN/initdb" --pgdata="$PG_DIR/data" --username=pbem --pwfile="$PG_DIR/pwfile" \
        --auth=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$PG_DIR/initdb.log" 2>&1 || {
        cat "$PG_DIR/initdb.log" >&2
        return 1
    }
    rm -f "$PG_DIR/pwfile"
    # A port free now may be taken before the server binds it: try another then.
    local port tries
    for tries in 1 2 3 4 5; do
        port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
        # Durability is worth nothing here: the cluster lives for one run.
        if as_pg_user "$PG_BIN/pg_ctl" start --wait --timeout=60 --pgdata="$PG_DIR/data" \
            --log="$PG_DIR/server.log" --options="-p $port -k $PG_DIR \
            -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off \
            -c full_page_writes=off -c max_connections=200" >/dev/null; then
            export PBEM_TEST_DATABASE_URL="postgresql+psycopg://pbem:${password}@127.0.0.1:${port}/pbem_test"
            local psql="$PG_BIN/psql"
            [ -x "$psql" ] || psql=psql
            PGPASSWORD="$password" "$psql" -q -h 127.0.0.1 -p "$port" -U pbem \
                -d postgres -c "CREATE DATABASE pbem_test" >/dev/null
            echo "$("$PG_BIN/postgres" --version) on 127.0.0.1:${port} in ${PG_DIR}" >&2
            return 0
        fi
        echo "PostgreSQL did not start on port ${port} (try ${tries}):" >&2
        tail -n 3 "$PG_DIR/server.log" >&2 || true
    done
    return 1
}

stop_throwaway_postgres() {
    [ -n "$PG_DIR" ] || return 0
    if [ -f "$PG_DIR/data/postmaster.pid" ]; then
        as_pg_user "$PG_BIN/pg_ctl" stop --pgdata="$PG_DIR/data" --mode=immediate --wait \
            >/dev/null 2>&1 || true
    fi
    rm -rf "$PG_DIR"
    PG_DIR=""
}
