"""Trainer(strategy="ddp_spawn") started at module level, without the __main__ guard."""

import lightning as L
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class M(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(8, 1)

    def training_step(self, b, i):
        return nn.functional.mse_loss(self.net(b[0]), b[1])

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)


dl = DataLoader(TensorDataset(torch.randn(32, 8), torch.randn(32, 1)), batch_size=8)
trainer = L.Trainer(
    accelerator="cpu",
    devices=2,
    strategy="ddp_spawn",
    max_epochs=1,
    logger=False,
    enable_progress_bar=False,
)
trainer.fit(M(), dl)
