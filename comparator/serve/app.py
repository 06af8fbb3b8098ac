"""The workbench's web application (Starlette): the page, its assets, the JSON API of
docs/serve.md, and the site's pages served live. Every refusal is a JSON object with one
line (``{"error": ...}``) and an HTTP status; nothing a request sends reaches a page
unescaped, and nothing is written but a file of the served folder or a run in the store."""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
import threading
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from comparator.explore.eras import BLOCKS, FIELDS, OBJECTIVES
from comparator.serve import speech, texts
from comparator.serve.errors import Refused
from comparator.serve.guard import Guard
from comparator.serve.jobs import Jobs
from comparator.serve.limits import Limits
from comparator.serve.live_site import LiveSite
from comparator.serve.sources import Sources
from comparator.serve.views import HERE, Words, environment, explored_html, result_html
from comparator.serve.words import said
from comparator.text.language import NAMES, _, speaking
from versions import ENGINE_VERSION, TITLES

SITE_STATIC = Path(__file__).resolve().parents[1] / "site" / "static"
# The workbench's page asks for nothing but its own server.
POLICY = ("default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
          "script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; "
          "frame-ancestors 'none'")


@dataclass
class Settings:
    folder: Path | None = None
    db: str | None = None
    host: str = "127.0.0.1"
    limits: Limits = field(default_factory=Limits)
    eras: list[str] | None = None  # the site's eras (None: every one)


class Workbench:
    """What the routes share: the settings, the explores under way, the rules' words, the
    live site."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.limits = settings.limits
        self.sources = Sources(settings.folder, settings.db)
        self.jobs = Jobs(settings.limits)
        self.words = Words(settings.db)
        self.site = LiveSite(settings.db, settings.folder, settings.eras or [])
        # Held by a request's work until its thread ends, even one answered 503 past its
        # wall time (a thread can't be stopped): so no more than `runs` ever work at once.
        self.slots = threading.BoundedSemaphore(settings.limits.runs)
        self.threads = anyio.CapacityLimiter(4 * settings.limits.runs)

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object, read up to the size bound."""
        if not request.headers.get("content-type", "").startswith("application/json"):
            # Also what keeps another site's page from posting here: a form can't send it.
            raise Refused(415, _("send the request as JSON (Content-Type: application/json)"))
        bound = self.limits.body_bytes
        too_large = Refused(413, _("the request is larger than {bound} bytes, the most this "
                                   "server reads (serve --max-body)").format(bound=bound))
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > bound):
            raise too_large
        got = bytearray()
        async for chunk in request.stream():
            got += chunk
            if len(got) > bound:
                raise too_large
        return texts.json_of(bytes(got))

    async def work(self, what: Any, *args: Any) -> Any:
        """`what(*args)` in a thread, bounded in wall time and in how many run at once."""
        seconds = self.limits.seconds
        deadline = time.monotonic() + seconds

        def bounded() -> Any:
            if not self.slots.acquire(timeout=max(0.0, deadline - time.monotonic())):
                raise TimeoutError
            try:
                return what(*args)
            finally:
                self.slots.release()

        try:
            with anyio.fail_after(seconds):
                return await anyio.to_thread.run_sync(bounded, limiter=self.threads,
                                                      abandon_on_cancel=True)
        except TimeoutError:
            raise Refused(503, _("the request took more than {seconds} s, the most this "
                                 "server gives one (serve --seconds)").format(
                                     seconds=f"{seconds:g}")) from None


def _name(body: dict[str, Any]) -> str:
    return texts.file_name(body.get("name"))


