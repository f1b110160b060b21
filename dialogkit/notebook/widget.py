"""``ChatWidget``: chat with any session in a Jupyter notebook (ipywidgets 8).

How it stays safe inside Jupyter's running event loop: widget callbacks are plain functions
called on the kernel's loop, and the widget calls the session's *blocking* methods from them.
A local ``Session.send`` runs its turn on dialogkit's own event loop in a background thread
(``dialogkit.engine.sync.Portal``), so it works from inside a running loop without
``nest_asyncio``, and every call of the engine, whether from the widget or from ``send()`` in
another cell, stays on that one loop, as the engine requires. A ``RemoteSession.send`` is a
plain blocking HTTP call. The price is that the kernel waits for the turn; the input is
disabled meanwhile. Only a session without blocking methods (``AsyncRemoteSession``) is
driven asynchronously: its turn is scheduled on the running loop with
``asyncio.ensure_future``, since its HTTP client belongs to that loop.
"""

from __future__ import annotations

import asyncio
import html
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from dialogkit.engine.session import Reply
from dialogkit.notebook.status import AsyncChatSession, ChatSession, Status
from dialogkit.notebook.transcript import Transcript
from dialogkit.wire import ChatbotSessionInfoResponse

__all__ = ["ChatWidget"]

_BUBBLE = "display:inline-block;padding:4px 10px;border-radius:10px;max-width:85%;"
_STYLES = {
    "user": ("right", _BUBBLE + "background:#d0ebff;"),
    "bot": ("left", _BUBBLE + "background:#f1f3f5;"),
    "error": ("left", _BUBBLE + "background:#fff5f5;color:#c92a2a;"),
}


@dataclass(frozen=True)
class _Message:
    role: str
    text: str
    note: str = ""

    def html(self) -> str:
        align, style = _STYLES[self.role]
        note = (
            f'<div style="font-size:10px;color:#868e96">{html.escape(self.note)}</div>'
            if self.note
            else ""
        )
        text = html.escape(self.text) or "<i>(empty)</i>"
        return (
            f'<div class="dk-{self.role}" style="text-align:{align};margin:4px 0">'
            f'<span style="{style}">{text}</span>{note}</div>'
        )


