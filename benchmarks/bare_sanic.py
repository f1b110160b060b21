"""The peer of ``benchmarks.server``: a bare Sanic endpoint doing the least a turn must do.

It parses the same body with the same pydantic model (``ChatbotRequest``) and answers a
``ChatbotMessageResponse`` of similar size, encoded the same way; no engine, no store.
Run by ``benchmarks.server``: ``python -m benchmarks.bare_sanic --port N``.
"""

from __future__ import annotations

import argparse

from sanic import HTTPResponse, Request, Sanic

from dialogkit.wire import ChatbotMessageResponse, ChatbotRequest, dump_json

REPLY = "그러셨군요. 오늘 식사는 제때 챙겨 드셨어요? 입맛이 없으셔도 조금이라도 꼭 드세요."


def create_app() -> Sanic:  # type: ignore[type-arg]
    app = Sanic("bare_sanic")

    @app.post("/v1/message")
    async def message(request: Request) -> HTTPResponse:
        body = ChatbotRequest.model_validate_json(request.body)
        reply = ChatbotMessageResponse(
            session_id=body.session_id,
            response=REPLY,
            current_node="ask_meal",
            turn_count=3,
            processing_time_ms=0.25,
        )
        return HTTPResponse(dump_json(reply, exclude_none=True), content_type="application/json")

    @app.get("/")
    async def root(request: Request) -> HTTPResponse:
        return HTTPResponse(b"{}", content_type="application/json")

    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--backlog", type=int, default=1024)
    args = parser.parse_args()
    create_app().run(
        host="127.0.0.1",
        port=args.port,
        single_process=True,
        debug=False,
        access_log=False,
        backlog=args.backlog,
    )


if __name__ == "__main__":
    main()