def create_app(settings: Settings) -> Starlette:
    bench = Workbench(settings)
    pages_env = environment()
    shipped_count = len(bench.sources.shipped())  # the page's footer says it

    def workbench_page(lang: str) -> Any:
        """The workbench's page in one language: the site's pages of that language in its
        menu, its other language's page as its alternate and its switch, and the script's
        words said in it."""
        alternates = [{"lang": code, "href": href} for code, href in speech.WORKBENCH.items()]
        other = next(a for a in alternates if a["lang"] != lang)

        def page(request: Request) -> Response:
            with speaking(lang):
                html = pages_env.get_template("workbench.html").render(
                    root=speech.SITE[lang], top="/site/", lang=lang, languages=alternates,
                    switch={**other, "name": NAMES[other["lang"]]},
                    workbench_href=speech.WORKBENCH[lang], section="workbench",
                    title=_("Workbench"), engine_version=ENGINE_VERSION,
                    scenario_count=shipped_count, can_save=settings.folder is not None,
                    max_limit=settings.limits.explore_limit, words=said())
            return HTMLResponse(html, headers={"Content-Security-Policy": POLICY,
                                               "Content-Language": lang})

        return page

    async def scenarios(request: Request) -> Response:
        return JSONResponse(await bench.work(bench.sources.listing))

    async def vocabulary(request: Request) -> Response:
        from comparator.games.registry import game_named
        from versions import GAMES, eras_of

        game = request.query_params.get("game", "mtg")
        if game not in GAMES:
            raise Refused(400, _("game: one of {games}, not {game}").format(
                games=", ".join(GAMES), game=repr(game)))
        adapter = game_named(game)
        words = adapter.vocabulary() if adapter.vocabulary else None
        if words is not None:
            words = {**words, "labels": _labels(words)}
        return JSONResponse({"game": game, "eras": list(eras_of(game)), "form": words})

    async def open_source(request: Request) -> Response:
        q = request.query_params
        return JSONResponse(await bench.work(bench.sources.open, q.get("source"),
                                             q.get("name")))

    async def validate(request: Request) -> Response:
        body = await bench.body(request)

        def check() -> dict[str, Any]:
            text = texts.text_of(body)
            found = texts.checked(text, _name(body))
            if "scenario" in body and "yaml" not in body:
                found["yaml"] = text
            return found

        return JSONResponse(await bench.work(check))

    async def run(request: Request) -> Response:
        body = await bench.body(request)
        return JSONResponse(await bench.work(
            lambda: texts.outcome(texts.text_of(body), _name(body), body.get("era"))))

    async def diff(request: Request) -> Response:
        body = await bench.body(request)
        eras = texts.eras_asked(body.get("eras"))
        found = await bench.work(lambda: texts.result(texts.text_of(body), _name(body), eras))
        doc = texts.diff(found)
        if body.get("store") is True:
            await bench.work(_store, settings.db, found)
            bench.site.changed()
        return JSONResponse(doc)

    async def view(request: Request) -> Response:
        """The page's own: the check of the text and, if it runs, the result as HTML."""
        body = await bench.body(request)
        name = _name(body)

        def both() -> dict[str, Any]:
            text = texts.text_of(body)
            found, result = texts.checked_run(text, name, said=True)
            if "scenario" in body and "yaml" not in body:
                found["yaml"] = text
            found["game_title"] = _(TITLES[found["game"]]) if found["game"] in TITLES \
                else found["game"]
            if result is not None:
                found["diff"] = texts.diff(result)
                found["html"] = result_html(result, bench.words)
            return found

        return JSONResponse(await bench.work(both))

    async def explore_start(request: Request) -> Response:
        body = await bench.body(request)
        name = _name(body)
        options = _explore_options(body, settings.limits)
        text = await bench.work(texts.text_of, body)
        scenario = await bench.work(texts.loaded, text, name)
        options["eras"] = texts.of_its_game(scenario, options["eras"], name)
        job = bench.jobs.start(text, name, scenario.id, options)
        if body.get("wait") is True:
            await anyio.to_thread.run_sync(bench.jobs.wait, job,
                                           settings.limits.explore_seconds + 5)
            return await _job_response(job, request, body.get("html") is True)
        # A job's record says its error in the request's language: in a thread, as all
        # saying is (a sentence is matched against many patterns).
        return JSONResponse(await bench.work(job.record), status_code=202)

    async def _job_response(job: Any, request: Request, html: bool) -> Response:
        out = await bench.work(job.record)
        if html and job.state == "done" and job.doc is not None:
            result = await bench.work(texts.result, job.text, job.name,
                                      texts.eras_asked(None))
            out["html"] = await bench.work(explored_html, result, job.doc)
        return JSONResponse(out)

    async def explore_status(request: Request) -> Response:
        job = bench.jobs.get(request.path_params["job"])
        if request.method == "DELETE":
            bench.jobs.cancel(job.id)
            return JSONResponse(await bench.work(job.record))
        return await _job_response(job, request, request.query_params.get("html") == "1")

    async def save(request: Request) -> Response:
        body = await bench.body(request)
        text = await bench.work(texts.text_of, body)
        name = body.get("name")
        checked = await bench.work(texts.checked, text, texts.file_name(name), True)
        if not checked["ok"]:
            first = checked["problems"][0]
            raise Refused(422, _("not saved: {field}: {problem}").format(
                field=first["field"] or _("the text"), problem=first["said"]),
                checked["problems"])
        saved = await bench.work(bench.sources.save, name, text, body.get("replace") is True)
        bench.site.changed()  # the site shows the folder's files: built again when asked
        return JSONResponse(saved)

    async def site_page(request: Request) -> Response:
        rel = request.path_params.get("path") or "index.html"
        if rel.endswith("/") or rel == "ja":
            rel = rel.rstrip("/") + "/index.html"
        lang = "ja" if rel.startswith("ja/") else "en"
        with speaking(lang):
            folder = await anyio.to_thread.run_sync(bench.site.pages)
            if folder is None:
                said_error = str(bench.site.error or _("the site is not built"))
                return HTMLResponse(f"<!doctype html><html lang=\"{lang}\"><title>rulesdiff"
                                    f"</title><p>{escape(said_error)}</p>", status_code=503)
            path = (folder / rel).resolve()
            if not path.is_relative_to(folder.resolve()) or not path.is_file():
                title, said, home = _("Not found"), _("No such page."), _("The timeline")
                return HTMLResponse(
                    f"<!doctype html><html lang=\"{lang}\"><title>{escape(title)} — rulesdiff"
                    f"</title><p>{escape(said)} <a href=\"{speech.SITE[lang]}index.html\">"
                    f"{escape(home)}</a></p>", status_code=404)
            if path.suffix == ".html":
                return HTMLResponse(_with_workbench(path.read_text(encoding="utf-8"), rel,
                                                    bench.site.sources, lang))
            return FileResponse(path)

    routes = [
        Route("/", lambda r: RedirectResponse("/workbench")),
        Route("/workbench", answered(workbench_page("en"))),
        Route("/ja/workbench", answered(workbench_page("ja"))),
        Route("/ja", lambda r: RedirectResponse("/ja/workbench")),
        Route("/ja/", lambda r: RedirectResponse("/ja/workbench")),
        Mount("/workbench/assets", StaticFiles(directory=HERE / "static"), name="assets"),
        Route("/api/scenarios", answered(scenarios)),
        Route("/api/vocabulary", answered(vocabulary)),
        Route("/api/open", answered(open_source)),
        Route("/api/validate", answered(validate), methods=["POST"]),
        Route("/api/run", answered(run), methods=["POST"]),
        Route("/api/diff", answered(diff), methods=["POST"]),
        Route("/api/view", answered(view), methods=["POST"]),
        Route("/api/explore", answered(explore_start), methods=["POST"]),
        Route("/api/explore/{job}", answered(explore_status), methods=["GET", "DELETE"]),
        Route("/api/save", answered(save), methods=["POST"]),
        Mount("/site/assets", StaticFiles(directory=SITE_STATIC), name="site-assets"),
        Route("/site/{path:path}", answered(site_page)),
        Route("/site", lambda r: RedirectResponse("/site/index.html")),
    ]
    middleware = [Middleware(Guard, bound=settings.host)]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        bench.jobs.shutdown()  # no search outlives the server
        bench.site.close()

    app = Starlette(routes=routes, middleware=middleware,
                    lifespan=lifespan)
    app.state.bench = bench
    return app


