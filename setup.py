"""Packaging glue: finds gm's packages so none is listed by hand (pyproject.toml holds the rest).

The repository keeps rulesets in games/ and shared templates in templates/; installed, they are
the packages gm_games and gm_templates (see package-dir in pyproject.toml), so that they cannot
clash with another distribution's top-level "games" or "templates". setuptools' own package
finder cannot rename a folder, hence these few lines.
"""

from setuptools import find_packages, setup

INSTALLED_AS = {"gm": "gm", "games": "gm_games", "templates": "gm_templates"}


def packages() -> list[str]:
    found = []
    for folder, name in INSTALLED_AS.items():
        found += [name] + [f"{name}.{sub}" for sub in find_packages(folder)]
    return found


setup(packages=packages())
