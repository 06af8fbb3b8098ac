"""The whole build of the site: gather, write the pages, index them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine


@dataclass
class Built:
    pages: int
    scenarios: int
    explored: int


def build_site(out: Path, engine: Engine, paths: Sequence[Path], eras: list[str],
               explore: bool = True, jobs: int = 1,
               progress: Callable[[str], None] | None = None) -> Built:
    from comparator.site.gather import gather
    from comparator.site.pages import write_pages
    from comparator.site.search import index

    say = progress or (lambda what: None)
    got = gather(engine, paths, eras, explore, jobs, say)
    pages = write_pages(out, got, say)
    say("indexing the pages for search")
    index(out)
    return Built(pages, len(got.scenarios), sum(1 for s in got.scenarios if s.explored))
