"""Lightning cases, started as ``torchrun ... lit.py CASE`` with Trainer(strategy="ddp") on CPU."""

import datetime
import os
import sys

import lightning as L
import torch
import torch.nn as nn
from lightning.pytorch.callbacks import ModelCheckpoint
from lightning.pytorch.strategies import DDPStrategy
from torch.utils.data import DataLoader, TensorDataset

# case -> the user's mistake
MISTAKES = {
    "devices_list_cpu": "Trainer(accelerator='cpu', devices=[0, 1]) (a GPU config reused on CPU).",
    "devices_mismatch": "Trainer(devices=4) under torchrun --nproc-per-node 2.",
    "dict_no_loss": "training_step returns a dict without the 'loss' key.",
    "earlystop_missing": "EarlyStopping(monitor='val_loss') while validation logs 'val_mse'.",
    "fsdp_cpu": "Trainer(strategy='fsdp', accelerator='cpu').",
    "fsdp_opt_init": "an optimizer built in __init__ and returned by configure_optimizers (FSDP).",
    "log_nonscalar": "self.log of a per-sample vector instead of a scalar.",
    "log_string": "self.log of a string.",
    "missing_ckpt": "trainer.fit(ckpt_path=...) with a path that does not exist.",
    "mixed_imports": "a pytorch_lightning LightningModule given to a lightning Trainer.",
    "monitor_missing": "ModelCheckpoint(monitor='val_loss') while validation logs 'val_mse'.",
    "none_some_ranks": "training_step returns None on one rank only under DDP.",
    "num_nodes_mismatch": "Trainer(num_nodes=2) under a single-node torchrun.",
    "plateau_no_monitor": "ReduceLROnPlateau returned from configure_optimizers without a monitor.",
    "spawn_pickle": "strategy='ddp_spawn' with a lambda stored on the LightningModule.",
    "sync_dist_rank0": "self.log(..., sync_dist=True) under a rank condition.",
    "tb_missing": "TensorBoardLogger without tensorboard installed.",
    "topk_no_monitor": "ModelCheckpoint(save_top_k=3) without monitor.",
    "unused": "a submodule defined in __init__ but not used in forward, strategy='ddp'.",
    "validate_rank0": "trainer.validate on rank 0 only after fit under DDP.",
}
CASE = sys.argv[1]
assert CASE in MISTAKES, f"unknown case {CASE}"


def data(n=64):
    return DataLoader(TensorDataset(torch.randn(n, 8), torch.randn(n, 1)), batch_size=8)


Base = L.LightningModule
if CASE == "mixed_imports":
    import pytorch_lightning as pl

    Base = pl.LightningModule


class M(Base):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(8, 1)
        if CASE == "unused":
            self.extra = nn.Linear(8, 1)
        if CASE == "spawn_pickle":
            self.fn = lambda x: x * 2
        if CASE == "fsdp_opt_init":
            self.opt = torch.optim.SGD(self.parameters(), lr=0.1)

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, i):
        x, y = batch
        loss = nn.functional.mse_loss(self(x), y)
        if CASE == "log_nonscalar":
            self.log("per_sample_err", (self(x) - y).abs().squeeze(), sync_dist=True)
        if CASE == "log_string":
            self.log("phase", "train")
        if CASE == "dict_no_loss":
            return {"train_loss": loss}
        if CASE == "none_some_ranks" and self.global_rank == 1 and i == 2:
            return None
        return loss

    def validation_step(self, batch, i):
        x, y = batch
        self.log("val_mse", nn.functional.mse_loss(self(x), y), sync_dist=True)

    def on_validation_epoch_end(self):
        if CASE == "sync_dist_rank0" and self.global_rank == 0:
            self.log("best_mse", torch.tensor(0.5), sync_dist=True)

    def configure_optimizers(self):
        if CASE == "fsdp_opt_init":
            return self.opt
        if CASE == "plateau_no_monitor":
            opt = torch.optim.SGD(self.parameters(), lr=0.1)
            return {
                "optimizer": opt,
                "lr_scheduler": torch.optim.lr_scheduler.ReduceLROnPlateau(opt),
            }
        return torch.optim.SGD(self.parameters(), lr=0.1)


kw = dict(
    accelerator="cpu",
    devices=2,
    strategy="ddp",
    max_epochs=1,
    logger=False,
    enable_progress_bar=False,
    enable_model_summary=False,
)
cbs = []
if CASE == "monitor_missing":
    cbs = [ModelCheckpoint(dirpath=f"{os.getcwd()}/ckpt_lit", monitor="val_loss")]
if CASE == "topk_no_monitor":
    cbs = [ModelCheckpoint(dirpath=f"{os.getcwd()}/ckpt_lit", save_top_k=3)]
if CASE == "earlystop_missing":
    from lightning.pytorch.callbacks import EarlyStopping

    cbs = [EarlyStopping(monitor="val_loss")]
kw["callbacks"] = cbs
if CASE == "tb_missing":
    from lightning.pytorch.loggers import TensorBoardLogger

    kw["logger"] = TensorBoardLogger(f"{os.getcwd()}/tb")
if CASE == "devices_mismatch":
    kw["devices"] = 4
if CASE == "num_nodes_mismatch":
    kw["num_nodes"] = 2
if CASE == "spawn_pickle":
    kw["strategy"] = "ddp_spawn"
if CASE == "none_some_ranks":
    kw["strategy"] = DDPStrategy(timeout=datetime.timedelta(seconds=30))
if CASE in ("fsdp_opt_init", "fsdp_cpu"):
    kw["strategy"] = "fsdp"
if CASE == "devices_list_cpu":
    kw["devices"] = [0, 1]
if CASE in ("validate_rank0", "sync_dist_rank0"):
    kw["strategy"] = DDPStrategy(timeout=datetime.timedelta(seconds=30))

model = M()
trainer = L.Trainer(**kw)
if CASE == "missing_ckpt":
    trainer.fit(model, data(), ckpt_path="checkpoints/last.ckpt")
elif CASE == "validate_rank0":
    trainer.fit(model, data())
    if trainer.global_rank == 0:
        trainer.validate(model, data())
else:
    trainer.fit(model, data(), data(16))
print("done")
