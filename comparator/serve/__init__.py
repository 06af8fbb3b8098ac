"""`rulesdiff serve`: the workbench, a local web application. It owns the HTTP side (the
routes, the JSON API of docs/serve.md, the bounds on what a request may ask), the work a
request does on a scenario's text (validate, run, diff, explore in a process of its own),
the scenarios it opens and saves, the workbench page and the site's pages served live from
the store. The pictures and templates are the site's (``comparator.site``)."""
