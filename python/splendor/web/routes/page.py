"""The page: its HTML and its static files (an explicit list: nothing else is served)."""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from splendor.web.errors import ApiError

STATIC = files("splendor.web") / "static"
_JS_MODULES = (
    "api",
    "board",
    "live",
    "main",
    "moves",
    "notify",
    "panels",
    "picks",
    "review",
    "seats",
    "setup",
    "state",
)
"""The page's ES modules, under ``static/js/`` (main.js imports the others)."""
STATIC_FILES = {
    "style.css": "text/css",
    "favicon.svg": "image/svg+xml",
    **{f"js/{name}.js": "text/javascript" for name in _JS_MODULES},
}
"""Every static file the server serves, by its path under ``static/``, with its type
(browsers run a module only when it comes as JavaScript)."""

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def page() -> HTMLResponse:
    return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))


@router.get("/favicon.ico")
async def favicon() -> Response:
    # Browsers ask for it whatever the page links: the same picture.
    return await static("favicon.svg")


@router.get("/static/{name:path}")
async def static(name: str) -> Response:
    if name not in STATIC_FILES:
        raise ApiError(404, "not_found", f"no static file {name!r}")
    resource = STATIC.joinpath(*name.split("/"))
    return Response(resource.read_text(encoding="utf-8"), media_type=STATIC_FILES[name])