def answered(endpoint: Any) -> Any:
    """A route that answers every failure in one line of JSON: a refusal with its status,
    anything else as 500, said in one line on the server's stderr too (no traceback)."""

    @functools.wraps(endpoint)
    async def route(request: Request) -> Response:
        # Said in the language the request asks for (docs/serve.md): the threads and the
        # templates of its work see it (anyio's threads run in a copy of this context).
        with speaking(speech.of_headers(request.headers)):
            try:
                found = endpoint(request)
                return await found if inspect.isawaitable(found) else found
            except Refused as refusal:
                return JSONResponse(refusal.body(), status_code=refusal.status)
            except Exception as exc:
                first = str(exc).splitlines()[0] if str(exc) else ""
                line = f"{type(exc).__name__}: {first}"
                print(f"rulesdiff serve: {request.method} {request.url.path}: {line}",
                      file=sys.stderr)
                return JSONResponse(
                    {"error": _("the server failed on this request ({error})").format(
                        error=line)}, status_code=500)

    return route


def _explore_options(body: dict[str, Any], limits: Limits) -> dict[str, Any]:
    out: dict[str, Any] = {"eras": texts.eras_asked(body.get("eras"))}
    for key, allowed, default in (("objective", OBJECTIVES, "material"),
                                  ("fields", FIELDS, "end-of-turn"),
                                  ("blocks", BLOCKS, "fixed")):
        value = body.get(key, default)
        if value not in allowed:
            raise Refused(400, _("{key}: one of {allowed}, not {value}").format(
                key=key, allowed=", ".join(allowed), value=repr(value)))
        out[key] = value
    limit = body.get("limit", limits.explore_limit)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
        raise Refused(400, _("limit: a whole number of lines of play, at least 1"))
    if limit > limits.explore_limit:
        raise Refused(400, _("limit: at most {limit} lines of play on this server (serve "
                             "--limit); explore larger searches with the command line")
                      .format(limit=limits.explore_limit))
    out["limit"] = limit
    return out


