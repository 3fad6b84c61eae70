"""An SPDK JSON config (``--json FILE``): the RPCs in it that change memory, and the rest listed as ignored.

``spdk_subsystem_init_from_json_config`` (v24.09:lib/init/json_config.c) runs each subsystem's ``config``
array in the file's order: the RPCs allowed at start-up (``SPDK_RPC_STARTUP``: ``iobuf_set_options``,
``bdev_set_options``, ``iscsi_set_options``, ``nvmf_set_max_subsystems``) before ``framework_start_init``,
the runtime ones (``bdev_malloc_create``, ``nvmf_create_transport``, ``nvmf_create_subsystem``) after the
subsystems are up.  Each known RPC's parameters are decoded with the decoder's names and defaults.

Pure: stdlib only (it reads the file it is given).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from mpcalc.dpdk.core.errors import InputError

#: RPCs whose memory effect the model takes
STARTUP = ("iobuf_set_options", "bdev_set_options", "iscsi_set_options", "nvmf_set_max_subsystems")
RUNTIME = ("bdev_malloc_create", "nvmf_create_transport", "nvmf_create_subsystem")
#: RPCs that take no DPDK memory of their own at start-up (what they set lives in libc memory or nowhere)
NO_MEMORY = frozenset(
    {
        "framework_set_scheduler",
        "scheduler_set_options",
        "sock_impl_set_options",
        "sock_set_default_impl",
        "accel_set_options",
        "bdev_nvme_set_options",
        "bdev_nvme_set_hotplug",
        "bdev_wait_for_examine",
        "nvmf_set_config",
        "nvmf_subsystem_add_ns",
        "nvmf_subsystem_add_listener",
        "nvmf_subsystem_add_host",
        "vmd_enable",
        "keyring_set_options",
    }
)


@dataclass
class Rpc:
    method: str
    params: dict[str, Any]
    subsystem: str


@dataclass
class Config:
    """The RPCs of the file, in order, and what the model takes from them."""

    path: str | None = None
    rpcs: list[Rpc] = field(default_factory=list)

    def startup(self, method: str) -> list[dict[str, Any]]:
        return [r.params for r in self.rpcs if r.method == method]

    @property
    def ignored(self) -> list[str]:
        """The methods whose memory effect the model does not take (neither listed as taken nor as no memory)."""
        taken = set(STARTUP) | set(RUNTIME) | NO_MEMORY
        return sorted({r.method for r in self.rpcs if r.method not in taken})

    @property
    def no_memory(self) -> list[str]:
        return sorted({r.method for r in self.rpcs if r.method in NO_MEMORY})


def read(path: str) -> Config:
    """The JSON config at ``path`` (``{"subsystems": [{"subsystem": ..., "config": [{"method", "params"}]}]}``,
    json_config_prepare_ctx, v24.09:lib/init/json_config.c:575-620)."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as exc:
        raise InputError(f"--json {path!r}: {exc.strerror or exc}", param="command") from None
    except ValueError as exc:
        raise InputError(f"--json {path!r} is not JSON: {exc}", param="command") from None
    return parse(doc, path)


def parse(doc: Any, path: str | None = None) -> Config:
    """A JSON config already decoded."""
    where = f"--json {path!r}" if path else "the JSON config"
    if not isinstance(doc, dict) or not isinstance(doc.get("subsystems"), list):
        # json_config.c:606-616: "Invalid JSON configuration: not enclosed in {}." / "'subsystems' should be an array."
        raise InputError(
            f"{where}: 'subsystems' should be an array (SPDK: Invalid JSON configuration)", param="command"
        )
    out = Config(path=path)
    for sub in doc["subsystems"]:
        if not isinstance(sub, dict) or not isinstance(sub.get("subsystem"), str):
            raise InputError(f"{where}: a subsystem entry needs a 'subsystem' name", param="command")
        config = sub.get("config")
        if config is None:
            continue
        if not isinstance(config, list):
            raise InputError(f"{where}: {sub['subsystem']!r} 'config' should be an array", param="command")
        for call in config:
            if not isinstance(call, dict) or not isinstance(call.get("method"), str):
                raise InputError(f"{where}: each config entry needs a 'method'", param="command")
            params = call.get("params") or {}
            if not isinstance(params, dict):
                raise InputError(f"{where}: {call['method']} 'params' should be an object", param="command")
            out.rpcs.append(Rpc(call["method"], params, sub["subsystem"]))
    return out


def uint(params: dict[str, Any], key: str, default: int, method: str, bits: int = 32) -> int:
    """``spdk_json_decode_uint32``/``uint64`` of an optional key: SPDK refuses a value that is not an unsigned
    integer of that width (the RPC fails: 'Invalid parameters')."""
    if key not in params:
        return default
    v = params[key]
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 1 << bits:
        raise InputError(
            f"{method}: {key} {v!r} is not a uint{bits} (SPDK: spdk_json_decode_object failed, 'Invalid parameters')",
            param="command",
        )
    return v
