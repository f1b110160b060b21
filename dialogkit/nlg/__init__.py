"""Natural-language generation: the provider interface and the template provider.

Provider authors import from here::

    from dialogkit.nlg import NLGProvider, NLGRequest
"""

from dialogkit.nlg._base import NLGProvider, NLGRequest
from dialogkit.nlg._templates import TemplateNLG

__all__ = ["NLGProvider", "NLGRequest", "TemplateNLG"]
