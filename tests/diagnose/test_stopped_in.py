"""A log that ends in a traceback cut before its exception line (an excerpt pasted short, a
terminal's scroll-back): the call its last whole frame stops in names a likely cause where
that call's failure has one well-known cause (the rules' ``stopped_in``)."""

from __future__ import annotations

import pytest

from safelaunch.diagnose import diagnose, from_text, render, tracebacks
from safelaunch.diagnose.kb import parse_rules
from safelaunch.errors import ConfigError

# accelerate's clip_grad_norm_ with an fp16 model, as Python 3.10 prints it (the frames of
# accelerate 0.25's accelerator.py); the excerpt stops inside torch's grad_scaler.py
UNSCALE = (
    "Steps:   0% 0/15000 [00:03<?, ?it/s, lr=0.0001, step_loss=0.126] Traceback (most recent"
    " call last):\n"
    '  File "/content/train_text_to_image_lora.py", line 798, in main\n'
    "    accelerator.clip_grad_norm_(params_to_clip, args.max_grad_norm)\n"
    '  File "/usr/local/lib/python3.10/dist-packages/accelerate/accelerator.py", line 2040, in'
    " clip_grad_norm_\n"
    "    self.unscale_gradients()\n"
    '  File "/usr/local/lib/python3.10/dist-packages/accelerate/accelerator.py", line 2003, in'
    " unscale_gradients\n"
    "    self.scaler.unscale_(opt)\n"
    '  File "/usr/local/lib/python3.10/dist-pack')
# a rank's set_device with Python 3.11's marks under the call; torchrun's rank prefix
SET_DEVICE = (
    "[rank3]: Traceback (most recent call last):\n"
    '[rank3]:   File "/work/train.py", line 41, in <module>\n'
    "[rank3]:     torch.cuda.set_device(local_rank)\n"
    "[rank3]:     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n")


def _first(text: str) -> tuple[str, bool]:
    finding = diagnose(from_text(text, "cut.log")).findings[0]
    return finding.id, finding.likely


def test_a_cut_traceback_names_its_calls_likely_cause():
    assert _first(SET_DEVICE) == ("no-cuda-device", True)
    result = diagnose(from_text(SET_DEVICE, "cut.log"))
    assert result.findings[0].rank == 3
    assert result.findings[0].evidence[0].text == "torch.cuda.set_device(local_rank)"
    shown = render(result)
    assert shown.startswith("diagnosis (likely): A rank asked for a GPU that does not exist")
    assert "the log ends in a traceback cut before its error line" in shown


def test_a_whole_traceback_is_read_from_its_exception_not_its_call():
    whole = SET_DEVICE + "[rank3]: RuntimeError: CUDA error: out of memory\n"
    assert _first(whole) == ("cuda-oom", False)
    assert "(likely)" not in render(diagnose(from_text(whole, "whole.log")))


@pytest.mark.parametrize("after", [
    "epoch 1 step 10 loss 2.31\n",  # the run printed more: the traceback was not where it ended
    "[rank3]: ValueError: local_rank is not set\n",
])
def test_a_traceback_followed_by_more_output_is_not_cut(after):
    assert tracebacks.stopped_in(SET_DEVICE + after, True) is None
    findings = diagnose(from_text(SET_DEVICE + after, "on.log")).findings
    assert not any(f.likely or f.id == "no-cuda-device" for f in findings)


def test_a_call_with_no_known_cause_stays_a_failure_shown():
    text = SET_DEVICE.replace("torch.cuda.set_device(local_rank)", "model = build(cfg)")
    assert _first(text) == ("failure-shown", False)
    # GradScaler.unscale_ fails as often for fp16 parameters as for a second unscale_ in one
    # step (gradient accumulation): the cut names neither
    assert _first(UNSCALE) == ("failure-shown", False)


