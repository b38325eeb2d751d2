"""Registry of SM targets, fed by the ``ori.targets`` entry-point group.

The built-in targets are deliberately *not* imported here: they arrive through
ori's own ``ori.targets`` entry point exactly like a third-party plugin's
(docs/architecture.md "Targets"), so the plugin path is exercised on every run.  The
group is loaded lazily, once, on the first query.

An entry point may load to an :class:`SMTarget`, a list/tuple of them, or a
zero-argument callable returning either.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from importlib.metadata import EntryPoint, entry_points

from targets.descriptor import SMTarget
from targets.errors import DuplicateTargetError, TargetPluginError, UnknownTargetError

ENTRY_POINT_GROUP = "ori.targets"

_lock = threading.RLock()
_targets: dict[str, SMTarget] = {}
_origins: dict[str, str] = {}
_entry_points_loaded = False

# "sm_80", "sm80", "80", "sm_90a", "90a" -> "sm_<digits><suffix>".
_ALIAS_RE = re.compile(r"^(?:sm_?)?(\d+[a-z]?)$")


def _describe(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    where = f" from distribution {dist.name!r}" if dist is not None else ""
    return f"{ENTRY_POINT_GROUP} entry point {ep.name!r} ({ep.value}){where}"


def plugin_targets(obj: object, origin: str) -> list[SMTarget]:
    """Normalise what an entry point loaded to a list of targets; anything
    else raises :class:`TargetPluginError` naming ``origin``."""
    if isinstance(obj, SMTarget):
        return [obj]
    if callable(obj):
        try:
            obj = obj()
        except Exception as exc:
            raise TargetPluginError(f"{origin}: calling it raised {exc!r}") from exc
        if isinstance(obj, SMTarget):
            return [obj]
    if isinstance(obj, (list, tuple)):
        bad = [item for item in obj if not isinstance(item, SMTarget)]
        if not bad:
            return list(obj)
        raise TargetPluginError(f"{origin}: expected SMTarget objects, got {type(bad[0]).__name__}")
    raise TargetPluginError(
        f"{origin}: expected an SMTarget, a list/tuple of them or a zero-argument "
        f"callable returning either; got {type(obj).__name__}"
    )


def _add(target: SMTarget, origin: str, replace: bool) -> None:
    existing = _targets.get(target.name)
    if existing is not None and not replace:
        if existing == target:
            return  # registering the same descriptor twice is harmless
        raise DuplicateTargetError(
            f"target {target.name!r} from {origin} is already registered "
            f"(by {_origins[target.name]}); pass replace=True to override it"
        )
    _targets[target.name] = target
    _origins[target.name] = origin


def _load_entry_points() -> None:
    global _entry_points_loaded
    with _lock:
        if _entry_points_loaded:
            return
        # Mark first so a plugin that itself queries the registry while being
        # loaded does not recurse; on failure the flag is reset below.
        _entry_points_loaded = True
        before = (dict(_targets), dict(_origins))
        try:
            for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
                origin = _describe(ep)
                try:
                    loaded = ep.load()
                except Exception as exc:
                    raise TargetPluginError(
                        f"broken target plugin: {origin} failed to load: {exc!r}"
                    ) from exc
                for target in plugin_targets(loaded, origin):
                    _add(target, origin, replace=False)
        except BaseException:
            # Roll back so a fixed environment can retry cleanly.
            _targets.clear()
            _targets.update(before[0])
            _origins.clear()
            _origins.update(before[1])
            _entry_points_loaded = False
            raise


def register_target(target: SMTarget, replace: bool = False) -> None:
    """Register ``target`` programmatically (e.g. from ``ori-opt --load-plugin``).

    A second, different target under an existing name raises
    :class:`DuplicateTargetError` unless ``replace`` is true.
    """
    if not isinstance(target, SMTarget):
        raise TypeError(f"register_target expects an SMTarget, got {type(target).__name__}")
    _load_entry_points()
    with _lock:
        _add(target, "register_target()", replace)


def unregister_target(name: str) -> None:
    """Remove a target (mainly for tests and plugin reloads); unknown names raise."""
    target = get_target(name)
    with _lock:
        del _targets[target.name]
        del _origins[target.name]


def canonical_name(name: str) -> str:
    """Normalise an alias: ``"80"``, ``"sm80"``, ``"SM_80"`` -> ``"sm_80"``."""
    text = name.strip().lower()
    match = _ALIAS_RE.match(text)
    return f"sm_{match.group(1)}" if match else text


def get_target(name: str) -> SMTarget:
    """Look a target up by name or alias; unknown names raise :class:`UnknownTargetError`."""
    _load_entry_points()
    with _lock:
        found = _targets.get(name) or _targets.get(canonical_name(name))
    if found is None:
        known = ", ".join(t.name for t in list_targets())
        raise UnknownTargetError(f"unknown SM target {name!r}; known targets: {known}")
    return found


def list_targets() -> list[SMTarget]:
    """All registered targets, sorted by (sm, name)."""
    _load_entry_points()
    with _lock:
        return sorted(_targets.values(), key=lambda t: (t.sm, t.name))


def target_origin(name: str) -> str:
    """Where a target came from (entry point description or ``register_target()``)."""
    target = get_target(name)
    with _lock:
        return _origins[target.name]


@dataclass(frozen=True)
class RegistryState:
    """What the registry holds, for :func:`restore` (tests and plugin reloads)."""

    targets: dict[str, SMTarget]
    origins: dict[str, str]
    entry_points_loaded: bool


def snapshot() -> RegistryState:
    """A copy of the registry's state."""
    with _lock:
        return RegistryState(dict(_targets), dict(_origins), _entry_points_loaded)


def restore(state: RegistryState) -> None:
    """Put the registry back into ``state`` (from :func:`snapshot`)."""
    global _entry_points_loaded
    with _lock:
        _targets.clear()
        _targets.update(state.targets)
        _origins.clear()
        _origins.update(state.origins)
        _entry_points_loaded = state.entry_points_loaded


def forget_all() -> None:
    """Empty the registry; the next query loads the entry points again."""
    restore(RegistryState({}, {}, False))
