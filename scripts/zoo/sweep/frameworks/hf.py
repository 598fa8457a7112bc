"""transformers Trainer cases, started as ``torchrun ... hf.py CASE`` (a tiny GPT-2 on CPU)."""

import os
import sys

import torch
import torch.nn as nn
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import (
    AutoModelForCausalLM,
    DataCollatorWithPadding,
    GPT2Config,
    PreTrainedTokenizerFast,
    Trainer,
    TrainingArguments,
)

# case -> the user's mistake
MISTAKES = {
    "best_steps_multiple": "load_best_model_at_end with save_steps not a multiple of eval_steps.",
    "best_strategy_mismatch": "load_best_model_at_end, eval_strategy epoch, save_strategy steps.",
    "bf16_cpu": "bf16=True on a machine without a bf16 GPU, without use_cpu=True.",
    "deepspeed_missing": "TrainingArguments(deepspeed=ds.json) without deepspeed installed.",
    "find_unused_false": "ddp_find_unused_parameters=False, a submodule that forward never uses.",
    "gc_reentrant": "reentrant gradient checkpointing with ddp_find_unused_parameters=True.",
    "metric_missing": "metric_for_best_model='accuracy' without compute_metrics returning it.",
    "nccl_cpu": "ddp_backend='nccl' (a GPU recipe) on a CPU-only machine.",
    "no_eval_dataset": "eval_strategy='steps' without an eval_dataset.",
    "no_loss": "a causal LM trained on a dataset without labels.",
    "optim_bnb": "optim='adamw_bnb_8bit' without bitsandbytes installed.",
    "pad_labels": "variable-length labels batched by DataCollatorWithPadding (labels not padded).",
    "pad_token": "DataCollatorWithPadding with a tokenizer that has no pad token.",
    "report_tb": "report_to='tensorboard' without tensorboard installed.",
    "report_wandb": "report_to='wandb' without wandb installed.",
    "resume_missing": "resume_from_checkpoint pointing at a checkpoint folder that does not exist.",
    "resume_true_empty": "resume_from_checkpoint=True on a first run (no checkpoint yet).",
    "unequal_default": "no collator, no tokenizer: default_data_collator on variable lengths.",
}
CASE = sys.argv[1]
assert CASE in MISTAKES, f"unknown case {CASE}"
OUT = f"{os.getcwd()}/hf_out_{CASE}"

words = ["<unk>", "<eos>"] + [f"w{i}" for i in range(98)]
tk = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
tk.pre_tokenizer = pre_tokenizers.Whitespace()
tok = PreTrainedTokenizerFast(tokenizer_object=tk, unk_token="<unk>", eos_token="<eos>")
if CASE not in ("pad_token",):
    tok.pad_token = tok.eos_token

cfg = GPT2Config(vocab_size=100, n_positions=64, n_embd=32, n_layer=2, n_head=2)
model = AutoModelForCausalLM.from_config(cfg)

g = torch.Generator().manual_seed(0)
texts = [
    " ".join(
        f"w{int(t)}"
        for t in torch.randint(2, 100, (int(torch.randint(5, 12, (1,), generator=g)),), generator=g)
    )
    for _ in range(32)
]


class DS(torch.utils.data.Dataset):
    def __init__(self, fixed=True, labels=True):
        self.items = []
        for t in texts:
            ids = tok(t)["input_ids"]
            if fixed:
                ids = (ids + [0] * 12)[:12]
            d = {"input_ids": ids}
            if labels:
                d["labels"] = list(ids)
            self.items.append(d)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        return self.items[i]


kw = dict(
    output_dir=OUT,
    per_device_train_batch_size=4,
    max_steps=6,
    report_to="none",
    logging_steps=2,
    save_strategy="no",
    use_cpu=True,
    disable_tqdm=True,
)
train_ds, eval_ds, collator = DS(), None, None
tkw = {}
if CASE == "best_strategy_mismatch":
    kw.update(
        load_best_model_at_end=True, eval_strategy="epoch", save_strategy="steps", save_steps=3
    )
if CASE == "best_steps_multiple":
    kw.update(
        load_best_model_at_end=True,
        eval_strategy="steps",
        eval_steps=4,
        save_strategy="steps",
        save_steps=6,
    )
if CASE == "no_eval_dataset":
    kw.update(eval_strategy="steps", eval_steps=3)
if CASE == "metric_missing":
    kw.update(
        eval_strategy="steps",
        eval_steps=3,
        save_strategy="steps",
        save_steps=3,
        load_best_model_at_end=True,
        metric_for_best_model="accuracy",
    )
    eval_ds = DS()
if CASE == "gc_reentrant":
    kw.update(
        gradient_checkpointing=True,
        gradient_checkpointing_kwargs={"use_reentrant": True},
        ddp_find_unused_parameters=True,
    )
if CASE == "bf16_cpu":
    kw.update(bf16=True, use_cpu=False)
if CASE == "pad_token":
    train_ds = DS(fixed=False, labels=False)
    collator = DataCollatorWithPadding(tok)
if CASE == "pad_labels":
    train_ds = DS(fixed=False, labels=True)
    collator = DataCollatorWithPadding(tok)
if CASE == "unequal_default":
    train_ds = DS(fixed=False, labels=True)
if CASE == "no_loss":
    train_ds = DS(labels=False)
if CASE == "resume_missing":
    tkw["resume_from_checkpoint"] = f"{OUT}/checkpoint-500"
if CASE == "resume_true_empty":
    tkw["resume_from_checkpoint"] = True
    os.makedirs(OUT, exist_ok=True)
if CASE == "find_unused_false":
    kw.update(ddp_find_unused_parameters=False)
    model.lm_extra = nn.Linear(32, 32)  # an extra head never used in forward
if CASE == "deepspeed_missing":
    import json

    with open(f"{os.getcwd()}/ds.json", "w") as f:
        json.dump({"train_micro_batch_size_per_gpu": "auto", "zero_optimization": {"stage": 2}}, f)
    kw.update(deepspeed=f"{os.getcwd()}/ds.json")
if CASE == "optim_bnb":
    kw.update(optim="adamw_bnb_8bit")
if CASE == "report_tb":
    kw.update(report_to="tensorboard")
if CASE == "report_wandb":
    kw.update(report_to="wandb")
if CASE == "nccl_cpu":
    kw.update(ddp_backend="nccl")
args = TrainingArguments(**kw)
trainer = Trainer(
    model=model, args=args, train_dataset=train_ds, eval_dataset=eval_ds, data_collator=collator
)
trainer.train(**tkw)
print("done")
