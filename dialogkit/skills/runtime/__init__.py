"""The reference skill runtime: offline skills served over the outbound skill contract.

``create_runtime_app()`` builds the Sanic app, ``serve(host, port)`` runs it in the
foreground, and ``RuntimeServer`` runs it in the background of the current process.
"""

from dialogkit.skills.runtime.app import SKILLS, ErrorBody, SkillFunction, create_runtime_app, serve
from dialogkit.skills.runtime.arguments import InvalidArguments
from dialogkit.skills.runtime.server import RuntimeServer

__all__ = [
    "SKILLS",
    "ErrorBody",
    "InvalidArguments",
    "RuntimeServer",
    "SkillFunction",
    "create_runtime_app",
    "serve",
]
