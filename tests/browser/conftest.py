"""A real browser on a real server: Debian's chromium, driven by Selenium through Debian's
chromium-driver (nothing is downloaded: Selenium Manager is told where both are and kept
offline), against the app served over HTTP on a loopback port, with CSRF on as in service.

The browser is started once per module; each test gets its own server, instance and
database (SQLite, or the PostgreSQL database PBEM_TEST_DATABASE_URL names), and a browser
without the previous test's cookies. Every page a test looks at is saved as a screenshot
under ``tests/artifacts/`` (ignored by git) for people to look at.

Without chromium or chromium-driver the tests skip, unless PBEM_TEST_BROWSER=1 (set by
``scripts/test`` under CI=true), where they must run and so fail instead.
"""

from __future__ import annotations

import base64
import os
import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from dice_server.app import create_app
from dice_server.keys import init_instance
from dice_server.services import ServiceContext
from dice_server.services.accounts import set_password
from tests.conftest import Databases

if TYPE_CHECKING:
    from selenium.webdriver.chrome.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: Long enough for a page of the two-core CI machine under load; a page normally takes
#: well under a second.
WAIT_SECONDS = 30
#: A screenshot shows the whole page, up to this height (CSS pixels).
SHOT_HEIGHT = 6000
FLAGS = (
    "--headless=new",
    "--no-sandbox",  # CI runs as root, where chromium's sandbox refuses to start
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1100,1100",
)
#: The password every member of a test's league logs in with (set through the service).
PASSWORD = "correct horse battery"


def missing_browser() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.access(path, os.X_OK)]
    if missing:
        return (
            f"{' and '.join(missing)} not installed: apt-get install chromium chromium-driver "
            "(scripts/test does under CI=true)"
        )
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: pip install -e '.[test]'"
    return ""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """Headless chromium with a fresh profile, shared by a module's tests."""
    why = missing_browser()
    if why:
        if os.environ.get("PBEM_TEST_BROWSER") == "1":
            pytest.fail(f"PBEM_TEST_BROWSER=1 but {why}", pytrace=False)
        pytest.skip(f"browser tests skipped: {why}")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must never reach the network
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    driver = webdriver.Chrome(options=options, service=Service(executable_path=CHROMEDRIVER))
    driver.set_page_load_timeout(WAIT_SECONDS)
    try:
        yield driver
    finally:
        driver.quit()


@dataclass
class Live:
    """The app served over HTTP at ``base`` (also its BASE_URL, so mailed links open it)."""

    base: str
    app: Flask
    ctx: ServiceContext


