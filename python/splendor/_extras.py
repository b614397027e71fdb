"""The message an optional layer gives when its extra is not installed.

``import splendor.envs.gymnasium`` without the ``rl`` extra says which extra to install, as
``splendor serve`` and ``splendor ladder`` do, instead of a bare ``No module named ...``.
"""

from __future__ import annotations


def missing_extra(module: str, extra: str, exc: ModuleNotFoundError) -> ModuleNotFoundError:
    """The error to raise from ``module`` when importing a dependency of ``extra`` failed.

    A :class:`ModuleNotFoundError` still (code catching ``ImportError`` keeps working), with
    the missing module's ``name``.
    """
    return ModuleNotFoundError(
        f"{module} needs the {extra} extra: pip install 'splendor[{extra}]' ({exc})",
        name=exc.name,
    )
