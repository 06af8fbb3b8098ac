"""The language a request is answered in: the workbench's pages have their own (`/workbench`
English, `/ja/workbench` Japanese, and the site's pages theirs by their folder), and each
request of the API is said in the language its `Accept-Language` header asks for first
among those rulesdiff speaks (the page's script sends its page's language), English
where it names none of them. Only the words change: the JSON of a run, a diff, an
explore or a validate is the same in every language."""

from __future__ import annotations

from comparator.text.language import LANGUAGES

# Where each language's workbench page is, and where its site's pages are served.
WORKBENCH = {"en": "/workbench", "ja": "/ja/workbench"}
SITE = {"en": "/site/", "ja": "/site/ja/"}


def asked(header: str | None) -> str:
    """The language an `Accept-Language` header asks for: of those rulesdiff speaks, the
    one of highest weight (the first of equal weights); English where it names none."""
    best, weight = "en", 0.0
    for part in (header or "").split(","):
        tag, *params = part.strip().split(";")
        code = tag.strip().lower().replace("_", "-").split("-")[0]
        q = 1.0
        for param in params:
            key, _sep, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if code in LANGUAGES and q > weight:
            best, weight = code, q
    return best


def of_headers(headers: dict[str, str] | object) -> str:
    """The language of a request's headers (a mapping of lower-case names)."""
    get = getattr(headers, "get", None)
    return asked(get("accept-language") if get else None)
