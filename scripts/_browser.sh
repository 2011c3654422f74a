# Sourced by scripts/test under CI=true (or PBEM_TEST_BROWSER=1): make sure Debian's chromium
# and chromium-driver are installed, so that the browser tests (tests/browser) run instead of
# skipping. Nothing is downloaded by the tests themselves: Selenium is pointed at
# /usr/bin/chromedriver and /usr/bin/chromium.
source "$(dirname "${BASH_SOURCE[0]}")/_apt.sh"

install_browser() {
    if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
        return 0
    fi
    apt_install "chromium and chromium-driver" chromium chromium-driver
}