@pytest.fixture
def live(tmp_path: Path, databases: Databases) -> Iterator[Live]:
    """A threaded werkzeug server on a free loopback port, serving ``create_app`` over a
    fresh instance and database. The port is bound before the app is made, so BASE_URL
    can name it."""
    apps: list[Flask] = []

    def dispatch(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        return apps[0](environ, start_response)

    server = make_server("127.0.0.1", 0, dispatch, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        instance = tmp_path / "instance"
        init_instance(instance)
        app = create_app(
            {
                "INSTANCE_PATH": str(instance),
                "DATABASE_URL": databases.fresh(tmp_path),
                "BASE_URL": base,
            }
        )
        apps.append(app)
        thread = threading.Thread(target=server.serve_forever, name="browser-test-server")
        thread.start()
        try:
            yield Live(base=base, app=app, ctx=app.extensions["pbem"])
        finally:
            server.shutdown()
            thread.join(timeout=WAIT_SECONDS)
            app.extensions["pbem"].sessions.kw["bind"].dispose()
    finally:
        server.server_close()


@dataclass
class Pages:
    """The browser on the live server, for one test: open a page, fill in and submit a
    form, read what is shown, and save a screenshot of every page looked at."""

    driver: WebDriver
    live: Live
    test: str
    shots: list[Path] = field(default_factory=list)

    def open(self, path_or_url: str, step: str) -> None:
        """Open a path of the server (or a whole URL, as a mailed link is) and save it."""
        url = path_or_url if "://" in path_or_url else self.live.base + path_or_url
        self.driver.get(url)
        self.shot(step)

    def shot(self, step: str) -> Path:
        """Save the whole page (not just the window) as
        ``tests/artifacts/<test>-<nn>-<step>.png``, numbered in the order looked at."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.test}-{len(self.shots) + 1:02d}-{step}.png"
        size = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], SHOT_HEIGHT)}
        shot = self.driver.execute_cdp_cmd(
            "Page.captureScreenshot",
            {"format": "png", "captureBeyondViewport": True, "clip": {**clip, "scale": 1}},
        )
        path.write_bytes(base64.b64decode(shot["data"]))
        self.shots.append(path)
        return path

    def find(self, css: str) -> WebElement:
        return self.driver.find_element("css selector", css)

    def find_all(self, css: str) -> list[WebElement]:
        return self.driver.find_elements("css selector", css)

    def text(self, css: str = "main") -> str:
        """What a reader sees of the element, spaces collapsed."""
        return " ".join(self.find(css).text.split())

    def type(self, css: str, value: str) -> None:
        box = self.find(css)
        box.clear()
        box.send_keys(value)

    def paste(self, css: str, value: str) -> None:
        """Paste ``value`` into a box at once, as from the clipboard (typing a signed entry
        key by key takes seconds)."""
        box = self.find(css)
        box.clear()
        box.click()
        self.driver.execute_cdp_cmd("Input.insertText", {"text": value})
        assert box.get_property("value") == value

    def choose(self, css: str, label: str) -> None:
        from selenium.webdriver.support.select import Select

        Select(self.find(css)).select_by_visible_text(label)

    def click(self, element: WebElement | str, step: str) -> None:
        """Click a link or a form's button, wait for the page it leads to, and save it."""
        from selenium.webdriver.support import expected_conditions
        from selenium.webdriver.support.wait import WebDriverWait

        if isinstance(element, str):
            element = self.find(element)
        old = self.find("html")
        element.click()
        wait = WebDriverWait(self.driver, WAIT_SECONDS)
        wait.until(_replaced(expected_conditions.staleness_of(old)))
        wait.until(lambda d: d.execute_script("return document.readyState") == "complete")
        self.shot(step)

    def link(self, words: str, step: str) -> None:
        """Follow the link whose text is ``words``."""
        self.click(self.driver.find_element("link text", words), step)

    def button(self, words: str, step: str, within: str = "main") -> None:
        """Press the submit button labelled ``words`` (in ``within``)."""
        buttons = [
            b for b in self.find_all(f"{within} button") if " ".join(b.text.split()) == words
        ]
        assert buttons, f"no button {words!r} on {self.driver.current_url}"
        self.click(buttons[0], step)

    def path(self) -> str:
        """The path of the page shown (without the server's address)."""
        url = str(self.driver.current_url)
        return url.removeprefix(self.live.base)

    def log_in(self, email: str, password: str = PASSWORD) -> None:
        """Log in through the login page's form, as a member does."""
        self.open("/login", "login")
        self.type("#email", email)
        self.type("#password", password)
        self.button("Log in", "logged-in")
        assert self.text("header .who") == email, self.text()


@pytest.fixture
def pages(browser: WebDriver, live: Live, request: pytest.FixtureRequest) -> Pages:
    """The module's browser, without the cookies of the test before (every server is on
    127.0.0.1, and cookies do not tell ports apart)."""
    browser.execute_cdp_cmd("Network.clearBrowserCookies", {})
    browser.get("about:blank")
    test = re.sub(r"[^\w.-]+", "-", request.node.name).strip("-")
    for old in ARTIFACTS.glob(f"{test}-*.png"):
        old.unlink()
    return Pages(driver=browser, live=live, test=test)


def give_passwords(ctx: ServiceContext, *addresses: str) -> None:
    """Members made through the services have no password: give them the test's one."""
    for address in addresses:
        set_password(ctx, address, PASSWORD)


def _replaced(stale: Callable[[Any], bool]) -> Callable[[Any], bool]:
    """``stale`` (Selenium's staleness_of), also true when Chromium, asked about the old page's
    node while the new page replaces it, answers "Node with given id does not belong to the
    document" (an unknown error, not a stale element)."""
    from selenium.common.exceptions import WebDriverException

    def check(driver: Any) -> bool:
        try:
            return stale(driver)
        except WebDriverException as exc:
            if "does not belong to the document" in str(exc):
                return True
            raise

    return check
