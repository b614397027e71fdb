"""The page: its HTML and its static files."""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from splendor.web.errors import ApiError

STATIC = files("splendor.web") / "static"
STATIC_FILES = {
    "app.js": "text/javascript",
    "style.css": "text/css",
    "favicon.svg": "image/svg+xml",
}

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
async def page() -> HTMLResponse:
    return HTMLResponse((STATIC / "index.html").read_text(encoding="utf-8"))


@router.get("/favicon.ico")
async def favicon() -> Response:
    # Browsers ask for it whatever the page links: the same picture.
    return await static("favicon.svg")


@router.get("/static/{name}")
async def static(name: str) -> Response:
    if name not in STATIC_FILES:
        raise ApiError(404, "not_found", f"no static file {name!r}")
    return Response((STATIC / name).read_text(encoding="utf-8"), media_type=STATIC_FILES[name])