def _store(db: str | None, found: Any) -> None:
    from comparator.dataset.runs import save
    from comparator.store.database import open_engine

    engine = open_engine(db)
    try:
        save(engine, [found])
    finally:
        engine.dispose()


_NAV_END = "</ul>\n  </nav>"


def _with_workbench(html: str, rel: str, sources: dict[str, str], lang: str = "en") -> str:
    """A site page as served here: the workbench of the page's language in its navigation,
    and on a scenario's page a link that opens the scenario there (`sources`: each
    scenario id's source, as the workbench opens it: "shipped:ID", "folder:FILE"), in the
    page's language (`rel`: its path under the site, "ja/..." for a Japanese page)."""
    bench = speech.WORKBENCH[lang]
    with speaking(lang):
        name, open_it = _("Workbench"), _("Open this scenario in the workbench")
        html = html.replace(_NAV_END, f'  <li><a href="{bench}">{escape(name)}'
                                      "</a></li>\n    " + _NAV_END, 1)
        page = rel[len("ja/"):] if lang == "ja" else rel
        if page.startswith("scenarios/") and page.count("/") == 1:
            source = sources.get(page[len("scenarios/"):-len(".html")])
            if source is not None:
                link = (f'<p class="open-in"><a href="{bench}?open='
                        f'{quote(source, safe=":")}">'
                        f"{escape(open_it)}</a></p>\n")
                html = html.replace("</h1>\n", "</h1>\n" + link, 1)
    return html


def _labels(words: dict[str, Any]) -> dict[str, str]:
    """The form's values that are the rules' own words (windows, effects, triggers,
    keywords), each said in the language spoken where it has words of its own; a value
    said as written is left out."""
    from comparator.text.phrases import term

    out = {}
    for key in ("windows", "triggers", "activated", "keywords", "ability_targets"):
        for value in words.get(key) or []:
            label = term(value)
            if label != value:
                out[value] = label
    for value in words.get("effects") or {}:
        label = term(value)
        if label != value:
            out[value] = label
    return out
