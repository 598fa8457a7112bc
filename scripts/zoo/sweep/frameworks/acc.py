"""accelerate cases, started as ``torchrun ... acc.py CASE`` with Accelerator(cpu=True)."""

import os
import sys

import torch
import torch.nn as nn
from accelerate import Accelerator, notebook_launcher
from accelerate.utils import GradientAccumulationPlugin
from torch.utils.data import DataLoader, TensorDataset

# case -> the user's mistake
MISTAKES = {
    "backward_nonscalar": "accelerator.backward on a per-sample loss (reduction='none').",
    "ddp_attr": "a custom attribute of the model read after accelerator.prepare (DDP wrapper).",
    "gather_shapes": "accelerator.gather of tensors whose row count differs per rank.",
    "gather_strings": "accelerator.gather of a list of strings.",
    "grad_accum_both": "gradient_accumulation_steps and a GradientAccumulationPlugin both given.",
    "load_missing": "accelerator.load_state with a path that does not exist.",
    "notebook": "an Accelerator created at top level before notebook_launcher.",
    "prepare_order": "accelerator.prepare(model, opt, dl) unpacked as model, dl, opt.",
    "resume_changed": "load_state of a state saved before the model's width changed.",
    "resume_more_models": "load_state after preparing one more model than the saved state has.",
    "save": "(not a mistake) saves the state the resume cases load.",
    "split_batches": "split_batches=True, batch size not divisible by the number of processes.",
    "twice": "a second Accelerator(mixed_precision='bf16') in the same process.",
    "unwrap_keys": "the prepared (DDP) model's state_dict saved and loaded into a plain model.",
}
CASE = sys.argv[1]
assert CASE in MISTAKES, f"unknown case {CASE}"


class Net(nn.Module):
    def __init__(self, h=8):
        super().__init__()
        self.net = nn.Linear(h, 1)
        self.num_labels = 1

    def forward(self, x):
        return self.net(x)


def prepared(acc, model, opt, dl):
    if CASE == "prepare_order":
        model, dl, opt = acc.prepare(model, opt, dl)  # the mistake: another order
        return model, opt, dl
    return acc.prepare(model, opt, dl)


def train():
    kw = {}
    if CASE == "grad_accum_both":
        kw["gradient_accumulation_steps"] = 4
        kw["gradient_accumulation_plugin"] = GradientAccumulationPlugin(num_steps=4)
    if CASE == "split_batches":
        from accelerate.utils import DataLoaderConfiguration

        kw["dataloader_config"] = DataLoaderConfiguration(split_batches=True)
    acc = Accelerator(cpu=True, **kw)
    if CASE == "twice":
        acc = Accelerator(mixed_precision="bf16", cpu=True)
    H = 16 if CASE == "resume_changed" else 8
    model = Net(H)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    dl = DataLoader(
        TensorDataset(torch.randn(64, H), torch.randn(64, 1)),
        batch_size=5 if CASE == "split_batches" else 8,
    )
    model, opt, dl = prepared(acc, model, opt, dl)
    if CASE == "resume_more_models":
        _ema = acc.prepare(Net(8))  # a second model added since the state was saved
        acc.load_state(f"{os.getcwd()}/acc_state")
    for step, (x, y) in enumerate(dl):
        with acc.accumulate(model):
            loss = nn.functional.mse_loss(
                model(x), y, reduction="none" if CASE == "backward_nonscalar" else "mean"
            )
            acc.backward(loss)
            opt.step()
            opt.zero_grad()
        if CASE == "resume_changed" and step == 0:
            acc.load_state(f"{os.getcwd()}/acc_state")
        if CASE == "ddp_attr":
            print("labels", model.num_labels)
        if step == 2:
            break
    if CASE == "gather_shapes":
        # each rank has a different number of predictions (e.g. last uneven batch)
        preds = torch.randn(4 + acc.process_index, 3)
        allp = acc.gather(preds)
        print(allp.shape)
    if CASE == "gather_strings":
        texts = [f"sample {acc.process_index}-{i}" for i in range(3)]
        _allt = acc.gather(texts)
    if CASE == "load_missing":
        acc.load_state("checkpoints/step_100")
    if CASE == "save":
        acc.save_state(f"{os.getcwd()}/acc_state")
    if CASE == "unwrap_keys":
        if acc.is_main_process:
            torch.save(model.state_dict(), f"{os.getcwd()}/acc_model.pt")
        acc.wait_for_everyone()
        fresh = Net()
        fresh.load_state_dict(torch.load(f"{os.getcwd()}/acc_model.pt"))
    acc.print("done")


if CASE == "notebook":
    acc0 = Accelerator()
    notebook_launcher(train, num_processes=2)
else:
    train()
