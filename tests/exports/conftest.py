"""Fixtures of the export tests: a headless Chromium for page tests, hand-built graphs."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from browser import BrowserUnavailable, chromium


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """A Playwright browser context; a browser that cannot start FAILS the test, never skips it."""
    try:
        with chromium() as ctx:
            yield ctx
    except BrowserUnavailable as exc:
        pytest.fail(f"headless Chromium is required for the page tests: {exc}")
