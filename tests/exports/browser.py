"""Headless Chromium (Debian's /usr/bin/chromium) driven by Playwright, for page tests and bench.

No browser is ever downloaded: Playwright is pointed at the system binary. :func:`open_page`
records console errors, page errors, dialogs and every request that is not ``file:``/``data:``/
``about:``, and routes such requests to an abort so an offline page is proven offline.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

CHROMIUM = os.environ.get("PAPERKG_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
_LOCAL = ("file:", "data:", "about:", "blob:")


class BrowserUnavailable(RuntimeError):
    """Chromium or Playwright could not start."""


@dataclass
class PageLog:
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A persistent Chromium context with a fresh user data dir; raises BrowserUnavailable."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - environment problem
        raise BrowserUnavailable(f"Playwright for Python is not installed: {exc}") from exc
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        raise BrowserUnavailable(f"no Chromium at {CHROMIUM} (install Debian's chromium or set PAPERKG_CHROMIUM)")
    profile = tempfile.mkdtemp(prefix="paperkg-chromium-")
    try:
        with sync_playwright() as pw:
            try:
                ctx = pw.chromium.launch_persistent_context(
                    profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                    viewport={"width": 1280, "height": 800})
            except Exception as exc:
                raise BrowserUnavailable(f"Chromium at {CHROMIUM} did not start: {exc}") from exc
            try:
                yield ctx
            finally:
                ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def open_page(ctx: Any, path: Path, *, wait_drawn: bool = True, timeout_ms: int = 30000) -> tuple[Any, PageLog]:
    """Open ``path`` in a new tab of ``ctx``; returns the page and its log."""
    log = PageLog()
    page = ctx.new_page()
    page.on("console", lambda m: log.console_errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: log.page_errors.append(str(e)))

    def on_dialog(d: Any) -> None:
        log.dialogs.append(f"{d.type}: {d.message}")
        d.dismiss()

    page.on("dialog", on_dialog)
    page.on("request", lambda r: log.requests.append(r.url))

    def route(r: Any) -> None:
        if r.request.url.startswith(_LOCAL):
            r.continue_()
        else:
            log.external.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.goto(Path(path).resolve().as_uri(), wait_until="load", timeout=timeout_ms)
    if wait_drawn:
        page.wait_for_function("window.paperkgDrawn !== undefined", timeout=timeout_ms)
    return page, log