@pytest.mark.parametrize("call, rule", [
    ("_store_based_barrier(rank, store, timeout)", "store-timeout"),
    ('local_rank = int(os.environ["LOCAL_RANK"])', "not-launched"),
    ("model.load_state_dict(checkpoint['model'])", "state-dict-keys"),
    ("_error_if_any_worker_fails()", "dataloader-worker-killed"),
    ("ForkingPickler(file, protocol).dump(obj)", "spawn-pickle"),
    ("reduction.dump(process_obj, fp)", "spawn-pickle"),
])
def test_calls_with_one_well_known_failure(call, rule):
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 600, in <module>\n    main(opt)\n'
            f'  File "train.py", line 494, in main\n    {call}\n')
    assert _first(text) == (rule, True)


@pytest.mark.parametrize("call", [
    # init_process_group fails mostly at the rendezvous (an address, a port, a rank missing),
    # whatever its timeout: a short one is a choice to learn it soon
    'dist.init_process_group(backend="nccl", timeout=timedelta(seconds=60))',
    "dist.init_process_group(backend, timeout=timedelta(minutes=30))",
    "optimizer.load_state_dict(checkpoint['optimizer'])",  # a parameter groups' mismatch
    'd_opt.load_state_dict(ckpt["opt"])',
    'model.load_state_dict(torch.load(args.resume, map_location="cpu"))',  # torch.load's own
    "local_rank = int(os.environ.get('LOCAL_RANK', 0))",
    'os.environ["MASTER_PORT"] = port',  # an assignment raises no KeyError
])
def test_calls_whose_failure_is_not_that_one(call):
    text = ("Traceback (most recent call last):\n"
            '  File "train.py", line 600, in <module>\n    main(opt)\n'
            f'  File "train.py", line 494, in main\n    {call}\n')
    assert _first(text) == ("failure-shown", False)


def test_a_proven_cause_comes_before_an_inferred_one():
    proven = ("[rank0]: Traceback (most recent call last):\n"
              '[rank0]:   File "/work/train.py", line 80, in <module>\n'
              "[rank0]:     loss.backward()\n"
              "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
              " (GPU 0; 79.15 GiB total capacity)\n")
    result = diagnose(from_text(proven + SET_DEVICE, "both.log"))
    assert [f.id for f in result.findings][:2] == ["cuda-oom", "no-cuda-device"]
    assert [f.likely for f in result.findings][:2] == [False, True]


def test_a_traceback_logged_as_a_warning_is_not_a_stop():
    text = ("W1127 10:00:00.000000 1 torch/x.py:1] Traceback (most recent call last):\n"
            'W1127 10:00:00.000000 1 torch/x.py:1]   File "a.py", line 1, in f\n'
            "W1127 10:00:00.000000 1 torch/x.py:1]     torch.cuda.set_device(0)\n")
    assert tracebacks.stopped_in(text, False) is None


def test_an_endless_traceback_is_read_a_bounded_way():
    frames = '  File "a.py", line 1, in f\n    g()\n' * (tracebacks.MAX_FRAME_LINES + 10)
    text = "Traceback (most recent call last):\n" + frames + "    torch.cuda.set_device(0)\n"
    assert tracebacks.stopped_in(text, False) is None


def test_a_rule_may_hold_by_its_calls_alone_and_a_bad_one_is_refused():
    rule = ("- id: x\n  title: t\n  explain: e\n  fixes: [f]\n"
            "  stopped_in: ['\\bload_it\\(']\n")
    assert parse_rules(rule)[0].stopped_in[0].keyword == "load_it("
    with pytest.raises(ConfigError, match="bad pattern"):
        parse_rules(rule.replace("'\\bload_it\\('", "''"))


# Open MPI's output prefix on every line; the excerpt lost the traceback's head and its end
HEADLESS = (
    "[1,6]<stderr>:  File \"/work/run.py\", line 59, in <module>\n"
    "[1,6]<stderr>:    dist.init_process_group('nccl', init_method='file:///shared/ips')\n"
    "[1,6]<stderr>:  File \"/opt/conda/lib/python3.6/site-packages/torch/distributed/"
    "distributed_c10d.py\", line 406, in init_process_group\n"
    "[1,6]<stderr>:    store, rank, world_size = next(rendezvous(url))\n"
    "[1,6]<stderr>:  File \"/opt/conda/lib/python3.6/site-packages/torch/distributed/"
    "rendezvous.py\", line 66, in _file_rendezvous_handler\n"
    "[1,6]<stderr>:    raise _error(\"rank parameter missing\")\n")


