"""Each library's own wordings of the failures the rules name, across the releases users run
(``wordings/``, a module a domain): every one diagnosed as its rule, every healthy line that
looks like one quiet."""

from __future__ import annotations

import pytest
from wordings import (
    accel,
    build,
    checks,
    data,
    ds,
    elastic,
    frameworks,
    hf,
    loops,
    nccl,
    platforms,
    pyimport,
    serving,
    torchcore,
    torchsrc,
)

from safelaunch.diagnose import diagnose, from_text

DOMAINS = {"accel": accel, "build": build, "checks": checks, "data": data, "ds": ds, "elastic": elastic,
           "frameworks": frameworks, "hf": hf, "loops": loops, "nccl": nccl, "platforms": platforms,
           "pyimport": pyimport,
           "serving": serving, "torchcore": torchcore,
           "torchsrc": torchsrc}
WORDINGS = [pytest.param(text, rule_id, id=f"{name}-{number}-{rule_id}")
            for name, module in DOMAINS.items()
            for number, (text, rule_id) in enumerate(module.WORDINGS)]
HEALTHY = [pytest.param(text, id=f"{name}-{number}")
           for name, module in DOMAINS.items() for number, text in enumerate(module.HEALTHY)]


@pytest.mark.parametrize(("text", "rule_id"), WORDINGS)
def test_a_real_wording_names_its_rule(text: str, rule_id: str) -> None:
    result = diagnose(from_text(text, "x.log"))
    assert [f.id for f in result.findings][:1] == [rule_id], text


@pytest.mark.parametrize("text", HEALTHY)
def test_a_healthy_line_that_looks_like_one_is_no_failure(text: str) -> None:
    assert diagnose(from_text(text, "x.log")).status == "no_failure", text


def test_ray_summary_without_oom_kills_is_not_memory_pressure() -> None:
    # Ray 2.9.3 raylet (node_manager.cc): the summary also counts workers that crashed for other
    # reasons; with none killed by the memory monitor it names no host-memory cause
    text = ("(raylet) [2024-03-02 10:11:12,345 E 395 395] (raylet) node_manager.cc:3049: 0 "
            "Workers (tasks / actors) killed due to memory pressure (OOM), 1 Workers crashed due "
            "to other reasons at node (ID: e5d9, IP: 10.0.62.231) over the last time period.\n")
    assert all(f.id != "ray-memory-pressure" for f in diagnose(from_text(text, "x.log")).findings)
