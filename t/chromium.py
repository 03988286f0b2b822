"""The browser of the report page's tests: the system's Chromium, driven by Playwright.

Where it or Playwright is missing, a test that needs it is skipped, saying why; where CI
installed one (SGN_EXPECT_BROWSER=1), it fails instead."""

import os
import shutil
from pathlib import Path

import pytest

ARTEFACTS = Path(__file__).resolve().parent.parent / "build" / "test-artefacts"


def artefact(name):
    """Where a test keeps what it saw (a screenshot) for a reader of its run: under
    $SGN_TEST_ARTEFACTS, else build/test-artefacts of the checkout (CONTRIBUTING.md)."""
    path = Path(os.environ.get("SGN_TEST_ARTEFACTS") or ARTEFACTS) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def _no_browser(reason):
    """Skip, saying why; where CI installed a browser (SGN_EXPECT_BROWSER=1), fail instead."""
    if os.environ.get("SGN_EXPECT_BROWSER") == "1":
        pytest.fail(f"a browser was expected here (SGN_EXPECT_BROWSER=1): {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    """One Chromium for a test process (each test opens its own tab, in a context of its
    own): starting it costs more than most of the tests that use it."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _no_browser("playwright not installed (the extra 'test-browser'; the system's chromium is used)")
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        _no_browser("chromium not found: apt-get install chromium")
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=executable, headless=True)
        except Exception as error:  # a browser that cannot start here
            _no_browser(f"chromium ({executable}) does not start: {error}")
        yield chromium
        chromium.close()


def open_page(browser, tmp_path_factory, html, name, fragment=""):
    """A tab showing `html` from a file. It notes the script's errors (`errors`), the console
    (`console`), every request that left the page (`requests`: the page's own file, and any
    other, which is refused) and every one its Content-Security-Policy stopped (`blocked`).
    A `fragment` (`#line=40`) is the address's."""
    path = tmp_path_factory.mktemp("pages") / name
    path.write_text(html, encoding="utf-8")
    tab = browser.new_page(viewport={"width": 1300, "height": 850})
    errors, requests, blocked, console = [], [], [], []

    def route(request):
        requests.append(request.request.url)
        request.continue_() if request.request.url == path.as_uri() else request.abort()

    tab.route("**/*", route)
    tab.on("requestfailed", lambda request: request.failure == "csp" and blocked.append(request.url))
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: console.append(message.text))
    tab.goto(path.as_uri() + fragment)
    tab.errors, tab.requests, tab.blocked, tab.console = errors, requests, blocked, console
    tab.url_of_file = path.as_uri()
    return tab
