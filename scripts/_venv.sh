# Sourced by scripts/serve and scripts/test: make .venv if missing and install the project into it.
# $1: the pip extras to install ("" for none, "test" for the test tools).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    echo "creating .venv" >&2
    "$PY" -m venv .venv
fi
extras="${1:-}"
target="."
[ -n "$extras" ] && target=".[$extras]"
stamp=".venv/.installed-$(printf '%s' "$extras" | tr ',' '-')"
fresh=""
# Reinstall only when pyproject.toml changed since the last install of these extras
# (any install with extras also covers the plain one).
for s in "$stamp" $([ -z "$extras" ] && ls .venv/.installed-* 2>/dev/null); do
    if [ -f "$s" ] && [ "$s" -nt pyproject.toml ]; then fresh=1; fi
done
if [ -z "$fresh" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip >&2
    .venv/bin/python -m pip install --quiet -e "$target" >&2
    touch "$stamp"
fi
export PATH="$ROOT/.venv/bin:$PATH"