def test_frames_cut_at_both_ends_are_read_too():
    result = diagnose(from_text("loading config\n" + HEADLESS, "headless.log"))
    first = result.findings[0]
    assert (first.id, first.likely, first.rank) == ("init-method-without-rank", True, 6)


def test_one_frame_without_a_head_is_a_quoted_line_not_a_stop():
    one = "see this frame:\n" + "\n".join(HEADLESS.splitlines()[-2:]) + "\n"
    assert tracebacks.stopped_in(one, False) is None
    assert diagnose(from_text(one, "one.log")).status == "no_failure"


def test_a_cut_traceback_behind_a_loggers_time_stamp_or_cut_by_a_terminal():
    cut = UNSCALE.replace("self.scaler.unscale_(opt)", "torch.cuda.set_device(self.device)")
    stamped = "".join(f"2024-05-01 12:00:{n:02d},123 {line}\n"
                      for n, line in enumerate(cut.splitlines()))
    assert _first(stamped) == ("no-cuda-device", True)
    wrapped = "".join(line[i:i + 80] + "\n" for line in cut.splitlines()
                      for i in range(0, max(len(line), 1), 80))
    assert _first(wrapped) == ("no-cuda-device", True)


def test_other_ranks_going_on_after_the_call_is_not_a_cut():
    few = SET_DEVICE + "".join(f"[rank0]: step {n} loss 1.99\n" for n in range(5))
    assert _first(few) == ("no-cuda-device", True)  # ranks that stopped too
    many = SET_DEVICE + "".join(f"[rank0]: step {n} loss 1.99\n" for n in range(300))
    assert tracebacks.stopped_in(many, True) is None


def test_frames_a_logger_reported_at_a_quiet_level_are_no_stop():
    graph_break = "".join(
        f"V0501 12:00:00.123000 140 torch/_dynamo/symbolic_convert.py:440] [0/1] "
        f"[__graph_breaks] {line}\n" for line in (
            "Graph break: from user code at:",
            '  File "/work/train.py", line 120, in train_step',
            "    loss = model(batch)",
            '  File "/work/model.py", line 42, in forward',
            "    torch.cuda.set_device(mask)"))
    text = "step 100 loss 2.1\n" + graph_break
    assert tracebacks.stopped_in(text, False) is None
    assert diagnose(from_text(text, "breaks.log")).status == "no_failure"


def test_a_frozen_frame_has_no_source_line_the_call_is_its_callers():
    text = ("Traceback (most recent call last):\n"
            '  File "/work/train.py", line 9, in <module>\n'
            '    rank = int(os.environ["RANK"])\n'
            '  File "<frozen os>", line 714, in __getitem__\n')
    stopped = tracebacks.stopped_in(text, False)
    assert stopped is not None and stopped.call == 'rank = int(os.environ["RANK"])'
    assert _first(text) == ("not-launched", True)


def test_an_exception_line_with_a_windows_line_end_ends_the_traceback():
    text = ("Traceback (most recent call last):\r\n"
            '  File "/work/train.py", line 9, in <module>\r\n'
            "    torch.cuda.set_device(9)\r\n"
            "AssertionError\r\n")
    assert tracebacks.stopped_in(text, False) is None


def test_python_marks_are_told_apart_quickly_on_a_long_line():
    assert tracebacks._marks("    ^^^^^^^^^^^^^^")
    assert tracebacks._marks("2024-05-01 12:00:00,123     ~~~~^^^^")
    assert not tracebacks._marks("x = a ^ b")
    assert not tracebacks._marks("~ " * 50_000 + "x")  # linear: no regex backtracking
