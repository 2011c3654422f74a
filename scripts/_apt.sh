# Sourced by scripts/_postgres.sh and scripts/_browser.sh: Debian packages a test run needs,
# installed as root or through sudo without a password.

# can_be_root WHAT: sets AS_ROOT to "" (running as root) or "sudo -n"; else fails saying
# that installing WHAT needs root.
can_be_root() {
    AS_ROOT=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            AS_ROOT="sudo -n"
        else
            echo "$1 is not installed, and installing it needs root (or sudo)" >&2
            return 1
        fi
    fi
}

# apt_install WHAT ARG...: apt-get install ARG... (packages, and options such as
# --no-install-recommends), WHAT naming them in what it says.
apt_install() {
    local what="$1"
    shift
    can_be_root "$what" || return 1
    if ! command -v apt-get >/dev/null; then
        echo "$what is not installed, and there is no apt-get to install it with" >&2
        return 1
    fi
    echo "installing $what from Debian" >&2
    $AS_ROOT env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    $AS_ROOT env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >&2
}
