"""Context-manager mixins: one place for the lifecycle protocol of dialogkit's resources.

Clients, runners and background servers all open something and must release it, and each
spelled ``with``/``async with`` out by hand. A class names its release method (``close``,
``aclose``, or ``start`` and ``stop``) and takes the protocol from here, so every resource
enters and exits the same way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from types import TracebackType
from typing import Self

__all__ = ["AsyncClosingMixin", "AsyncStartStopMixin", "ClosingMixin", "StartStopMixin"]


class ClosingMixin(ABC):
    """``with`` returns the object itself and calls ``close()`` on the way out."""

    @abstractmethod
    def close(self) -> None:
        """Release what the object holds."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


class AsyncClosingMixin(ABC):
    """``async with`` returns the object itself and awaits ``aclose()`` on the way out."""

    @abstractmethod
    async def aclose(self) -> None:
        """Release what the object holds."""

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()


class StartStopMixin(ABC):
    """``with`` calls ``start()`` (and returns what it returns) and ``stop()`` on the way out."""

    @abstractmethod
    def start(self) -> Self:
        """Start serving; a second call while running does nothing."""

    @abstractmethod
    def stop(self) -> None:
        """Stop serving; a call while stopped does nothing."""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


class AsyncStartStopMixin(StartStopMixin):
    """``async with`` as well as ``with``, for servers used from async code too.

    ``start`` and ``stop`` block only until the serving thread is up or gone, so the async
    forms call them directly rather than in an executor.
    """

    async def __aenter__(self) -> Self:
        return self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
