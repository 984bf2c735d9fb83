"""The baseline `python -m bench.service` measures the service against: a minimal Litestar app
on the same uvicorn, answering a view (a small JSON document) and an action (a small JSON body
decoded, a small document answered), with no database and no rules.

    python -m uvicorn bench.service_minimal:app --port 8001
"""

from __future__ import annotations

from typing import Any

from litestar import Litestar, get, post

VIEW = {"id": "m", "role": "JP", "ply": 0, "view": {"to_move": "JP", "legal_actions": []}}


@get("/view", sync_to_thread=False)
def view() -> dict[str, Any]:
    return VIEW


@post("/action", sync_to_thread=False, status_code=200)
def action(data: dict[str, Any]) -> dict[str, Any]:
    return {**VIEW, "ply": int(data.get("ply", 0)) + 1}


app = Litestar(route_handlers=[view, action], debug=False)
