"""save_hyperparameters() with a dataclass config, then a resume from its checkpoint (1, then 2)."""

import os
import sys
from dataclasses import dataclass

import lightning as L
import torch
import torch.nn as nn
from lightning.pytorch.callbacks import ModelCheckpoint
from torch.utils.data import DataLoader, TensorDataset


@dataclass
class Cfg:
    hidden: int = 8
    lr: float = 0.1


class M(L.LightningModule):
    def __init__(self, cfg: Cfg = Cfg()):  # noqa: B008 (the config object is the point)
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.Linear(cfg.hidden, 1)

    def training_step(self, b, i):
        return nn.functional.mse_loss(self.net(b[0]), b[1])

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=self.hparams.cfg.lr)


dl = DataLoader(TensorDataset(torch.randn(32, 8), torch.randn(32, 1)), batch_size=8)
ck = ModelCheckpoint(dirpath=f"{os.getcwd()}/ckpt_resume", save_last=True)
trainer = L.Trainer(
    accelerator="cpu",
    devices=2,
    strategy="ddp",
    max_epochs=int(sys.argv[1]),
    logger=False,
    enable_progress_bar=False,
    callbacks=[ck],
)
trainer.fit(
    M(), dl, ckpt_path=None if sys.argv[1] == "1" else f"{os.getcwd()}/ckpt_resume/last.ckpt"
)
print("done")