class ChatWidget:
    """A chat view of a session: a log, an input box, an STT-confidence control, a side panel.

    ``session`` is a local ``Session``, a ``RemoteSession`` or an ``AsyncRemoteSession``.
    Type and press Enter (or click Send); the side panel shows the node, turn count and
    slots after every reply, plus intent and fallback kind when the session reports them.
    A confidence at or below the session's threshold (default -0.7) marks a message as
    misheard. Display the widget as the last expression of a cell, or with ``display()``.
    """

    def __init__(
        self,
        session: ChatSession | AsyncChatSession,
        *,
        confidence: float = 0.0,
        height: str = "320px",
    ) -> None:
        self.session = session
        self._blocking = session if isinstance(session, ChatSession) else None
        self._async = session if not isinstance(session, ChatSession) else None
        self.replies: list[Reply] = [session.initial_reply]
        self.texts: list[str] = [""]
        self.confidences: list[float | None] = [None]
        self.pending: asyncio.Future[None] | None = None
        """The turn in flight, for a session driven asynchronously (await it to wait)."""
        self._height = height
        self._messages: list[_Message] = []

        self.log = widgets.HTML()
        self.text = widgets.Text(
            placeholder="Type a message, press Enter",
            layout=widgets.Layout(flex="1 1 auto", width="auto"),
        )
        self.send_button = widgets.Button(
            description="Send", button_style="primary", layout=widgets.Layout(width="80px")
        )
        self.confidence = widgets.FloatSlider(
            value=confidence,
            min=-1.0,
            max=1.0,
            step=0.05,
            description="STT conf.",
            readout_format=".2f",
            continuous_update=False,
            tooltip="Confidence sent with each message; at or below the session's threshold "
            "(default -0.7) the message counts as not understood.",
        )
        self.panel = widgets.HTML(layout=widgets.Layout(width="260px", padding="0 0 0 12px"))
        chat = widgets.VBox(
            [self.log, widgets.HBox([self.text, self.send_button]), self.confidence],
            layout=widgets.Layout(flex="1 1 auto"),
        )
        # Only a rendered live view inserts this rule, so the static snapshot shown beside it
        # hides exactly where the live widget is there to replace it.
        live_only = widgets.HTML(layout=widgets.Layout(display="none"))
        self.view = widgets.HBox([chat, self.panel, live_only])
        live_only.value = f"<style>.{self._snapshot_class}{{display:none}}</style>"
        self._widgets = [
            self.view,
            chat,
            *chat.children,
            *chat.children[1].children,
            self.panel,
            live_only,
        ]

        # Enter sends a "submit" event whatever continuous_update says; listening to it
        # directly avoids the deprecated on_submit and keeps the value synced per keystroke.
        self.text.on_msg(self._on_text_event)
        self.send_button.on_click(lambda _button: self.submit())

        opening = session.initial_reply
        if opening.response:
            self._messages.append(_Message("bot", opening.response, Status.of(opening).brief()))
        info = self._blocking.info() if self._blocking is not None else None
        self._render(Status.of(opening, info))

    # ------------------------------------------------------------------ sending

    def submit(self) -> None:
        """Send what is in the input box (empty text too: that is a no-input turn)."""
        text = self.text.value
        self.text.value = ""
        self.send(text)

    def send(self, text: str, confidence: float | None = None) -> None:
        """Send ``text`` (with the slider's confidence unless given) and show the reply.

        For a session driven asynchronously the reply shows once ``pending`` is done.
        """
        value = float(self.confidence.value) if confidence is None else confidence
        self._messages.append(_Message("user", text, f"confidence {value:g}"))
        self._busy(True)
        if self._async is not None:
            turn = self._aturn(self._async, text, value)
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                asyncio.run(turn)
            else:
                self.pending = asyncio.ensure_future(turn)
            return
        assert self._blocking is not None
        try:
            reply = self._blocking.send(text, value)
            info = self._blocking.info()
        except Exception as exc:  # a callback's exception would vanish: show it in the log
            self._failed(exc)
        else:
            self._answered(text, value, reply, info)

    async def _aturn(self, session: AsyncChatSession, text: str, confidence: float) -> None:
        try:
            reply = await session.asend(text, confidence)
            info = await session.ainfo()
        except Exception as exc:  # a task's exception would vanish: show it in the log
            self._failed(exc)
        else:
            self._answered(text, confidence, reply, info)

    def _answered(
        self, text: str, confidence: float, reply: Reply, info: ChatbotSessionInfoResponse
    ) -> None:
        self.replies.append(reply)
        self.texts.append(text)
        self.confidences.append(confidence)
        if reply.error:
            self._messages.append(_Message("error", "The turn failed; the session is unchanged."))
        else:
            self._messages.append(_Message("bot", reply.response, Status.of(reply).brief()))
        self._busy(False)
        self._render(Status.of(reply, info))

    def _failed(self, exc: Exception) -> None:
        self._messages.append(_Message("error", f"{type(exc).__name__}: {exc}"))
        self._busy(False)
        self._render(None)

    def _on_text_event(self, _widget: Any, content: dict[str, Any], _buffers: Any) -> None:
        if content.get("event") == "submit":
            self.submit()

    def _busy(self, busy: bool) -> None:
        self.text.disabled = self.send_button.disabled = busy
        if busy:
            self._render(None)

    # ------------------------------------------------------------------ views

    def _render(self, status: Status | None) -> None:
        messages = "".join(message.html() for message in self._messages)
        # column-reverse keeps the newest message in view without any JavaScript.
        self.log.value = (
            f'<div style="height:{self._height};overflow-y:auto;display:flex;'
            "flex-direction:column-reverse;border:1px solid #dee2e6;border-radius:6px;"
            f'padding:6px 10px"><div>{messages}</div></div>'
        )
        if status is not None:
            rows = "".join(
                f'<tr><th style="text-align:left;padding-right:8px;vertical-align:top">'
                f"{html.escape(label)}</th><td>{html.escape(value)}</td></tr>"
                for label, value in status.fields()
            )
            self.panel.value = (
                f'<div style="font-size:12px"><b>Session</b> <code>{html.escape(self.session.id)}'
                f"</code><table>{rows}</table></div>"
            )

    @property
    def transcript(self) -> Transcript:
        """The conversation so far, one row per reply (opening reply included)."""
        return Transcript.from_replies(self.replies, texts=self.texts, confidences=self.confidences)

    def display(self) -> None:
        """Show the widget (what a cell does when the widget is its last expression)."""
        self._ipython_display_()

    @property
    def _snapshot_class(self) -> str:
        return f"dk-snapshot-{self.view.model_id}"

    def snapshot_html(self) -> str:
        """The conversation so far and the side panel, as static HTML (no widget needed)."""
        return (
            f'<div class="dialogkit-chat {self._snapshot_class}" '
            'style="display:flex;gap:12px;align-items:flex-start">'
            f'<div style="flex:1 1 auto">{self.log.value}</div>'
            f'<div style="width:260px">{self.panel.value}</div></div>'
        )

    def _ipython_display_(self) -> None:
        """Two outputs: a static snapshot (``text/html``), then the live view.

        Why not one output carrying both: ``jupyter nbconvert --execute`` stores the widget
        state, and with it nbconvert renders a widget-view output as the live widget, whose
        JavaScript comes from a CDN; offline the cell showed nothing although the same output
        carried ``text/html``. A separate HTML output is shown by every renderer without a
        kernel (nbconvert, GitHub, VS Code), as the conversation was when the cell ran. Where
        the live widget renders, its style rule hides the snapshot, so it shows once. Display
        the widget again in a later cell to record a later state.
        """
        from IPython.display import display

        display({"text/html": self.snapshot_html()}, raw=True)  # type: ignore[no-untyped-call]
        display(self._repr_mimebundle_(), raw=True)  # type: ignore[no-untyped-call]

    def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
        """The live widget view and a one-line text (the snapshot is an output of its own)."""
        bundle: dict[str, Any] = dict(self.view._repr_mimebundle_(**kwargs) or {})
        bundle["text/plain"] = f"ChatWidget({len(self.replies)} replies, session {self.session.id})"
        return bundle

    def close(self) -> None:
        """Close the widget views (the session itself stays open)."""
        for widget in self._widgets:
            widget.close()
