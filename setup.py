"""Package discovery: every package under `versions` and `comparator` is found, so a new
game or era needs no edit here; the shipped data installs as `rulesdiff_data`. The rest of
the metadata is in pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["versions", "versions.*", "comparator",
                                        "comparator.*"]), "rulesdiff_data"])
