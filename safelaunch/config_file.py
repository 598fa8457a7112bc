"""safelaunch's YAML config file (``--config``, or ``./safelaunch.yaml``): found, read within
bounds, and turned into click's defaults with each option's own type.

A module of its own so that YAML is loaded only when a config file is there.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
import yaml

from safelaunch.config import option_key
from safelaunch.errors import ConfigError
from safelaunch.option_types import shown

MAX_CONFIG_BYTES = 1 << 20
MAX_CONFIG_DEPTH = 20
MAX_CONFIG_ALIASES = 20


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses alias bombs and deep nesting before building anything."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0
        self._aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: int) -> yaml.Node | None:
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_CONFIG_ALIASES:
                raise ConfigError(f"more than {MAX_CONFIG_ALIASES} YAML aliases (*name); "
                                  "write the values out")
        self._depth += 1
        try:
            if self._depth > MAX_CONFIG_DEPTH:
                raise ConfigError(f"nested more than {MAX_CONFIG_DEPTH} levels deep; a "
                                  "safelaunch config is a flat mapping")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def load_config_file(
    path: Path, params: Mapping[str, click.Parameter], ctx: click.Context
) -> dict[str, Any]:
    """Read a YAML mapping and convert each value with the type of the option it mirrors.

    Returns a click ``default_map``; raises ``ConfigError`` naming the file, line and key.
    """
    node, data = _read_yaml(path)
    if data is None:
        return {}
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        raise ConfigError(f"{path}: expected a mapping of option names to values")
    lines = {str(k.value): k.start_mark.line + 1 for k, _ in node.value}
    default_map: dict[str, Any] = {}
    for raw_key, value in data.items():
        key = option_key(str(raw_key))
        where = f"{path} line {lines.get(str(raw_key), '?')}"
        param = params.get(key)
        if param is None:
            close = difflib.get_close_matches(key, list(params), n=1)
            hint = f" (did you mean '{close[0].replace('_', '-')}'?)" if close else ""
            raise ConfigError(f"{where}: unknown key '{raw_key}'{hint}")
        if value is not None:
            default_map[param.name or key] = _option_value(param, value, ctx, where, raw_key)
    return default_map


def _read_yaml(path: Path) -> tuple[yaml.Node | None, Any]:
    """The file's YAML node tree (for line numbers) and its data, bounded in size, aliases
    and depth; every failure is a ``ConfigError`` naming the file."""
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise ConfigError(f"config file {path} is {size >> 10} KiB; a safelaunch config "
                              f"holds a few option lines (limit {MAX_CONFIG_BYTES >> 10} KiB)")
        text = path.read_text(encoding="utf-8")
        try:
            node = yaml.compose(text, Loader=_BoundedLoader)
            data = yaml.load(text, Loader=_BoundedLoader)  # a SafeLoader
        except (ConfigError, RecursionError) as exc:
            raise ConfigError(f"{path}: {exc}" if isinstance(exc, ConfigError)
                              else f"{path}: nested too deeply for a config file") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {path} is not UTF-8 text") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{path}{where}: invalid YAML: {problem}") from exc
    return node, data


def _option_value(param: click.Parameter, value: Any, ctx: click.Context, where: str,
                  raw_key: Any) -> Any:
    """``value`` from the file converted by ``param``'s type, as the command line's would
    be; a value of the wrong kind is a ``ConfigError`` at ``where``."""
    expected = _expected_yaml_type(param, value)
    if expected is not None:
        raise ConfigError(f"{where}: key '{raw_key}' expects {expected}, not {shown(value)}")
    try:
        return param.type_cast_value(ctx, value)
    except click.BadParameter as exc:
        raise ConfigError(f"{where}: key '{raw_key}': {exc.format_message()}") from exc
    except (TypeError, ValueError, AttributeError) as exc:  # click's own types, off str
        raise ConfigError(f"{where}: key '{raw_key}': {shown(value)} is not a valid "
                          "value") from exc


def _expected_yaml_type(param: click.Parameter, value: Any) -> str | None:
    """What a YAML value of the wrong kind should have been (None: the kind is right).

    Click converts command-line text; from YAML, a number for a flag crashed its bool
    conversion, and a number for a path or a name went through as a number."""
    if isinstance(param, click.Option) and param.is_flag and not param.count:
        return None if isinstance(value, bool) else "true or false"
    if isinstance(param.type, (click.types.StringParamType, click.Path, click.Choice)):
        items = value if isinstance(value, list) and (param.multiple or param.nargs != 1) \
            else [value]
        return None if all(isinstance(item, str) for item in items) else \
            "text (quote a number: \"123\")"
    return None
