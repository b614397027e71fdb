"""The web layer: the page to play against the AI and the JSON API (``splendor serve``).

Needs the ``web`` extra (``pip install 'splendor[web]'``: FastAPI and uvicorn);
``import splendor`` never imports it.
"""

from __future__ import annotations

from splendor.web.ai import ServerLimits
from splendor.web.app import create_app

__all__ = ["ServerLimits", "create_app", "serve"]


def serve(host: str = "127.0.0.1", port: int = 8000, limits: ServerLimits | None = None) -> None:
    """Run the app with uvicorn until interrupted (binds to localhost unless told otherwise)."""
    import uvicorn

    # Keep idle connections longer than a queued search can take, so a client reusing one does
    # not race the server closing it (uvicorn's default is 5 s).
    uvicorn.run(create_app(limits), host=host, port=port, log_level="info", timeout_keep_alive=75)
