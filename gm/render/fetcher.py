"""The only door WeasyPrint may read through: data: URLs and files inside gm's asset folders."""

from __future__ import annotations

import logging
import mimetypes
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

from gm.render.libraries import found_once

with found_once():  # importing weasyprint.urls imports the whole of WeasyPrint (gm.render.libraries)
    from weasyprint.urls import URLFetcher, URLFetcherResponse  # type: ignore[import-untyped]  # WeasyPrint has no types

log = logging.getLogger(__name__)


class RefusedURL(ValueError):
    """A URL the report renderer will not read (outside the asset folders, or not data:/file:)."""


class AssetFetcher(URLFetcher):  # type: ignore[misc]  # URLFetcher is untyped (Any)
    """A WeasyPrint 70 URL fetcher that serves data: URLs and files under `roots`, nothing else.

    WeasyPrint's own fetcher opens any file and makes network requests; a report shows text that
    players wrote, so everything else is refused. Paths are compared after os.path.realpath, so
    neither `..` nor a symlink inside a root can reach a file outside it.

    roots: the asset folders (normally the template lookup folders, see environment.asset_dirs).
    fail_on_errors: make a refusal stop the render instead of leaving the resource out.
    refused: the URLs refused so far, newest last (for tests and logs).
    """

    def __init__(self, roots: Iterable[Path | str], *, fail_on_errors: bool = False):
        super().__init__(allowed_protocols=("data", "file"), allow_redirects=False, fail_on_errors=fail_on_errors)
        self.roots = tuple(os.path.realpath(root) for root in roots)
        self.refused: list[str] = []

    def fetch(self, url: str, headers: Mapping[str, str] | None = None) -> URLFetcherResponse:
        scheme = url.partition(":")[0].lower()
        if scheme == "data":
            # urllib's data: handler only decodes the URL itself; it opens nothing.
            return super().fetch(url, headers)
        if scheme == "file":
            path = self.asset_path(url)
            if path is not None:
                mime = mimetypes.guess_type(path)[0] or "application/octet-stream"
                with open(path, "rb") as asset:
                    body = asset.read()
                return URLFetcherResponse(url, body, {"Content-Type": mime})
        self.refused.append(url)
        log.warning("report renderer refused to fetch %s", url[:200])
        raise RefusedURL(f"not a data: URL or a file in gm's asset folders: {url[:200]}")

    def asset_path(self, url: str) -> str | None:
        """The real path a file: URL names, if it is a regular file inside one of the roots."""
        parts = urlsplit(url)
        if parts.netloc not in ("", "localhost"):
            return None  # file://host/... would be a network share
        path = url2pathname(unquote(parts.path))
        if "\x00" in path or not os.path.isabs(path):
            return None
        real = os.path.realpath(path)
        if not os.path.isfile(real):
            return None
        for root in self.roots:
            if os.path.commonpath([root, real]) == root:
                return real
        return None
