"""Fixtures for the render tests: an environment with the Clash templates and a strict fetcher."""

from __future__ import annotations

import pytest

from gm.render.environment import asset_dirs, make_environment, package_templates_dir
from gm.render.fetcher import AssetFetcher


@pytest.fixture(scope="session")
def clash_dir():
    return package_templates_dir("gm_games.clash.templates")


@pytest.fixture(scope="session")
def env(clash_dir):
    return make_environment(None, [clash_dir])


@pytest.fixture
def strict_fetcher(env):
    """A fetcher over the environment's folders that stops the render on any refused URL."""
    return AssetFetcher(asset_dirs(env), fail_on_errors=True)
