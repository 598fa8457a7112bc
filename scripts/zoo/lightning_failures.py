"""The failure zoo under PyTorch Lightning's own launcher: ``python lightning_failures.py``
with ``Trainer(strategy="ddp", devices=2)`` starts the second rank itself, as Lightning users
run it.  Rank 1 fails at step 5 the way ``ZOO_CASE`` says (the same failures as
``failures.py``, whose ``fail`` does it: a TypeError, a ZeroDivisionError, a segfault,
SIGKILL, ``sys.exit(3)``)."""

from __future__ import annotations

import lightning as L
from failures import fail
from lightning.pytorch.demos.boring_classes import BoringModel, RandomDataset
from torch.utils.data import DataLoader


class Failing(BoringModel):
    def training_step(self, batch, batch_idx):  # type: ignore[no-untyped-def]
        if self.global_rank == 1 and batch_idx == 5:
            fail()
        return super().training_step(batch, batch_idx)


if __name__ == "__main__":
    trainer = L.Trainer(accelerator="cpu", devices=2, strategy="ddp", max_steps=10,
                        enable_progress_bar=False, logger=False, enable_checkpointing=False,
                        enable_model_summary=False)
    trainer.fit(Failing(), DataLoader(RandomDataset(32, 64), batch_size=2))
