# Sourced by scripts/test under CI=true (or PBEM_TEST_BROWSER=1): make sure Debian's chromium
# and chromium-driver are installed (as root, or through sudo without a password), so that the
# browser tests (tests/browser) run instead of skipping. Nothing is downloaded by the tests
# themselves: Selenium is pointed at /usr/bin/chromedriver and /usr/bin/chromium.
install_browser() {
    if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
        return 0
    fi
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            sudo="sudo -n"
        else
            echo "chromium and chromium-driver are not installed, and installing them needs root (or sudo)" >&2
            return 1
        fi
    fi
    if ! command -v apt-get >/dev/null; then
        echo "chromium is not installed, and there is no apt-get to install it with" >&2
        return 1
    fi
    echo "installing chromium and chromium-driver from Debian" >&2
    $sudo apt-get update -q >&2 || true
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium chromium-driver >&2
}
